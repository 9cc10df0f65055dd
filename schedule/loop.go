package schedule

import (
	"context"
	"time"
)

// loop fires due blogs and otherwise sleeps on one timer set for the earliest
// entry, until ctx is done.
func (s *Scheduler) loop(ctx context.Context) {
	for ctx.Err() == nil {
		id, wait, ok := s.next()
		if ok && wait <= 0 {
			s.Fire(id)
			continue
		}
		s.sleep(ctx, wait, ok)
	}
}

// next pops the earliest blog if it is due, re-queuing it at its spec's next
// slot, and returns its id with wait 0. Otherwise it returns how long until
// the earliest entry is due, and ok false if the queue is empty.
func (s *Scheduler) next() (id string, wait time.Duration, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	it := s.q.first()
	if it == nil {
		return "", 0, false
	}
	now := s.Now()
	if wait := it.due.Sub(now); wait > 0 {
		return it.id, wait, true
	}
	if next := it.spec.Next(now); !next.IsZero() {
		s.q.set(it.id, it.spec, next)
	} else {
		s.q.remove(it.id)
	}
	return it.id, 0, true
}

// sleep waits until the timer for wait expires (if armed), the queue's head
// changes or ctx is done.
func (s *Scheduler) sleep(ctx context.Context, wait time.Duration, armed bool) {
	var expired <-chan time.Time
	if armed {
		if s.MaxSleep > 0 {
			wait = min(wait, s.MaxSleep)
		}
		t := s.NewTimer(wait)
		defer t.Stop()
		expired = t.C()
	}
	select {
	case <-expired:
	case <-s.wake:
	case <-ctx.Done():
	}
}

// realTimer adapts *time.Timer to Timer.
type realTimer struct{ t *time.Timer }

func newRealTimer(d time.Duration) Timer { return realTimer{time.NewTimer(d)} }

func (r realTimer) C() <-chan time.Time { return r.t.C }
func (r realTimer) Stop() bool          { return r.t.Stop() }
