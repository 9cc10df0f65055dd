package cluster_test

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/cluster"
	"github.com/blogharvest/blogharvest/dispatch"
)

// lockedBuffer is a log sink safe for the consumer's goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestUnprocessableReportsDoNotBlock: a member's done reports naming a
// blog that is no key of the runs bucket ("bad.", "a b", "a..b"), and one
// the scheduler's fn can never record (dispatch.ErrUnprocessable), are
// dropped and logged once each; the good report published after them
// reaches fn. Before, each came again forever ("report not checked yet")
// and, one report pending at a time, held up every later one.
func TestUnprocessableReportsDoNotBlock(t *testing.T) {
	var logs lockedBuffer
	c := connect(t, cluster.Options{AckWait: time.Second, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	due := time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)
	bad := []string{"bad.", "a b", "a..b", "refused"}
	for _, b := range append(bad, "good") {
		if b == "good" || b == "refused" {
			if err := c.Hold(ctx, b, due); err != nil {
				t.Fatal(err)
			}
		}
		if err := c.Report(ctx, dispatch.Report{Blog: b, Due: due, Kind: dispatch.Done, Attempt: 1}); err != nil {
			t.Fatal(err)
		}
	}
	rctx, rcancel := context.WithCancel(ctx)
	var got []string
	c.Reports(rctx, func(r dispatch.Report) error {
		got = append(got, r.Blog)
		if r.Blog == "refused" {
			return fmt.Errorf("%w: not a blog of ours", dispatch.ErrUnprocessable)
		}
		if r.Blog == "good" {
			rcancel()
		}
		return nil
	})
	if ctx.Err() != nil || strings.Join(got, ",") != "refused,good" {
		t.Fatalf("fn saw %q (want refused,good) before %v; log:\n%s", got, ctx.Err(), logs.String())
	}
	log := logs.String()
	for _, b := range bad {
		mention := `blog \"` + b + `\"` // inside the quoted err of the text handler
		if b == "refused" {
			mention = "blog=refused"
		}
		if n := strings.Count(log, mention); n != 1 {
			t.Errorf("blog %q logged %d times, want once:\n%s", b, n, log)
		}
	}
	if n := strings.Count(log, "dropped"); n != len(bad) {
		t.Errorf("%d reports dropped in the log, want %d:\n%s", n, len(bad), log)
	}
}
