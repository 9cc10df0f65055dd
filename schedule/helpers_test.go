package schedule_test

import (
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/schedule"
)

// MustOpenStore opens a fresh state file in tb.TempDir and, at cleanup, runs
// bbolt's consistency check over it and closes it.
func MustOpenStore(tb testing.TB) *schedule.Store {
	tb.Helper()
	s, err := schedule.Open(filepath.Join(tb.TempDir(), "state", "schedule.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := s.Check(); err != nil {
			tb.Error(err)
		}
		if err := s.Close(); err != nil {
			tb.Error(err)
		}
	})
	return s
}

// mustParse parses spec in UTC without jitter, failing tb on error.
func mustParse(tb testing.TB, spec string) schedule.Spec {
	tb.Helper()
	s, err := schedule.ParseSpec(spec, time.UTC, 0, "")
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// date returns a time in loc; loc nil means UTC.
func date(y int, mo time.Month, d, h, mi int, loc *time.Location) time.Time {
	if loc == nil {
		loc = time.UTC
	}
	return time.Date(y, mo, d, h, mi, 0, 0, loc)
}

// fakeClock is a manual clock with timers for the Scheduler's seams.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers map[*fakeTimer]bool // active timers
}

func newFakeClock(now time.Time) *fakeClock {
	return &fakeClock{now: now, timers: make(map[*fakeTimer]bool)}
}

// install points s's seams at c and lets s sleep until the next due time.
func (c *fakeClock) install(s *schedule.Scheduler) {
	s.Now = c.Now
	s.NewTimer = c.NewTimer
	s.MaxSleep = 0
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// NewTimer returns a timer that expires when Advance passes now+d.
func (c *fakeClock) NewTimer(d time.Duration) schedule.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: make(chan time.Time, 1), at: c.now.Add(d), clock: c}
	if d <= 0 {
		t.c <- c.now
		return t
	}
	c.timers[t] = true
	return t
}

// Advance moves the clock forward and expires the timers it passes; it
// returns how many expired.
func (c *fakeClock) Advance(d time.Duration) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	n := 0
	for t := range c.timers {
		if !t.at.After(c.now) {
			t.c <- c.now
			delete(c.timers, t)
			n++
		}
	}
	return n
}

// armed returns the deadline of the earliest active timer.
func (c *fakeClock) armed() (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var first time.Time
	for t := range c.timers {
		if first.IsZero() || t.at.Before(first) {
			first = t.at
		}
	}
	return first, !first.IsZero()
}

// waitArmed waits until the scheduler sleeps on a timer for at: it has
// fired everything due before and is idle.
func (c *fakeClock) waitArmed(tb testing.TB, at time.Time) {
	tb.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if got, ok := c.armed(); ok && got.Equal(at) {
			return
		}
		time.Sleep(100 * time.Microsecond)
	}
	got, _ := c.armed()
	tb.Fatalf("scheduler never armed a timer for %v (armed: %v)", at, got)
}

type fakeTimer struct {
	c     chan time.Time
	at    time.Time
	clock *fakeClock
}

func (t *fakeTimer) C() <-chan time.Time { return t.c }

func (t *fakeTimer) Stop() bool {
	t.clock.mu.Lock()
	defer t.clock.mu.Unlock()
	active := t.clock.timers[t]
	delete(t.clock.timers, t)
	return active
}
