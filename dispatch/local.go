package dispatch

import (
	"context"
	"sync"
	"time"
)

// Local is the in-process dispatcher: a FIFO queue of tasks read by the
// process's own workers. Reports go, synchronously from Ack, Nack and
// Term, to the function of a Reports call in progress, else to the
// onReport given to NewLocal. Create it with NewLocal.
type Local struct {
	onReport func(Report)

	mu       sync.Mutex
	reportTo func(Report) // a Reports call's; nil when none runs
	queue    []Task
	wake     chan struct{} // closed and replaced when a task arrives
	closed   bool
}

// NewLocal returns a Local dispatcher that hands reports to onReport (nil:
// dropped).
func NewLocal(onReport func(Report)) *Local {
	return &Local{onReport: onReport, wake: make(chan struct{})}
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

// Reports hands every report to fn, synchronously from the worker's Ack,
// Nack or Term, until ctx ends. In one process nothing is lost or sent
// again: fn's error is dropped with the report. One Reports call at a
// time; when it ends, reports go to NewLocal's onReport again.
func (l *Local) Reports(ctx context.Context, fn func(Report) error) error {
	l.mu.Lock()
	l.reportTo = func(r Report) { fn(r) }
	l.mu.Unlock()
	<-ctx.Done()
	l.mu.Lock()
	l.reportTo = nil
	l.mu.Unlock()
	return ctx.Err()
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
	d.l.mu.Lock()
	to := d.l.reportTo
	d.l.mu.Unlock()
	if to == nil {
		to = d.l.onReport
	}
	if to != nil {
		to(r)
	}
}
