package schedule

import "time"

// Backoff bounds: the first retry after a failure waits BaseBackoff, each
// further consecutive failure doubles the wait, up to MaxBackoff. With 12 h a
// blog that keeps failing is still tried about twice a day, and a daily blog
// that keeps failing settles on its regular daily slot (see NextAfterFailure).
const (
	BaseBackoff = time.Minute
	MaxBackoff  = 12 * time.Hour
	// MaxDownBackoff caps the wait between the runs of a blog that is
	// down (NextWhileDown): a dead blog is still asked once a day.
	MaxDownBackoff = 24 * time.Hour
)

// Backoff returns the wait after the given number of consecutive failures:
// 1m, 2m, 4m, … doubling, capped at MaxBackoff. Failures below 1 count as 1.
func Backoff(failures int) time.Duration {
	if failures < 1 {
		failures = 1
	}
	if failures > 30 {
		return MaxBackoff
	}
	return min(BaseBackoff<<(failures-1), MaxBackoff)
}

// NextAfterSuccess returns when a blog is due after a run that ended at now
// with outcome ok or partial: its next regular slot.
func NextAfterSuccess(s Spec, now time.Time) time.Time {
	return s.Next(now)
}

// NextAfterFailure returns when a blog is due after a failed run that ended at
// now, failures being the consecutive failures including this one.
//
// A failing blog is retried sooner than its next regular slot while the
// backoff allows, and never much more often than the backoff allows:
//   - if now+Backoff(failures) comes before the next regular slot, that is
//     the retry time (a blip is retried within minutes);
//   - otherwise the retry is the first regular slot at or after
//     now+Backoff(failures)-Backoff(failures)/8, so a retry whose wait has
//     grown to the interval lands on the times the archivist chose. The
//     eighth of slack keeps a run's own duration from pushing the retry one
//     whole slot further.
//
// After a success NextAfterSuccess puts the blog back on every regular slot.
// With "0 3 * * *" a run failing at 03:00 is retried at 03:01, 03:03, 03:07, …
// and, once the wait reaches 12 h, twice a day (03:00 and 12 h later); the
// step onto the slot can leave one gap of up to a day and a half, never one
// shorter than the backoff. "@every 10m" spaces out
// to about every 12 h instead of hammering a failing server every 10 minutes;
// "@weekly" is retried every 12 h until its next regular slot.
//
// For a permanent error (blogharvest.IsTransient false) a retry cannot help:
// use NextAfterSuccess, the regular slot, instead.
//
// A spec of "@every" shorter than BaseBackoff backs off from its own
// interval instead (2s, 4s, 8s, … for "@every 2s"): a retry never waits
// less than the interval nor more than the backoff of a minute's base.
func NextAfterFailure(s Spec, failures int, now time.Time) time.Time {
	return nextAfterWait(s, backoffOf(s, failures, MaxBackoff), now)
}

// NextWhileDown returns when a blog that is down (it has failed for the
// daemon's down_after) is due after a failed run that ended at now: as
// NextAfterFailure, the wait doubling with each consecutive failure, but
// capped at MaxDownBackoff instead of MaxBackoff, and whatever the error
// (a permanent one too): a dead blog is asked about once a day, on a
// regular slot, until a run succeeds.
func NextWhileDown(s Spec, failures int, now time.Time) time.Time {
	return nextAfterWait(s, backoffOf(s, failures, MaxDownBackoff), now)
}

// backoffOf is Backoff(failures) capped at limit, from the spec's own
// interval when it is an "@every" shorter than BaseBackoff.
func backoffOf(s Spec, failures int, limit time.Duration) time.Duration {
	base := BaseBackoff
	if s.every > 0 && s.every < base {
		base = s.every
	}
	wait := base
	for i := 1; i < failures && wait < limit; i++ {
		wait *= 2
	}
	return min(wait, limit)
}

// nextAfterWait is the retry after a wait (NextAfterFailure's rule).
func nextAfterWait(s Spec, wait time.Duration, now time.Time) time.Time {
	retry := now.Add(wait)
	if s.IsZero() {
		return retry
	}
	if regular := s.Next(now); retry.Before(regular) {
		return retry
	}
	earliest := wait - wait/8
	if s.every > 0 {
		n := (earliest + s.every - 1) / s.every
		return now.Add(n * s.every)
	}
	return s.Next(now.Add(earliest - time.Nanosecond))
}

// DueOnStart returns when a blog with the stored state st is due when the
// daemon starts at now:
//   - no NextDue (a new blog, never run): now, its first run;
//   - a run that was still "running" (the daemon died during it) or was
//     "interrupted" (the daemon was stopped during it): now;
//   - a NextDue that passed while the daemon was down: now, once, however
//     many slots were missed;
//   - otherwise the stored NextDue.
func DueOnStart(st State, now time.Time) time.Time {
	if st.NextDue.IsZero() || unfinished(st) || !st.NextDue.After(now) {
		return now
	}
	return st.NextDue
}

// unfinished reports whether st's last run did not end on its own.
func unfinished(st State) bool {
	return st.Outcome == OutcomeRunning || st.Outcome == OutcomeInterrupted
}

// DueOnStartFor is DueOnStart for a blog whose current spec is s. If the
// schedule was changed in the config since the state was saved (st.Spec
// differs from s.String()), the stored NextDue belongs to the old schedule:
// the blog is due at s's first slot after its last run ended (now if that has
// passed), as if s had been in force all along.
func DueOnStartFor(st State, s Spec, now time.Time) time.Time {
	if st.Spec == s.String() || st.LastEnd.IsZero() || unfinished(st) {
		return DueOnStart(st, now)
	}
	due := s.Next(st.LastEnd)
	if due.IsZero() || !due.After(now) {
		return now
	}
	return due
}
