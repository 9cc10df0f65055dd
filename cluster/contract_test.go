package cluster_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/cluster"
	"github.com/blogharvest/blogharvest/dispatch"
)

// queue is what a scheduler and its workers use of a dispatcher.
type queue interface {
	dispatch.Dispatcher
	dispatch.Reporter
}

// TestDispatchContract runs what a scheduler and its workers do against
// both dispatchers, the in-process dispatch.Local and NATS JetStream (a
// real server in this process): tasks come out in the order enqueued,
// with their payload, as first attempts; the report each task ends with
// (Ack, Term) reaches Reports with its payload and error; a task ended is
// not handed out again.
func TestDispatchContract(t *testing.T) {
	for _, tc := range []struct {
		name string
		open func(t *testing.T) (queue, func(ctx context.Context, tk dispatch.Task) error)
	}{
		{"local", func(t *testing.T) (queue, func(context.Context, dispatch.Task) error) {
			return dispatch.NewLocal(nil), func(context.Context, dispatch.Task) error { return nil }
		}},
		{"nats", func(t *testing.T) (queue, func(context.Context, dispatch.Task) error) {
			c := connect(t, cluster.Options{AckWait: 5 * time.Second})
			// A done report counts only from the worker holding the run.
			return c, func(ctx context.Context, tk dispatch.Task) error { return c.Hold(ctx, tk.Blog, tk.Due) }
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q, hold := tc.open(t)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			due := time.Date(2026, 11, 28, 9, 0, 0, 0, time.UTC)
			tasks := []dispatch.Task{{Blog: "b1", Due: due, Payload: json.RawMessage(`{"n":1}`)},
				{Blog: "b2", Due: due, Payload: json.RawMessage(`{"n":2}`)}}
			for _, tk := range tasks {
				if err := q.Enqueue(ctx, tk); err != nil {
					t.Fatal(err)
				}
			}
			var dls []dispatch.Delivery
			for _, want := range tasks {
				dl, err := q.Receive(ctx)
				if err != nil {
					t.Fatal(err)
				}
				got := dl.Task()
				if n, _ := dl.Attempt(); got.ID() != want.ID() || string(got.Payload) != string(want.Payload) || n != 1 {
					t.Fatalf("received %s %s attempt %d; want %s %s attempt 1", got.ID(), got.Payload, n, want.ID(), want.Payload)
				}
				if err := hold(ctx, got); err != nil {
					t.Fatal(err)
				}
				dls = append(dls, dl)
			}
			if err := dls[0].Ack(dispatch.Report{Blog: "b1", Due: due, Kind: dispatch.Done, Attempt: 1,
				Payload: json.RawMessage(`{"outcome":"ok"}`)}); err != nil {
				t.Fatal(err)
			}
			if err := dls[1].Term(dispatch.Report{Blog: "b2", Due: due, Kind: dispatch.Done, Attempt: 1,
				Error: "410 Gone"}); err != nil {
				t.Fatal(err)
			}
			got := make(chan dispatch.Report, 4)
			rctx, rcancel := context.WithCancel(ctx)
			defer rcancel()
			go q.Reports(rctx, func(r dispatch.Report) error { got <- r; return nil })
			for _, want := range []dispatch.Report{{Blog: "b1", Payload: json.RawMessage(`{"outcome":"ok"}`)}, {Blog: "b2", Error: "410 Gone"}} {
				select {
				case r := <-got:
					if r.Blog != want.Blog || r.Kind != dispatch.Done || !r.Due.Equal(due) || r.Error != want.Error ||
						string(r.Payload) != string(want.Payload) {
						t.Errorf("report %+v; want %+v", r, want)
					}
				case <-ctx.Done():
					t.Fatalf("no report of %s", want.Blog)
				}
			}
			sctx, scancel := context.WithTimeout(ctx, 2*time.Second)
			defer scancel()
			if dl, err := q.Receive(sctx); !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("after Ack and Term: received %v, %v; want nothing", dl, err)
			}
		})
	}
}
