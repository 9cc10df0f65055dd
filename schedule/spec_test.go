package schedule_test

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/schedule"
)

func mustZone(tb testing.TB, name string) *time.Location {
	tb.Helper()
	loc, err := time.LoadLocation(name)
	if err != nil {
		tb.Skipf("time zone %s not available: %v", name, err)
	}
	return loc
}

func TestParseSpecNext(t *testing.T) {
	ny := mustZone(t, "America/New_York")
	tests := []struct {
		spec  string
		loc   *time.Location
		after time.Time
		want  time.Time
	}{
		{"0 3 * * *", time.UTC, date(2026, 1, 1, 5, 0, nil), date(2026, 1, 2, 3, 0, nil)},
		{"0 3 * * *", time.UTC, date(2026, 1, 1, 2, 59, nil), date(2026, 1, 1, 3, 0, nil)},
		{"  0 3 * * *  ", time.UTC, date(2026, 1, 1, 3, 0, nil), date(2026, 1, 2, 3, 0, nil)},
		{"*/15 * * * *", time.UTC, date(2026, 1, 1, 5, 7, nil), date(2026, 1, 1, 5, 15, nil)},
		{"30 9 * * 1-5", time.UTC, date(2026, 1, 2, 10, 0, nil), date(2026, 1, 5, 9, 30, nil)}, // Fri → Mon
		{"0 0 1 */3 *", time.UTC, date(2026, 2, 10, 0, 0, nil), date(2026, 4, 1, 0, 0, nil)},
		{"@daily", time.UTC, date(2026, 1, 1, 5, 0, nil), date(2026, 1, 2, 0, 0, nil)},
		{"@midnight", time.UTC, date(2026, 1, 1, 5, 0, nil), date(2026, 1, 2, 0, 0, nil)},
		{"@hourly", time.UTC, date(2026, 1, 1, 5, 20, nil), date(2026, 1, 1, 6, 0, nil)},
		{"@weekly", time.UTC, date(2026, 1, 1, 5, 0, nil), date(2026, 1, 4, 0, 0, nil)}, // Sunday
		{"@monthly", time.UTC, date(2026, 1, 15, 0, 0, nil), date(2026, 2, 1, 0, 0, nil)},
		{"@yearly", time.UTC, date(2026, 1, 15, 0, 0, nil), date(2027, 1, 1, 0, 0, nil)},
		{"@every 6h", time.UTC, date(2026, 1, 1, 5, 7, nil), date(2026, 1, 1, 11, 7, nil)},
		{"@every 1h30m", ny, date(2026, 1, 1, 5, 7, nil), date(2026, 1, 1, 6, 37, nil)},
		// Time zones: a prefix, or the explicit location.
		{"CRON_TZ=Europe/Paris 0 3 * * *", time.UTC, date(2026, 1, 1, 0, 0, nil), date(2026, 1, 1, 2, 0, nil)},
		{"CRON_TZ=Europe/Paris 0 3 * * *", time.UTC, date(2026, 7, 1, 0, 0, nil), date(2026, 7, 1, 1, 0, nil)},
		{"TZ=Asia/Tokyo 30 9 * * 1-5", time.UTC, date(2026, 1, 2, 1, 0, nil), date(2026, 1, 5, 0, 30, nil)},
		{"0 3 * * *", ny, date(2026, 1, 1, 0, 0, nil), date(2026, 1, 1, 8, 0, nil)},
		{"@daily", ny, date(2026, 1, 1, 0, 0, nil), date(2026, 1, 1, 5, 0, nil)},
		{"TZ=UTC 0 3 * * *", ny, date(2026, 1, 1, 0, 0, nil), date(2026, 1, 1, 3, 0, nil)}, // prefix wins
	}
	for _, tt := range tests {
		s, err := schedule.ParseSpec(tt.spec, tt.loc, 0, "blog")
		if err != nil {
			t.Errorf("ParseSpec(%q): %v", tt.spec, err)
			continue
		}
		if got := s.Next(tt.after); !got.Equal(tt.want) {
			t.Errorf("ParseSpec(%q, %v).Next(%v) = %v, want %v", tt.spec, tt.loc, tt.after, got.UTC(), tt.want)
		}
	}
}

func TestSpecNextKeepsLocationAndString(t *testing.T) {
	paris := mustZone(t, "Europe/Paris")
	s, err := schedule.ParseSpec(" CRON_TZ=Asia/Tokyo 0 9 * * * ", paris, 0, "x")
	if err != nil {
		t.Fatal(err)
	}
	after := date(2026, 1, 1, 0, 0, paris)
	if got := s.Next(after); got.Location() != paris {
		t.Errorf("Next returned location %v, want the argument's %v", got.Location(), paris)
	}
	if s.String() != "CRON_TZ=Asia/Tokyo 0 9 * * *" || s.Location().String() != "Asia/Tokyo" {
		t.Errorf("String() = %q, Location() = %v", s.String(), s.Location())
	}
	if !(schedule.Spec{}).IsZero() || s.IsZero() || !(schedule.Spec{}).Next(after).IsZero() {
		t.Error("IsZero / zero Spec's Next wrong")
	}
}

