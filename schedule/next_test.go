package schedule_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/schedule"
)

func TestBackoff(t *testing.T) {
	tests := []struct {
		failures int
		want     time.Duration
	}{
		{-1, time.Minute}, {0, time.Minute}, {1, time.Minute}, {2, 2 * time.Minute}, {3, 4 * time.Minute},
		{6, 32 * time.Minute}, {10, 512 * time.Minute}, {11, 12 * time.Hour}, {12, 12 * time.Hour},
		{64, 12 * time.Hour}, {1 << 30, 12 * time.Hour},
	}
	for _, tt := range tests {
		if got := schedule.Backoff(tt.failures); got != tt.want {
			t.Errorf("Backoff(%d) = %v, want %v", tt.failures, got, tt.want)
		}
	}
}

func TestNextAfterSuccess(t *testing.T) {
	s := mustParse(t, "0 3 * * *")
	if got, want := schedule.NextAfterSuccess(s, date(2026, 1, 1, 3, 5, nil)), date(2026, 1, 2, 3, 0, nil); !got.Equal(want) {
		t.Errorf("NextAfterSuccess = %v, want %v", got, want)
	}
}

func TestNextAfterFailure(t *testing.T) {
	daily, every10, weekly := mustParse(t, "0 3 * * *"), mustParse(t, "@every 10m"), mustParse(t, "@weekly")
	d0 := func(h, m int) time.Time { return date(2026, 1, 1, h, m, nil) } // a Thursday
	tests := []struct {
		name     string
		spec     schedule.Spec
		failures int
		now      time.Time
		want     time.Time
	}{
		{"daily, first failure: a minute later", daily, 1, d0(3, 5), d0(3, 6)},
		{"daily, third failure", daily, 3, d0(3, 10), d0(3, 14)},
		{"daily, tenth failure: 512m, still before the slot", daily, 10, d0(10, 0), d0(18, 32)},
		{"daily, backoff passes the slot: the slot after now+10.5h", daily, 11, d0(18, 37), date(2026, 1, 3, 3, 0, nil)},
		{"daily, capped, early in the day: 12h later", daily, 12, d0(3, 5), d0(15, 5)},
		{"daily, capped, afternoon: the next 03:00 despite 5 minutes short", daily, 13, d0(15, 10), date(2026, 1, 2, 3, 0, nil)},
		{"every 10m, 4m backoff: before the slot", every10, 3, d0(12, 0), d0(12, 4)},
		{"every 10m, 16m backoff: two intervals", every10, 5, d0(12, 0), d0(12, 20)},
		{"every 10m, capped: 63 intervals, not every 10 minutes", every10, 20, d0(12, 0), d0(22, 30)},
		{"weekly, capped: 12h, long before the slot", weekly, 15, d0(12, 0), date(2026, 1, 2, 0, 0, nil)},
		{"zero spec: plain backoff", schedule.Spec{}, 2, d0(12, 0), d0(12, 2)},
	}
	for _, tt := range tests {
		if got := schedule.NextAfterFailure(tt.spec, tt.failures, tt.now); !got.Equal(tt.want) {
			t.Errorf("%s: NextAfterFailure(%q, %d, %v) = %v, want %v", tt.name, tt.spec, tt.failures, tt.now, got, tt.want)
		}
	}
}

// TestNextAfterFailureBounds checks the contract over many specs, failure
// counts and times: the retry is never sooner than 7/8 of the backoff, never
// later than the first regular slot after the full backoff, and exactly the
// backoff when that comes before the regular slot.
func TestNextAfterFailureBounds(t *testing.T) {
	specs := []string{"0 3 * * *", "*/5 * * * *", "@hourly", "@every 6h", "@every 1m", "0 9 * * 1-5", "@monthly", "15 */2 * * *"}
	start := date(2026, 2, 27, 0, 0, nil)
	for _, text := range specs {
		s := mustParse(t, text)
		for f := 1; f <= 14; f++ {
			for m := 0; m < 3*24*60; m += 37 {
				now := start.Add(time.Duration(m) * time.Minute)
				checkFailureBounds(t, s, f, now)
			}
		}
	}
}

func checkFailureBounds(t *testing.T, s schedule.Spec, f int, now time.Time) {
	t.Helper()
	wait := schedule.Backoff(f)
	got := schedule.NextAfterFailure(s, f, now)
	regular := s.Next(now)
	desc := fmt.Sprintf("%q failures=%d now=%v: got %v", s, f, now, got)
	switch {
	case got.Sub(now) < wait-wait/8:
		t.Fatalf("%s: sooner than the backoff %v allows", desc, wait)
	case now.Add(wait).Before(regular) && !got.Equal(now.Add(wait)):
		t.Fatalf("%s: want now+%v, before the regular slot %v", desc, wait, regular)
	case !now.Add(wait).Before(regular) && got.After(s.Next(now.Add(wait))):
		t.Fatalf("%s: later than the first slot after the backoff", desc)
	case !now.Add(wait).Before(regular) && got.Before(regular):
		t.Fatalf("%s: before the regular slot %v", desc, regular)
	}
}

