package dispatch

import (
	"context"
	"sync"
	"time"
)

// Local is the in-process dispatcher: a FIFO queue of tasks read by the
// process's own workers, and a FIFO queue of their reports read by
// Reports (or, with NewLocal's onReport, none: each report goes to
// onReport, synchronously from Ack, Nack and Term). Create it with
// NewLocal.
type Local struct {
	onReport func(Report)

	mu      sync.Mutex
	queue   []Task
	wake    chan struct{} // closed and replaced when a task arrives
	reports []Report      // sent, not yet read by Reports (onReport nil)
	rwake   chan struct{} // closed and replaced when a report arrives
	closed  bool
}

// NewLocal returns a Local dispatcher that hands reports to onReport or,
// if nil, keeps them for Reports (a pool whose reports nobody reads
// passes a function that drops them).
func NewLocal(onReport func(Report)) *Local {
	return &Local{onReport: onReport, wake: make(chan struct{}), rwake: make(chan struct{})}
}

var (
	_ Dispatcher = (*Local)(nil)
	_ Reporter   = (*Local)(nil)
)

// Enqueue appends t to the queue. It never blocks.
func (l *Local) Enqueue(ctx context.Context, t Task) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrClosed
	}
	l.queue = append(l.queue, t)
	close(l.wake)
	l.wake = make(chan struct{})
	return nil
}

// Receive returns the oldest queued task, waiting for one.
func (l *Local) Receive(ctx context.Context) (Delivery, error) {
	for {
		l.mu.Lock()
		if l.closed {
			l.mu.Unlock()
			return nil, ErrClosed
		}
		if len(l.queue) > 0 {
			t := l.queue[0]
			l.queue[0] = Task{}
			l.queue = l.queue[1:]
			l.mu.Unlock()
			return &localDelivery{l: l, t: t}, nil
		}
		wake := l.wake
		l.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Reports hands each report to fn, in the order sent, until ctx ends
// (reports sent before the call are kept for it). In one process nothing
// is sent again: a report fn fails on is dropped. One Reports call at a
// time.
func (l *Local) Reports(ctx context.Context, fn func(Report) error) error {
	for {
		l.mu.Lock()
		if len(l.reports) == 0 {
			wake := l.rwake
			l.mu.Unlock()
			select {
			case <-wake:
				continue
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		r := l.reports[0]
		l.reports[0] = Report{}
		l.reports = l.reports[1:]
		l.mu.Unlock()
		fn(r)
	}
}

// Len returns the number of tasks waiting.
func (l *Local) Len() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.queue)
}

// Close drops the queued tasks; Receive fails with ErrClosed from now on.
func (l *Local) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.closed {
		l.closed, l.queue = true, nil
		close(l.wake)
	}
	return nil
}

// localDelivery is a task handed out by Local: in one process nothing is
// redelivered, so Nack reports and drops it like Term (the daemon's
// schedule retries a failed run).
type localDelivery struct {
	l *Local
	t Task
}

func (d *localDelivery) Task() Task            { return d.t }
func (d *localDelivery) Attempt() (n, max int) { return 1, 1 }
func (d *localDelivery) Progress() error       { return nil }
func (d *localDelivery) Ack(r Report) error    { d.report(r); return nil }
func (d *localDelivery) Term(r Report) error   { d.report(r); return nil }
func (d *localDelivery) Nack(r Report, _ time.Duration) error {
	d.report(r)
	return nil
}

func (d *localDelivery) report(r Report) {
	l := d.l
	if l.onReport != nil {
		l.onReport(r)
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.reports = append(l.reports, r)
	close(l.rwake)
	l.rwake = make(chan struct{})
}
