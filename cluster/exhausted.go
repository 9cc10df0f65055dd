package cluster

import (
	"context"
	"encoding/json"
	"time"

	"github.com/blogharvest/blogharvest/dispatch"
	"github.com/nats-io/nats.go"
)

// exhaustedSubject is the server's advisory that a task of the workers'
// consumer reached MaxDeliver.
const exhaustedSubject = "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + TasksStream + "." + WorkersName

// Exhausted calls fn with each task that reached MaxDeliver without a
// worker ending it (its last worker died, say), then deletes the task from
// the stream. A task whose last worker ended it (Term deletes it) is not
// passed. Advisories are not stored: those sent while no scheduler listens
// are missed. stop ends the subscription.
func (c *Conn) Exhausted(fn func(dispatch.Task)) (stop func(), err error) {
	sub, err := c.nc.Subscribe(exhaustedSubject, func(m *nats.Msg) {
		var adv struct {
			StreamSeq uint64 `json:"stream_seq"`
		}
		if json.Unmarshal(m.Data, &adv) != nil || adv.StreamSeq == 0 {
			return
		}
		go c.exhausted(adv.StreamSeq, fn)
	})
	if err != nil {
		return nil, err
	}
	return func() { sub.Unsubscribe() }, nil
}

// exhausted reads the task at seq, hands it to fn and deletes it.
func (c *Conn) exhausted(seq uint64, fn func(dispatch.Task)) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	raw, err := c.tasks.GetMsg(ctx, seq)
	if err != nil {
		return // ended by its worker (Term deleted it)
	}
	var t dispatch.Task
	if json.Unmarshal(raw.Data, &t) == nil && t.Blog != "" {
		fn(t)
	}
	if err := c.tasks.DeleteMsg(ctx, seq); err != nil {
		c.o.Logger.Warn("exhausted task not deleted", "seq", seq, "err", err)
	}
}
