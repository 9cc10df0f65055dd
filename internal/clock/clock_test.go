package clock

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestSleepEnds: a sleep ends with nil after its duration, with the
// context's cause when it is cancelled first, and at once for zero.
func TestSleepEnds(t *testing.T) {
	if err := Sleep(context.Background(), time.Millisecond); err != nil {
		t.Fatalf("a 1 ms sleep: %v, want nil", err)
	}
	cause := errors.New("stopping")
	ctx, cancel := context.WithCancelCause(context.Background())
	done := make(chan error, 1)
	go func() { done <- Sleep(ctx, time.Hour) }()
	cancel(cause)
	select {
	case err := <-done:
		if !errors.Is(err, cause) {
			t.Fatalf("cancelled sleep: %v, want the cause %v", err, cause)
		}
	case <-time.After(time.Minute):
		t.Fatal("an hour's sleep did not end when its context was cancelled")
	}
	if err := Sleep(ctx, 0); !errors.Is(err, context.Canceled) {
		t.Fatalf("zero sleep on a done context: %v, want context.Canceled", err)
	}
	if err := Sleep(context.Background(), -time.Second); err != nil {
		t.Fatalf("negative sleep: %v, want nil", err)
	}
}
