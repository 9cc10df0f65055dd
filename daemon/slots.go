package daemon

import (
	"context"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest/internal/clock"
)

// lendAfter is the shortest wait for a host's turn during which a run
// lends its harvest slot to another blog.
const lendAfter = time.Second

// slotPool bounds the harvests that work at once (Config.Concurrency). A
// run takes a slot to start and gives it back when it ends; while it
// waits for a host's politeness (a robots.txt Crawl-delay of a day is
// crawled at max_crawl_delay) it lends the slot to another blog's run and
// takes one back before its next request. Blocked takers are served in
// the order they came (a channel's senders queue).
type slotPool chan struct{}

func newSlotPool(n int) slotPool { return make(slotPool, n) }

// take waits for a free slot, or fails with ctx's error.
func (p slotPool) take(ctx context.Context) error {
	select {
	case p <- struct{}{}:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// give frees a slot.
func (p slotPool) give() { <-p }

// runSlot is the slot of one run, lent while the run waits for a host's
// turn. A crawl waits from several goroutines at once (its page workers);
// the first to wake takes the slot back for all of them.
type runSlot struct {
	pool slotPool
	mu   sync.Mutex
	held bool
}

// slotKey is the context key of a run's *runSlot.
type slotKey struct{}

// withSlot returns ctx carrying s, for harvest to find (slotOf).
func withSlot(ctx context.Context, s *runSlot) context.Context {
	return context.WithValue(ctx, slotKey{}, s)
}

// slotOf returns the run slot ctx carries, or nil (crawl -config runs
// hold none).
func slotOf(ctx context.Context) *runSlot {
	s, _ := ctx.Value(slotKey{}).(*runSlot)
	return s
}

// wait is the crawl's harvest.Options.HostWait: it waits d for a host's
// turn, lending the run's slot for a wait of lendAfter or more, and takes
// a slot back before it returns.
func (s *runSlot) wait(ctx context.Context, d time.Duration) error {
	if d < lendAfter {
		return clock.Sleep(ctx, d)
	}
	s.mu.Lock()
	if s.held {
		s.pool.give()
		s.held = false
	}
	s.mu.Unlock()
	if err := clock.Sleep(ctx, d); err != nil {
		return err
	}
	return s.retake(ctx)
}

// retake takes a slot back unless another goroutine of the run did.
func (s *runSlot) retake(ctx context.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held {
		return nil
	}
	if err := s.pool.take(ctx); err != nil {
		return err
	}
	s.held = true
	return nil
}

// release gives the slot back at the end of the run, if it holds it.
func (s *runSlot) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.held {
		s.pool.give()
		s.held = false
	}
}
