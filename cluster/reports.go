package cluster

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/blogharvest/blogharvest/dispatch"
	"github.com/nats-io/nats.go/jetstream"
)

// Report publishes r on the reports stream, with Nats-Msg-Id = r.ID() so
// the same report sent twice is stored once.
func (c *Conn) Report(ctx context.Context, r dispatch.Report) error {
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	for {
		_, err = c.js.Publish(ctx, ReportsSubj, data, jetstream.WithMsgID(r.ID()))
		if err == nil || ctx.Err() != nil {
			break
		}
		time.Sleep(200 * time.Millisecond) // the server may be restarting
	}
	if err != nil {
		return fmt.Errorf("cluster: report %s: %w", r.ID(), err)
	}
	return nil
}

// Reports hands each report to fn, in order, until ctx ends, through the
// reports stream's durable consumer: a report is acknowledged (and removed)
// only once fn returned nil, so a scheduler that dies leaves the rest to
// the one taking over.
func (c *Conn) Reports(ctx context.Context, fn func(dispatch.Report) error) error {
	cons, err := c.js.CreateOrUpdateConsumer(ctx, ReportsStream, jetstream.ConsumerConfig{Durable: SchedulerName,
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: c.o.AckWait, MaxAckPending: 1})
	if err != nil {
		return fmt.Errorf("cluster: reports consumer: %w", err)
	}
	for ctx.Err() == nil {
		msg, err := cons.Next(jetstream.FetchMaxWait(time.Second))
		if err != nil {
			continue
		}
		var r dispatch.Report
		if err := json.Unmarshal(msg.Data(), &r); err != nil {
			c.o.Logger.Error("report not readable: dropped", "err", err)
			msg.Term()
			continue
		}
		if err := fn(r); err != nil {
			c.o.Logger.Error("report not recorded; it comes again", "blog", r.Blog, "err", err)
			msg.NakWithDelay(time.Second)
			continue
		}
		msg.Ack()
	}
	return ctx.Err()
}