// TestFailingDailyBlogSettles simulates a daily blog that fails for a week
// (each run takes 5 minutes) and then recovers.
func TestFailingDailyBlogSettles(t *testing.T) {
	s := mustParse(t, "0 3 * * *")
	due := date(2026, 1, 1, 3, 0, nil)
	perDay := make(map[string]int)
	failures := 0
	for due.Before(date(2026, 1, 8, 0, 0, nil)) {
		perDay[due.Format(time.DateOnly)]++
		failures++
		due = schedule.NextAfterFailure(s, failures, due.Add(5*time.Minute))
	}
	for day := 3; day <= 7; day++ {
		key := date(2026, 1, day, 0, 0, nil).Format(time.DateOnly)
		if n := perDay[key]; n < 1 || n > 2 {
			t.Errorf("day %s: %d runs, want 1 or 2 once the backoff is capped", key, n)
		}
	}
	if perDay["2026-01-01"] < 8 {
		t.Errorf("first day: %d runs, want quick retries", perDay["2026-01-01"])
	}
	// Success: back on the regular slot.
	if next := schedule.NextAfterSuccess(s, due.Add(5*time.Minute)); next.Hour() != 3 || next.Minute() != 0 {
		t.Errorf("after success: %v, want a 03:00 slot", next)
	}
	t.Logf("runs per day while failing: %v", perDay)
}

func TestDueOnStart(t *testing.T) {
	now := date(2026, 6, 1, 12, 0, nil)
	tests := []struct {
		name string
		st   schedule.State
		want time.Time
	}{
		{"new blog: due now", schedule.State{}, now},
		{"due in the future: kept", schedule.State{NextDue: now.Add(time.Hour), Outcome: "ok"}, now.Add(time.Hour)},
		{"missed 12 slots while down: once, now", schedule.State{NextDue: now.Add(-72 * time.Hour), Outcome: "ok"}, now},
		{"due exactly now", schedule.State{NextDue: now, Outcome: "failed"}, now},
		{"interrupted run: now", schedule.State{NextDue: now.Add(time.Hour), Outcome: "running"}, now},
	}
	for _, tt := range tests {
		if got := schedule.DueOnStart(tt.st, now); !got.Equal(tt.want) {
			t.Errorf("%s: DueOnStart = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestDueOnStartForChangedSpec(t *testing.T) {
	now := date(2026, 6, 3, 12, 0, nil) // Wednesday
	weekly := mustParse(t, "@weekly")
	daily := mustParse(t, "0 3 * * *")
	st := schedule.State{Spec: "@weekly", LastEnd: date(2026, 6, 1, 0, 10, nil), Outcome: "ok", NextDue: date(2026, 6, 7, 0, 0, nil)}
	if got := schedule.DueOnStartFor(st, weekly, now); !got.Equal(st.NextDue) {
		t.Errorf("unchanged spec: %v, want the stored %v", got, st.NextDue)
	}
	// Now daily: its first 03:00 after the last run (June 2) has passed.
	if got := schedule.DueOnStartFor(st, daily, now); !got.Equal(now) {
		t.Errorf("changed to daily: %v, want now", got)
	}
	st.LastEnd = date(2026, 6, 3, 4, 0, nil)
	if got, want := schedule.DueOnStartFor(st, daily, now), date(2026, 6, 4, 3, 0, nil); !got.Equal(want) {
		t.Errorf("changed to daily, ran today: %v, want %v", got, want)
	}
}

// TestNextWhileDown: a blog that is down backs off as a failing one does,
// capped at a day instead of 12 hours, whatever its schedule; an "@every"
// shorter than a minute backs off from its own interval.
func TestNextWhileDown(t *testing.T) {
	daily, every2s := mustParse(t, "0 3 * * *"), mustParse(t, "@every 2s")
	now := date(2026, 1, 1, 3, 0, nil)
	for _, tt := range []struct {
		name     string
		spec     schedule.Spec
		failures int
		min, max time.Duration // the wait from now
	}{
		{"every 2s, first failure", every2s, 1, 2 * time.Second, 2 * time.Second},
		{"every 2s, third failure", every2s, 3, 8 * time.Second, 8 * time.Second},
		{"every 2s, many failures", every2s, 60, 21 * time.Hour, 24 * time.Hour}, // the slot rule's eighth of slack
		{"daily, many failures", daily, 60, 24 * time.Hour, 24 * time.Hour},
	} {
		got := schedule.NextWhileDown(tt.spec, tt.failures, now).Sub(now)
		if got < tt.min || got > tt.max {
			t.Errorf("%s: NextWhileDown waits %v, want %v to %v", tt.name, got, tt.min, tt.max)
		}
	}
	if got := schedule.NextAfterFailure(every2s, 60, now).Sub(now); got > schedule.MaxBackoff || got < schedule.MaxBackoff*7/8 {
		t.Errorf("NextAfterFailure(@every 2s, 60 failures) waits %v, want %v less at most an eighth", got, schedule.MaxBackoff)
	}
	if got := schedule.NextAfterFailure(every2s, 2, now).Sub(now); got != 4*time.Second {
		t.Errorf("NextAfterFailure(@every 2s, 2 failures) waits %v, want 4s", got)
	}
}
