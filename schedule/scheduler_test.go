package schedule_test

import (
	"fmt"
	"reflect"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/schedule"
)

// firings records Fire calls.
type firings struct {
	mu  sync.Mutex
	ids []string
	at  []time.Time
}

func (f *firings) take() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	ids := f.ids
	f.ids, f.at = nil, nil
	return ids
}

// newTestScheduler returns an open Scheduler on a fake clock at t0 whose
// Fire records into the returned firings.
func newTestScheduler(t *testing.T, t0 time.Time) (*schedule.Scheduler, *fakeClock, *firings) {
	t.Helper()
	clock := newFakeClock(t0)
	f := &firings{}
	s := schedule.NewScheduler()
	clock.install(s)
	s.Fire = func(id string) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.ids = append(f.ids, id)
		f.at = append(f.at, clock.Now())
	}
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, clock, f
}

func TestSchedulerFiresInOrder(t *testing.T) {
	t0 := date(2026, 1, 1, 0, 0, nil)
	s, clock, f := newTestScheduler(t, t0)
	zero := schedule.Spec{}
	s.Set("d", zero, t0.Add(3*time.Hour))
	s.Set("b", zero, t0.Add(time.Hour))
	s.Set("c", zero, t0.Add(time.Hour)) // same time as b: id order
	s.Set("a", zero, t0.Add(2*time.Hour))
	s.Set("e", zero, t0.Add(5*time.Hour))
	clock.waitArmed(t, t0.Add(time.Hour))
	if got := f.take(); len(got) != 0 {
		t.Fatalf("fired %v before anything was due", got)
	}
	clock.Advance(time.Hour)
	clock.waitArmed(t, t0.Add(2*time.Hour))
	if got := f.take(); !reflect.DeepEqual(got, []string{"b", "c"}) {
		t.Errorf("at +1h fired %v, want [b c]", got)
	}
	clock.Advance(150 * time.Minute) // to +3h30: a and d are due
	clock.waitArmed(t, t0.Add(5*time.Hour))
	if got := f.take(); !reflect.DeepEqual(got, []string{"a", "d"}) {
		t.Errorf("at +3h30 fired %v, want [a d]", got)
	}
	if s.Len() != 1 {
		t.Errorf("Len = %d: zero-Spec blogs should leave the queue after firing", s.Len())
	}
}

// TestSchedulerCatchUpOnce: a blog whose slots passed while the process was
// stopped or stalled fires once, then follows its spec from now.
func TestSchedulerCatchUpOnce(t *testing.T) {
	every := mustParse(t, "@every 6h")
	now := date(2026, 6, 1, 12, 0, nil)
	st := schedule.State{NextDue: now.Add(-72 * time.Hour), Outcome: "ok"} // 12 missed slots
	s, clock, f := newTestScheduler(t, now)
	s.Set("late", every, schedule.DueOnStart(st, now))
	clock.waitArmed(t, now.Add(6*time.Hour))
	if got := f.take(); !reflect.DeepEqual(got, []string{"late"}) {
		t.Fatalf("on start fired %v, want [late] once", got)
	}
	// A stall of 20 hours: one firing, not three.
	clock.Advance(20 * time.Hour)
	clock.waitArmed(t, now.Add(26*time.Hour))
	if got := f.take(); len(got) != 1 {
		t.Errorf("after a 20 h stall fired %v, want once", got)
	}
	if due, ok := s.Due("late"); !ok || !due.Equal(now.Add(26*time.Hour)) {
		t.Errorf("Due = %v, %v; want now+6h", due, ok)
	}
}

func TestSchedulerSetRemoveWhileRunning(t *testing.T) {
	t0 := date(2026, 1, 1, 0, 0, nil)
	s, clock, f := newTestScheduler(t, t0)
	hourly := mustParse(t, "@hourly")
	s.Set("a", hourly, t0.Add(time.Hour))
	s.Set("b", hourly, t0.Add(2*time.Hour))
	clock.waitArmed(t, t0.Add(time.Hour))
	if !s.Remove("a") || s.Remove("a") {
		t.Error("Remove should report true once, then false")
	}
	clock.waitArmed(t, t0.Add(2*time.Hour))
	s.Set("c", hourly, t0.Add(30*time.Minute)) // new earliest
	clock.waitArmed(t, t0.Add(30*time.Minute))
	s.Set("b", hourly, t0.Add(10*time.Minute)) // move an entry earlier
	clock.waitArmed(t, t0.Add(10*time.Minute))
	s.Set("b", hourly, t0.Add(40*time.Minute)) // and the head later again
	clock.waitArmed(t, t0.Add(30*time.Minute))
	clock.Advance(45 * time.Minute)
	clock.waitArmed(t, t0.Add(time.Hour)) // both re-queued at 01:00
	if got := f.take(); !reflect.DeepEqual(got, []string{"c", "b"}) {
		t.Errorf("fired %v, want [c b]", got)
	}
	if s.Len() != 2 {
		t.Errorf("Len = %d, want 2", s.Len())
	}
	s.Remove("b")
	s.Remove("c")
	clock.Advance(24 * time.Hour)
	if s.Len() != 0 {
		t.Errorf("Len = %d after removing all", s.Len())
	}
}