func TestParseSpecNilLocationIsLocal(t *testing.T) {
	s, err := schedule.ParseSpec("0 3 * * *", nil, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	after := time.Date(2026, 1, 1, 12, 0, 0, 0, time.Local)
	want := time.Date(2026, 1, 2, 3, 0, 0, 0, time.Local)
	if got := s.Next(after.UTC()); !got.Equal(want) {
		t.Errorf("Next = %v, want %v (time.Local)", got, want)
	}
}

func TestParseSpecErrors(t *testing.T) {
	tests := []struct{ spec, reason string }{
		{"", "empty"},
		{"   ", "empty"},
		{"61 * * * *", "61"},
		{"* 24 * * *", "24"},
		{"* * * *", "5 fields"},
		{"0 0 3 * * *", "5 fields"}, // seconds are not accepted
		{"0 3 * * mon-xyz", "xyz"},
		{"@every fortnight", "fortnight"},
		{"@every", "duration"},
		{"@every 500ms", "minimum"},
		{"@every -6h", "minimum"},
		{"@sometimes", "unrecognized"},
		{"0 0 31 4 *", "never fires"}, // 31 April
		{"CRON_TZ=Mars/Olympus_Mons 0 3 * * *", "Mars/Olympus_Mons"},
		{"TZ=UTC", "followed by a schedule"}, // robfig/cron panics on this
		{"TZ= 0 3 * * *", "time zone"},
	}
	for _, tt := range tests {
		_, err := schedule.ParseSpec(tt.spec, time.UTC, 0, "blog")
		var se *schedule.SpecError
		if !errors.As(err, &se) {
			t.Errorf("ParseSpec(%q) error = %v, want a *SpecError", tt.spec, err)
			continue
		}
		msg := err.Error()
		if !strings.Contains(msg, fmt.Sprintf("%q", tt.spec)) || !strings.Contains(msg, tt.reason) {
			t.Errorf("ParseSpec(%q) error %q does not name the spec and %q", tt.spec, msg, tt.reason)
		}
		if blogharvest.IsTransient(err) {
			t.Errorf("ParseSpec(%q) error is transient, want permanent", tt.spec)
		}
	}
	if _, err := schedule.ParseSpec("@daily", time.UTC, -time.Second, "x"); err == nil || !strings.Contains(err.Error(), "jitter") {
		t.Errorf("negative jitter: error %v", err)
	}
}

// TestNextDST pins what happens to calendar slots across daylight-saving
// changes: every wall-clock slot fires exactly once.
func TestNextDST(t *testing.T) {
	ny := mustZone(t, "America/New_York")
	tests := []struct {
		name, spec string
		after      time.Time
		want       []time.Time
	}{
		{"spring forward: 02:30 does not exist, fires at the jump", "30 2 * * *",
			date(2026, 3, 7, 12, 0, ny),
			[]time.Time{date(2026, 3, 8, 7, 0, nil), date(2026, 3, 9, 6, 30, nil)}},
		{"spring forward: 03:00 comes 23 hours after the day before", "0 3 * * *",
			date(2026, 3, 7, 12, 0, ny),
			[]time.Time{date(2026, 3, 8, 7, 0, nil), date(2026, 3, 9, 7, 0, nil)}},
		{"fall back: 01:30 exists twice, fires the first time only", "30 1 * * *",
			date(2026, 10, 31, 12, 0, ny),
			[]time.Time{date(2026, 11, 1, 5, 30, nil), date(2026, 11, 2, 6, 30, nil)}},
		{"fall back: half-hourly skips the repeated readings", "*/30 * * * *",
			date(2026, 11, 1, 0, 45, ny), // 04:45Z
			[]time.Time{date(2026, 11, 1, 5, 0, nil), date(2026, 11, 1, 5, 30, nil), date(2026, 11, 1, 7, 0, nil)}},
	}
	for _, tt := range tests {
		s, err := schedule.ParseSpec(tt.spec, ny, 0, "")
		if err != nil {
			t.Fatal(err)
		}
		after := tt.after
		for i, want := range tt.want {
			got := s.Next(after)
			if !got.Equal(want) {
				t.Errorf("%s: fire %d after %v = %v, want %v", tt.name, i, after.UTC(), got.UTC(), want)
			}
			after = got
		}
	}
	// From inside the repeated hour (01:15 EST, the second pass) the next
	// 01:30 is the next day's.
	s, _ := schedule.ParseSpec("30 1 * * *", ny, 0, "")
	if got, want := s.Next(date(2026, 11, 1, 6, 15, nil)), date(2026, 11, 2, 6, 30, nil); !got.Equal(want) {
		t.Errorf("from the second 01:15: Next = %v, want %v", got.UTC(), want)
	}
}

// TestDailyOncePerLocalDay walks two years of daily slots in zones with
// one-hour, half-hour and southern-hemisphere changes: each local day gets
// exactly one run, at the slot's wall time unless it fell in a gap.
func TestDailyOncePerLocalDay(t *testing.T) {
	zones := []string{"America/New_York", "Europe/London", "Australia/Sydney", "Australia/Lord_Howe", "America/Santiago", "UTC"}
	for _, name := range zones {
		loc := mustZone(t, name)
		for _, spec := range []string{"30 2 * * *", "15 1 * * *", "0 0 * * *", "45 23 * * *"} {
			s, err := schedule.ParseSpec(spec, loc, 0, "")
			if err != nil {
				t.Fatal(err)
			}
			checkOncePerDay(t, s, loc)
		}
	}
}

func checkOncePerDay(t *testing.T, s schedule.Spec, loc *time.Location) {
	t.Helper()
	after := time.Date(2026, 1, 1, 23, 50, 0, 0, loc)
	prevDay := after.Format(time.DateOnly)
	for i := 0; i < 730; i++ {
		next := s.Next(after)
		if !next.After(after) {
			t.Fatalf("%s in %v: Next(%v) = %v is not later", s, loc, after, next)
		}
		day := next.In(loc).Format(time.DateOnly)
		wantDay := time.Date(2026, 1, 2+i, 12, 0, 0, 0, loc).Format(time.DateOnly)
		// A slot at 00:00 that falls in a midnight gap fires at 01:00 of
		// the same day; anything else must land on the next local day.
		if day != wantDay || day == prevDay {
			t.Fatalf("%s in %v: fire %d at %v (local day %s), want local day %s", s, loc, i, next, day, wantDay)
		}
		prevDay, after = day, next
	}
}

func TestJitterDeterministicAndBounded(t *testing.T) {
	const jitter = time.Hour
	base := mustParse(t, "@daily")
	after := date(2026, 5, 1, 12, 0, nil)
	seen := make(map[time.Duration]bool)
	for i := 0; i < 200; i++ {
		key := fmt.Sprintf("blog-%d", i)
		a, err := schedule.ParseSpec("@daily", time.UTC, jitter, key)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := schedule.ParseSpec("@daily", time.UTC, jitter, key)
		off := a.Next(after).Sub(base.Next(after))
		if off != b.Next(after).Sub(base.Next(after)) || off != a.Offset() {
			t.Fatalf("%s: offset not deterministic", key)
		}
		if off < 0 || off >= jitter || off%time.Second != 0 {
			t.Fatalf("%s: offset %v outside [0, %v) or not whole seconds", key, off, jitter)
		}
		// The jittered schedule is still daily: the next slot is 24 h later.
		if got := a.Next(a.Next(after)).Sub(a.Next(after)); got != 24*time.Hour {
			t.Fatalf("%s: jittered slots %v apart", key, got)
		}
		seen[off] = true
	}
	if len(seen) < 190 {
		t.Errorf("200 blogs got only %d distinct offsets", len(seen))
	}
	every, _ := schedule.ParseSpec("@every 6h", time.UTC, jitter, "blog-1")
	if got := every.Next(after); !got.Equal(after.Add(6 * time.Hour)) {
		t.Errorf("@every with jitter: Next = %v, want after+6h", got)
	}
}

// TestJitterSpread checks that 10 000 blogs sharing "@daily" with an hour of
// jitter are spread evenly over the hour (chi-square over 60 minutes).
func TestJitterSpread(t *testing.T) {
	const n, buckets = 10000, 60
	after := date(2026, 5, 1, 12, 0, nil)
	midnight := date(2026, 5, 2, 0, 0, nil)
	var count [buckets]int
	for i := 0; i < n; i++ {
		s, err := schedule.ParseSpec("@daily", time.UTC, time.Hour, fmt.Sprintf("blog-%05d", i))
		if err != nil {
			t.Fatal(err)
		}
		count[int(s.Next(after).Sub(midnight)/time.Minute)]++
	}
	want := float64(n) / buckets
	chi2 := 0.0
	for _, c := range count {
		chi2 += (float64(c) - want) * (float64(c) - want) / want
	}
	// 59 degrees of freedom: mean 59, standard deviation about 11; 110 is
	// beyond the 99.99th percentile.
	if chi2 > 110 || math.IsNaN(chi2) {
		t.Errorf("offsets are not uniform over the hour: chi² = %.1f, counts %v", chi2, count)
	}
	t.Logf("chi² = %.1f over %d buckets (max %d, min %d per minute)", chi2, buckets, maxOf(count[:]), minOf(count[:]))
}

func maxOf(xs []int) int {
	m := xs[0]
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

func minOf(xs []int) int {
	m := xs[0]
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

func TestJitterWithDST(t *testing.T) {
	ny := mustZone(t, "America/New_York")
	s, err := schedule.ParseSpec("0 3 * * *", ny, 30*time.Minute, "quantum-diaries")
	if err != nil {
		t.Fatal(err)
	}
	first := s.Next(date(2026, 3, 7, 12, 0, ny))
	want := date(2026, 3, 8, 3, 0, ny).Add(s.Offset())
	if !first.Equal(want) {
		t.Errorf("Next = %v, want 03:00 EDT + offset %v = %v", first, s.Offset(), want)
	}
}
