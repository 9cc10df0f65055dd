package dispatch_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/dispatch"
)

// TestLocalFIFOAndReports shows that Local hands tasks out in the order
// enqueued, passes reports to its callback and ends Receive on Close.
func TestLocalFIFOAndReports(t *testing.T) {
	var got []dispatch.Report
	l := dispatch.NewLocal(func(r dispatch.Report) { got = append(got, r) })
	ctx := context.Background()
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, id := range []string{"a", "b"} {
		if err := l.Enqueue(ctx, dispatch.Task{Blog: id, Due: t0}); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{"a", "b"} {
		dl, err := l.Receive(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if dl.Task().Blog != want {
			t.Fatalf("received %s, want %s", dl.Task().Blog, want)
		}
		dl.Ack(dispatch.Report{Blog: want, Kind: dispatch.Done})
	}
	if len(got) != 2 || got[1].Blog != "b" {
		t.Fatalf("reports %+v", got)
	}
	done := make(chan error)
	go func() { _, err := l.Receive(ctx); done <- err }()
	l.Close()
	if err := <-done; !errors.Is(err, dispatch.ErrClosed) {
		t.Fatalf("Receive after Close: %v", err)
	}
	if id := (dispatch.Task{Blog: "x", Due: t0}).ID(); id != "x/1767225600000000000" {
		t.Fatalf("ID %q", id)
	}
}
