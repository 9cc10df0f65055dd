package daemon

import (
	"context"
	"errors"

	"github.com/blogharvest/blogharvest/dispatch"
)

// startLocal makes the in-process dispatcher the daemon's, with n
// harvest slots (slots.go): the single process's worker pool. One
// goroutine takes each task from the queue, waits for a free slot and
// runs the task in a goroutine of its own, which lends its slot while its
// crawl waits for a host's politeness. The pool's runs reschedule their
// blogs themselves (runTask): their reports are dropped, not read.
func (d *Daemon) startLocal(n int) {
	d.local = dispatch.NewLocal(func(dispatch.Report) {})
	d.slots = newSlotPool(n)
	d.life.goRun(func() { d.work(d.local) })
}

// work runs the tasks of q, each once a slot is free, until the daemon
// closes.
func (d *Daemon) work(q dispatch.Dispatcher) {
	for {
		dl, err := q.Receive(d.life.ctx)
		if err != nil {
			return
		}
		if err := d.slots.take(d.life.ctx); err != nil {
			return // closing: the run is retried at the next start
		}
		slot := &runSlot{pool: d.slots, held: true}
		d.life.goRun(func() {
			defer slot.release()
			d.runTask(withSlot(d.life.ctx, slot), dl)
		})
	}
}

// enqueueLocked hands a run of blog id to the pool's queue; d.mu is
// held (planner.enqueue).
func (d *Daemon) enqueueLocked(id string) {
	if err := d.local.Enqueue(d.life.ctx, dispatch.Task{Blog: id, Due: d.env.Now()}); err != nil {
		delete(d.plan.running, id)
		delete(d.plan.again, id)
		if !errors.Is(err, dispatch.ErrClosed) {
			d.env.Logger.Error("run not enqueued", "blog", id, "err", err)
		}
	}
}

// runTask runs the in-process task dl: the blog's harvest, then its next
// schedule from the outcome, then the run again if it was fired meanwhile.
func (d *Daemon) runTask(ctx context.Context, dl dispatch.Delivery) {
	id := dl.Task().Blog
	defer dl.Ack(dispatch.Report{Blog: id, Due: dl.Task().Due, Kind: dispatch.Done})
	b, spec, ok := d.plan.blog(id)
	if ok && d.life.ctx.Err() != nil {
		return // shut down before its turn: run at the next start, not begun now
	}
	if ok {
		_, rescheduled, err := d.runScheduled(ctx, b, nil, &spec) // its next due time stored with its end
		if errors.Is(err, context.Canceled) && d.life.ctx.Err() != nil {
			return // shutting down: the run is retried at the next start
		}
		if !rescheduled {
			d.plan.reschedule(id, spec, err)
		}
		if err != nil {
			d.plan.backOff(id)
		}
	}
	d.plan.ended(id)
}
