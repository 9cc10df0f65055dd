package schedule_test

import (
	"errors"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/schedule"
)

// FuzzParseSpec checks that ParseSpec never panics and fails only with a
// *SpecError; that an accepted spec parses again from its String to the
// same schedule; and that Next always moves forward, by at least the
// jitter offset's window for calendar specs, never past five years.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"0 3 * * *", "@daily", "@every 90m", "CRON_TZ=Europe/Paris 30 2 * * 0", "TZ=America/New_York @hourly",
		"*/7 1-5 31 2 *", "0 0 29 2 1", "@every 1s", "59 23 31 12 *", "TZ= @daily", "TZ=Local @daily", "@every -1h", "0 0 30 2 *"} {
		f.Add(s, int64(3600), int64(1700000000))
	}
	f.Fuzz(func(t *testing.T, spec string, jitterSec, unix int64) {
		jitter := time.Duration(jitterSec%(7*24*3600)) * time.Second
		s, err := schedule.ParseSpec(spec, time.UTC, jitter, "blog")
		var se *schedule.SpecError
		if err != nil {
			if !errors.As(err, &se) {
				t.Fatalf("ParseSpec(%q): error %T %v, want a *SpecError", spec, err, err)
			}
			return
		}
		again, err := schedule.ParseSpec(s.String(), time.UTC, jitter, "blog")
		if err != nil || again.String() != s.String() || again.Offset() != s.Offset() || again.Every() != s.Every() {
			t.Fatalf("ParseSpec(%q) = %q; parsing that again gave %q, %v", spec, s, again, err)
		}
		if jitter > 0 && (s.Offset() < 0 || s.Offset() >= jitter) || jitter <= 0 && s.Offset() != 0 {
			t.Fatalf("ParseSpec(%q, jitter %s): offset %s out of [0, jitter)", spec, jitter, s.Offset())
		}
		after := time.Unix(unix%(200*365*86400), 0).UTC() // 1770 … 2170
		next := s.Next(after)
		if next.IsZero() || !next.After(after) {
			t.Fatalf("%q.Next(%s) = %s, not after it", spec, after, next)
		}
		if s.Every() == 0 && next.Sub(after) > 5*366*24*time.Hour+s.Offset() {
			t.Fatalf("%q.Next(%s) = %s: more than five years on", spec, after, next)
		}
		if again.Next(after) != next || !s.Next(next).After(next) {
			t.Fatalf("%q: Next not deterministic or stuck at %s", spec, next)
		}
	})
}