// TestSchedulerSetFromFire follows the daemon's pattern: Fire hands the id
// on, the run ends, and the next due time computed from its outcome replaces
// the provisional one.
func TestSchedulerSetFromFire(t *testing.T) {
	t0 := date(2026, 1, 1, 3, 0, nil)
	clock := newFakeClock(t0)
	daily := mustParse(t, "0 3 * * *")
	s := schedule.NewScheduler()
	clock.install(s)
	fired := make(chan string, 10)
	s.Fire = func(id string) {
		fired <- id
		s.Set(id, daily, schedule.NextAfterFailure(daily, 1, clock.Now())) // the run failed
	}
	s.Set("x", daily, t0)
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	clock.waitArmed(t, t0.Add(time.Minute))
	if id := <-fired; id != "x" {
		t.Errorf("fired %q", id)
	}
	if due, _ := s.Due("x"); !due.Equal(t0.Add(time.Minute)) {
		t.Errorf("after a failure Due = %v, want the 1m retry", due)
	}
}

func TestSchedulerOpenClose(t *testing.T) {
	s := schedule.NewScheduler()
	if err := s.Open(); err == nil {
		t.Error("Open without Fire succeeded")
	}
	s.Close() // closing an unopened scheduler is harmless
	var mu sync.Mutex
	fired := 0
	s.Fire = func(string) { mu.Lock(); fired++; mu.Unlock() }
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	if err := s.Open(); err == nil {
		t.Error("second Open succeeded")
	}
	s.Close()
	s.Close()
	s.Set("a", schedule.Spec{}, time.Now().Add(-time.Hour))
	time.Sleep(20 * time.Millisecond)
	mu.Lock()
	defer mu.Unlock()
	if fired != 0 {
		t.Error("Fire called after Close")
	}
}

// TestSchedulerRealClock runs the default seams once.
func TestSchedulerRealClock(t *testing.T) {
	s := schedule.NewScheduler()
	fired := make(chan string, 1)
	s.Fire = func(id string) { fired <- id }
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	s.Set("soon", schedule.Spec{}, time.Now().Add(20*time.Millisecond))
	select {
	case id := <-fired:
		if id != "soon" {
			t.Errorf("fired %q", id)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("real timer never fired")
	}
}

// TestSchedulerOneTimer: however many blogs are queued, the Scheduler runs
// one goroutine and arms one timer, for the earliest.
func TestSchedulerOneTimer(t *testing.T) {
	t0 := date(2026, 1, 1, 0, 0, nil)
	clock := newFakeClock(t0)
	s := schedule.NewScheduler()
	clock.install(s)
	s.Fire = func(string) {}
	daily := mustParse(t, "@daily")
	for i := 0; i < 1000; i++ {
		s.Set(fmt.Sprintf("blog-%d", i), daily, t0.Add(time.Duration(1000-i)*time.Minute))
	}
	before := runtime.NumGoroutine()
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	clock.waitArmed(t, t0.Add(time.Minute))
	clock.mu.Lock()
	n := len(clock.timers)
	clock.mu.Unlock()
	if n != 1 {
		t.Errorf("%d timers armed for 1000 blogs, want 1", n)
	}
	if n := runtime.NumGoroutine() - before; n != 1 {
		t.Errorf("Open started %d goroutines, want 1", n)
	}
}

// TestSchedulerMaxSleep: with MaxSleep set the loop re-reads the clock at
// least that often, and still fires on time.
func TestSchedulerMaxSleep(t *testing.T) {
	t0 := date(2026, 1, 1, 0, 0, nil)
	clock := newFakeClock(t0)
	s := schedule.NewScheduler()
	clock.install(s)
	s.MaxSleep = time.Minute
	fired := make(chan string, 10)
	s.Fire = func(id string) { fired <- id }
	s.Set("a", schedule.Spec{}, t0.Add(150*time.Second))
	if err := s.Open(); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	clock.waitArmed(t, t0.Add(time.Minute))
	clock.Advance(time.Minute)
	clock.waitArmed(t, t0.Add(2*time.Minute))
	clock.Advance(time.Minute)
	clock.waitArmed(t, t0.Add(150*time.Second))
	select {
	case id := <-fired:
		t.Fatalf("fired %q early", id)
	default:
	}
	clock.Advance(30 * time.Second)
	select {
	case id := <-fired:
		if id != "a" {
			t.Errorf("fired %q", id)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("never fired")
	}
}
