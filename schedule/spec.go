package schedule

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/robfig/cron/v3"
)

// MinEvery is the shortest interval an "@every" spec may ask for. It is
// small enough for tests and demos that watch a daemon react within seconds;
// real blogs are harvested hours apart, and a failing blog backs off anyway.
const MinEvery = time.Second

// parser accepts the standard five cron fields (minute, hour, day of month,
// month, day of week) and descriptors such as @daily and @every 6h.
var parser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// Spec is a parsed schedule: when a blog is due after a given time. The zero
// Spec never fires (Next returns the zero time). A Spec is a small value, safe
// to copy and to use from several goroutines.
type Spec struct {
	text   string
	cal    cron.Schedule  // calendar schedule read in loc's wall clock; nil for @every
	every  time.Duration  // the interval of an @every spec; zero for calendar specs
	loc    *time.Location // the zone calendar fields are read in
	offset time.Duration  // the per-blog jitter, in [0, jitter)
}

// SpecError reports a schedule that cannot be parsed. It is permanent: the
// same text fails the same way every time.
type SpecError struct {
	Spec   string // the schedule as written
	Reason string // what is wrong with it
}

// Error returns `invalid schedule "<spec>": <reason>`.
func (e *SpecError) Error() string {
	return fmt.Sprintf("invalid schedule %q: %s", e.Spec, e.Reason)
}

// Transient reports false: a bad schedule stays bad until the config changes.
func (e *SpecError) Transient() bool { return false }

// ParseSpec parses a schedule: five cron fields ("0 3 * * *"), a descriptor
// (@yearly, @monthly, @weekly, @daily, @midnight, @hourly) or "@every D" with
// D a Go duration of at least MinEvery.
//
// Calendar specs are read in the wall clock of a time zone: the one named by
// a "CRON_TZ=Zone " or "TZ=Zone " prefix of spec if there is one, else loc,
// else (loc nil) time.Local. Across daylight-saving changes every wall-clock
// slot fires once: a slot skipped by a spring-forward jump fires at the jump,
// a slot repeated by a fall-back fires the first time only.
//
// Jitter, if positive, delays every slot of a calendar spec by an offset in
// [0, jitter), whole seconds, derived from a hash of key (the blog id): the
// same key always gets the same offset, and many blogs sharing "@daily" are
// spread over the jitter window instead of firing at once. "@every" specs are
// relative to the previous run and ignore jitter. The error is a *SpecError.
func ParseSpec(spec string, loc *time.Location, jitter time.Duration, key string) (Spec, error) {
	s, err := parseSpec(spec, loc)
	if err != nil {
		return Spec{}, &SpecError{Spec: spec, Reason: err.Error()}
	}
	if jitter < 0 {
		return Spec{}, &SpecError{Spec: spec, Reason: fmt.Sprintf("negative jitter %s", jitter)}
	}
	s.offset = jitterOffset(key, jitter)
	return s, nil
}

// parseSpec parses spec without jitter; errors carry the reason only.
func parseSpec(spec string, loc *time.Location) (Spec, error) {
	text := strings.TrimSpace(spec)
	if text == "" {
		return Spec{}, errors.New("empty schedule")
	}
	body, zone, err := splitZone(text)
	if err != nil {
		return Spec{}, err
	}
	if zone != nil {
		loc = zone
	} else if loc == nil {
		loc = time.Local
	}
	sched, err := parseBody(body)
	if err != nil {
		return Spec{}, err
	}
	s := Spec{text: text, loc: loc}
	if d, ok := sched.(cron.ConstantDelaySchedule); ok {
		s.every = d.Delay
		return s, nil
	}
	s.cal = sched
	if s.wallNext(time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)).IsZero() {
		return Spec{}, errors.New("it never fires (no matching date within five years)")
	}
	return s, nil
}

// splitZone separates a "CRON_TZ=Zone " or "TZ=Zone " prefix from the rest.
func splitZone(text string) (string, *time.Location, error) {
	if !strings.HasPrefix(text, "TZ=") && !strings.HasPrefix(text, "CRON_TZ=") {
		return text, nil, nil
	}
	prefix, body, ok := strings.Cut(text, " ")
	body = strings.TrimSpace(body)
	if !ok || body == "" {
		return "", nil, errors.New("a time zone prefix must be followed by a schedule")
	}
	_, name, _ := strings.Cut(prefix, "=")
	zone, err := time.LoadLocation(name)
	if err != nil || name == "" || name == "Local" {
		return "", nil, fmt.Errorf("unknown time zone %q", name)
	}
	return body, zone, nil
}

// parseBody parses the cron fields or descriptor; cron's messages name the
// bad field ("end of range (61) above maximum (59): 61").
func parseBody(body string) (cron.Schedule, error) {
	if strings.HasPrefix(body, "TZ=") || strings.HasPrefix(body, "CRON_TZ=") {
		return nil, errors.New("more than one time zone prefix")
	}
	if strings.HasPrefix(body, "@every") {
		d, err := time.ParseDuration(strings.TrimSpace(strings.TrimPrefix(body, "@every")))
		if err != nil {
			return nil, fmt.Errorf("@every needs a duration such as 6h or 90m: %v", err)
		}
		if d < MinEvery {
			return nil, fmt.Errorf("@every %s is shorter than the minimum %s", d, MinEvery)
		}
	}
	sched, err := parser.Parse(body)
	if err != nil {
		return nil, err
	}
	return sched, nil
}

// jitterOffset maps key to whole seconds in [0, jitter) (or to nanoseconds
// when jitter is under a second).
func jitterOffset(key string, jitter time.Duration) time.Duration {
	if jitter <= 0 {
		return 0
	}
	sum := sha256.Sum256([]byte(key))
	h := binary.BigEndian.Uint64(sum[:8])
	if jitter < time.Second {
		return time.Duration(h % uint64(jitter))
	}
	return time.Duration(h%uint64(jitter/time.Second)) * time.Second
}

// String returns the schedule as written (trimmed), time zone prefix included.
func (s Spec) String() string { return s.text }

// IsZero reports whether s is the zero Spec, which never fires.
func (s Spec) IsZero() bool { return s.cal == nil && s.every == 0 }

// Location returns the time zone calendar fields are read in.
func (s Spec) Location() *time.Location { return s.loc }

// Offset returns the jitter offset added to every calendar slot.
func (s Spec) Offset() time.Duration { return s.offset }

// Every returns the interval of an "@every" spec and zero for calendar specs.
func (s Spec) Every() time.Duration { return s.every }

// Next returns the first time after `after` that s fires, in after's
// location. For "@every D" that is after+D. It returns the zero time for the
// zero Spec.
func (s Spec) Next(after time.Time) time.Time {
	switch {
	case s.every > 0:
		return after.Add(s.every)
	case s.cal == nil:
		return time.Time{}
	}
	next := s.wallNext(after.Add(-s.offset))
	if next.IsZero() {
		return next
	}
	return next.Add(s.offset).In(after.Location())
}
