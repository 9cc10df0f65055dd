package schedule

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Timer is the part of *time.Timer the Scheduler uses; tests supply a fake
// driven by a fake clock.
type Timer interface {
	C() <-chan time.Time // receives once when the timer expires
	Stop() bool          // stops the timer; reports whether it was active
}

// Scheduler calls Fire for each blog when it is due. It keeps one min-heap of
// (due, blog id) and one timer for the earliest entry, so an idle Scheduler
// with thousands of blogs costs one parked goroutine and no CPU.
//
// When blog B fires, the Scheduler calls Fire(B) from its own goroutine and
// provisionally re-queues B at its spec's next slot after the current time
// (a blog whose slots passed while the process was stalled fires once, not
// once per missed slot). The caller is expected to Set B's real next due time
// when its run ends (NextAfterSuccess, NextAfterFailure); the provisional
// entry only keeps B scheduled if that never happens. A blog set with the
// zero Spec fires once and leaves the queue.
//
// Create it with NewScheduler, set Fire (and the seams, in tests), then Open;
// Close stops it. Set, Remove, Due and Len may be called at any time, also
// before Open and from within Fire.
type Scheduler struct {
	// Fire is called with the id of each blog when it is due, from the
	// Scheduler's goroutine, one call at a time, in (due, id) order. It must
	// not block for long: hand the id to a queue or worker pool. Required.
	Fire func(id string)

	// Now returns the current time. Defaults to time.Now.
	Now func() time.Time

	// NewTimer returns a timer that expires after d. Defaults to a wrapper
	// around time.NewTimer.
	NewTimer func(d time.Duration) Timer

	// MaxSleep is the longest the loop sleeps before reading Now again, so a
	// machine waking from suspend (when timers stall) or a stepped wall
	// clock delays due blogs by at most this much. Defaults to one minute;
	// if zero, the loop sleeps until the earliest blog is due.
	MaxSleep time.Duration

	mu     sync.Mutex
	q      *queue
	wake   chan struct{} // buffered(1): the earliest entry changed
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// NewScheduler returns a Scheduler with default clock and timers and an
// empty queue. Set Fire before calling Open.
func NewScheduler() *Scheduler {
	return &Scheduler{
		Now:      time.Now,
		NewTimer: newRealTimer,
		MaxSleep: time.Minute,
		q:        newQueue(),
		wake:     make(chan struct{}, 1),
	}
}

// Open starts the Scheduler's goroutine. It fails if Fire is nil or the
// Scheduler is already open.
func (s *Scheduler) Open() error {
	if s.Fire == nil {
		return errors.New("open scheduler: Fire is nil")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cancel != nil {
		return errors.New("open scheduler: already open")
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.loop(ctx)
	}()
	return nil
}

// Close stops the Scheduler and waits for its goroutine, including a Fire
// call in progress, to return. The queue is kept. It is safe to call more
// than once.
func (s *Scheduler) Close() error {
	s.mu.Lock()
	cancel := s.cancel
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	s.wg.Wait()
	return nil
}

// Set schedules blog id to fire at due, replacing any earlier entry for it;
// spec gives its next slot after it fires. A due time in the past fires as
// soon as possible.
func (s *Scheduler) Set(id string, spec Spec, due time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	before := s.q.first()
	s.q.set(id, spec, due)
	if before == nil || s.q.first() != before || before.id == id {
		s.poke()
	}
}

// Remove unschedules blog id. It reports whether id was scheduled.
func (s *Scheduler) Remove(id string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	first := s.q.first()
	ok := s.q.remove(id)
	if ok && first.id == id {
		s.poke()
	}
	return ok
}

// Due returns when blog id fires next, and false if it is not scheduled.
func (s *Scheduler) Due(id string) (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	it, ok := s.q.byID[id]
	if !ok {
		return time.Time{}, false
	}
	return it.due, true
}

// Len returns the number of scheduled blogs.
func (s *Scheduler) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.q.Len()
}

// poke wakes the loop to look at the queue again; s.mu is held.
func (s *Scheduler) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}
