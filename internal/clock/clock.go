// Package clock holds the waits both the crawler (harvest/fetch) and the
// daemon (its harvest slots) make: Sleep waits for a duration or until a
// context is done. It is a leaf: it imports nothing of this module.
package clock

import (
	"context"
	"time"
)

// Sleep waits for d or until ctx is done, returning ctx's cause then;
// a d of zero or less returns ctx's error at once.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
