package cluster

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest/dispatch"
	"github.com/nats-io/nats.go/jetstream"
)

// Report publishes r on the reports stream, with Nats-Msg-Id = r.ID() so
// the same report sent twice is stored once, signed by this process (its
// Worker is this process's Name).
func (c *Conn) Report(ctx context.Context, r dispatch.Report) error {
	r.Worker = c.o.Name
	data, err := json.Marshal(r)
	if err == nil {
		data, err = c.sign(data)
	}
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
// the one taking over. Only reports signed by a member are passed, with
// Worker set to the signer; a done report only if its signer is the worker
// that holds the run (Hold). Others are logged and dropped (Term: never
// delivered again), as are reports naming a blog that is no key of the
// runs bucket and reports fn fails on with dispatch.ErrUnprocessable; only
// a report whose check or recording may succeed later (the server or the
// store unreachable) comes again, and holds up the ones after it.
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
		r, err := c.verify(ctx, msg.Data())
		if errors.Is(err, errHolderUnknown) {
			c.o.Logger.Warn("report not checked yet; it comes again", "err", err)
			msg.NakWithDelay(time.Second)
			continue
		}
		if err != nil {
			c.o.Logger.Warn("report refused: dropped", "err", err)
			msg.Term()
			continue
		}
		if err := fn(r); errors.Is(err, dispatch.ErrUnprocessable) {
			c.o.Logger.Warn("report cannot be recorded: dropped", "blog", r.Blog, "err", err)
			msg.Term()
			continue
		} else if err != nil {
			c.o.Logger.Error("report not recorded; it comes again", "blog", r.Blog, "err", err)
			msg.NakWithDelay(time.Second)
			continue
		}
		msg.Ack()
	}
	return ctx.Err()
}

// ErrNotHolder marks a done report from a member that does not hold the
// run it reports.
var ErrNotHolder = errors.New("not from the worker that holds the run")

// errHolderUnknown marks a done report whose run's holder could not be
// read (the server unreachable): it is read again later.
var errHolderUnknown = errors.New("the run's holder not known")

// verify opens a published report (its signature) and, for a done
// report, checks that its signer holds the run.
func (c *Conn) verify(ctx context.Context, msg []byte) (dispatch.Report, error) {
	data, signer, err := c.open(msg)
	if err != nil {
		return dispatch.Report{}, err
	}
	var r dispatch.Report
	if err := json.Unmarshal(data, &r); err != nil {
		return r, fmt.Errorf("report of %s not readable: %w", signer, err)
	}
	r.Worker = signer
	if r.Kind != dispatch.Done {
		return r, nil
	}
	if !validKeyToken(r.Blog) {
		return r, fmt.Errorf("done report of %s: blog %q is no key of the runs bucket", signer, r.Blog)
	}
	var holder string
	for attempt := 0; ; attempt++ { // the server may be restarting
		hctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		holder, err = c.holder(hctx, r.Blog, r.Due)
		cancel()
		if err == nil || ctx.Err() != nil || attempt == 20 {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	if errors.Is(err, jetstream.ErrInvalidKey) {
		return r, fmt.Errorf("done report of %s for blog %q: %w", signer, r.Blog, err)
	}
	if err != nil {
		return r, fmt.Errorf("done report of %s for blog %s: %w: %w", signer, r.Blog, errHolderUnknown, err)
	}
	if holder != signer {
		return r, fmt.Errorf("done report of %s for blog %s due %s: the run is held by %q: %w", signer, r.Blog,
			r.Due.UTC().Format(time.RFC3339Nano), holder, ErrNotHolder)
	}
	return r, nil
}

// validKeyToken reports whether s may follow "run." in a key of a
// key-value bucket: NATS's key characters, no '.' first or last or beside
// another (an empty subject token).
func validKeyToken(s string) bool {
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' || strings.Contains(s, "..") {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("-/_=.", c) >= 0) {
			return false
		}
	}
	return true
}
