package daemon

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/schedule"
)

// failingHarvester fails every harvest with the error its blog is given,
// and reports each harvest it ran on ran.
type failingHarvester struct {
	errs map[string]error
	ran  chan string
}

var _ harvester = failingHarvester{}

func (h failingHarvester) Harvest(ctx context.Context, o harvest.Options, since time.Time, emit func(harvest.Record) error) (*harvest.Result, error) {
	defer func() { h.ran <- o.Blog.ID }()
	return nil, h.errs[o.Blog.ID]
}

// TestFailedRunBacksOff: a run that fails with a transient error (the
// blog's server is down) is retried after schedule.Backoff, before its
// regular slot; one that fails for good waits for its regular slot.
func TestFailedRunBacksOff(t *testing.T) {
	d := NewDaemon(dailyConfig(t, t.TempDir(), "down", "gone"))
	d.env.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	d.env.Now = func() time.Time { return now }
	ran := make(chan string, 2)
	d.run.harvester = failingHarvester{ran: ran, errs: map[string]error{
		"down": blogharvest.Transient(errors.New("503 Service Unavailable")),
		"gone": blogharvest.Permanent(errors.New("410 Gone")),
	}}
	if err := d.Open(); err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for range 2 {
		select {
		case <-ran:
		case <-time.After(3 * time.Minute):
			t.Fatal("the blogs did not run")
		}
	}
	d.plan.mu.Lock()
	specs := map[string]schedule.Spec{"down": d.plan.specs["down"], "gone": d.plan.specs["gone"]}
	d.plan.mu.Unlock()
	want := map[string]time.Time{
		"down": schedule.NextAfterFailure(specs["down"], 1, now),
		"gone": schedule.NextAfterSuccess(specs["gone"], now),
	}
	if !want["down"].Before(want["gone"]) || !want["down"].Equal(now.Add(schedule.Backoff(1))) {
		t.Fatalf("test premise: a retry after %v is due %v, before the regular slot %v", schedule.Backoff(1), want["down"], want["gone"])
	}
	for id, due := range want {
		st := waitRescheduled(t, d, id, now)
		if st.Outcome != schedule.OutcomeFailed || st.Failures != 1 || !st.NextDue.Equal(due) {
			t.Errorf("%s: outcome %q, %d failures, next due %v; want failed, 1 failure, next due %v", id, st.Outcome, st.Failures, st.NextDue, due)
		}
	}
}

// dailyConfig is the config of blogs ids, each scheduled @daily at an
// unreachable loopback URL (the i-th on port i+1), archiving into dir.
func dailyConfig(t *testing.T, dir string, ids ...string) *Config {
	t.Helper()
	y := "archive: " + filepath.Join(dir, "archive") + "\nstate: " + filepath.Join(dir, "state.db") + "\nblogs:\n"
	for i, id := range ids {
		y += fmt.Sprintf("  - id: %s\n    url: http://127.0.0.1:%d/\n    schedule: \"@daily\"\n", id, i+1)
	}
	c, err := ParseConfig("test.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// waitRescheduled waits until the blog's run is recorded and its next due
// time set after now, and returns its state.
func waitRescheduled(t *testing.T, d *Daemon, id string, now time.Time) schedule.State {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		st, _, err := d.plan.store.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		if st.Outcome != schedule.OutcomeRunning && st.NextDue.After(now) || time.Now().After(deadline) {
			return st
		}
		time.Sleep(10 * time.Millisecond)
	}
}
