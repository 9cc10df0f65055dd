package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/blogharvest/blogharvest/dispatch"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

var (
	_ dispatch.Dispatcher = (*Conn)(nil)
	_ dispatch.Reporter   = (*Conn)(nil)
)

// Enqueue publishes t to the tasks stream with Nats-Msg-Id = t.ID(): a
// run enqueued again within the duplicate window (by a scheduler that took
// over, say) is dropped by the server.
func (c *Conn) Enqueue(ctx context.Context, t dispatch.Task) error {
	data, err := json.Marshal(t)
	if err != nil {
		return err
	}
	ack, err := c.js.Publish(ctx, TasksSubject, data, jetstream.WithMsgID(t.ID()))
	if err != nil {
		return fmt.Errorf("cluster: enqueue %s: %w", t.ID(), err)
	}
	if ack.Duplicate {
		return dispatch.ErrDuplicate
	}
	return nil
}

// Receive waits for the next task from the shared consumer. It fetches one
// message only: a worker calls it once per free slot, so its unacked tasks
// never outnumber its concurrency.
func (c *Conn) Receive(ctx context.Context) (dispatch.Delivery, error) {
	for {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if c.nc.IsClosed() {
			return nil, dispatch.ErrClosed
		}
		msg, err := c.workers.Next(jetstream.FetchMaxWait(2 * time.Second))
		switch {
		case err == nil:
		case errors.Is(err, nats.ErrTimeout), errors.Is(err, jetstream.ErrNoMessages):
			continue
		default:
			c.o.Logger.Debug("no task fetched", "err", err)
			time.Sleep(250 * time.Millisecond) // disconnected: the client reconnects meanwhile
			continue
		}
		var t dispatch.Task
		if err := json.Unmarshal(msg.Data(), &t); err != nil || t.Blog == "" {
			c.o.Logger.Error("task not readable: dropped", "err", err, "data", string(msg.Data()))
			msg.TermWithReason("not a task")
			continue
		}
		n := 1
		if md, err := msg.Metadata(); err == nil {
			n = int(md.NumDelivered)
		}
		return &delivery{c: c, msg: msg, t: t, n: n}, nil
	}
}

// delivery is a task received from JetStream.
type delivery struct {
	c   *Conn
	msg jetstream.Msg
	t   dispatch.Task
	n   int
}

func (d *delivery) Task() dispatch.Task   { return d.t }
func (d *delivery) Attempt() (n, max int) { return d.n, d.c.o.MaxDeliver }

// Progress tells the server the task is still being worked on, resetting
// its ack wait.
func (d *delivery) Progress() error { return d.msg.InProgress() }

// Ack publishes r and then acknowledges the task, waiting for the server to
// confirm: a worker that dies between the two leaves the task to be
// redelivered, and the second report of the run is dropped as a duplicate.
func (d *delivery) Ack(r dispatch.Report) error {
	if err := d.c.Report(context.Background(), r); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	return d.msg.DoubleAck(ctx)
}

// Nack publishes r and hands the task back for redelivery after delay.
func (d *delivery) Nack(r dispatch.Report, delay time.Duration) error {
	err := d.c.Report(context.Background(), r)
	return errors.Join(err, d.msg.NakWithDelay(delay))
}

// Term publishes r and ends the task for good: terminated, and deleted
// from the stream (a WorkQueue stream keeps a message until it is acked).
func (d *delivery) Term(r dispatch.Report) error {
	if err := d.c.Report(context.Background(), r); err != nil {
		return err
	}
	err := d.msg.TermWithReason(r.Error)
	if md, merr := d.msg.Metadata(); merr == nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		seq := md.Sequence.Stream
		if derr := d.c.tasks.DeleteMsg(ctx, seq); derr != nil {
			// The server may have removed it on the Term already: gone is
			// what was asked.
			if _, gerr := d.c.tasks.GetMsg(ctx, seq); !errors.Is(gerr, jetstream.ErrMsgNotFound) {
				err = errors.Join(err, derr)
			}
		}
	}
	return err
}
