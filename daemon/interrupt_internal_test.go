package daemon

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/schedule"
)

// blockingHarvester reports each harvest it starts on started, then blocks
// until its context is cancelled.
type blockingHarvester struct{ started chan string }

var _ harvester = blockingHarvester{}

func (h blockingHarvester) Harvest(ctx context.Context, o harvest.Options, since time.Time, emit func(harvest.Record) error) (*harvest.Result, error) {
	h.started <- o.Blog.ID
	<-ctx.Done()
	return nil, ctx.Err()
}

// openBlocking opens a Daemon on dir whose harvests block until cancelled.
func openBlocking(t *testing.T, dir string) (*Daemon, chan string) {
	t.Helper()
	d := NewDaemon(dailyConfig(t, dir, "slow"))
	d.env.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	started := make(chan string, 1)
	d.run.harvester = blockingHarvester{started}
	if err := d.Open(); err != nil {
		t.Fatal(err)
	}
	return d, started
}

// TestRunCancelledByShutdownIsInterrupted checks that a run cut short by
// Close (SIGTERM) is recorded as interrupted, not as a failure, and runs
// again at the next start.
func TestRunCancelledByShutdownIsInterrupted(t *testing.T) {
	dir := t.TempDir()
	for start := 1; start <= 2; start++ {
		d, started := openBlocking(t, dir)
		select {
		case <-started: // a new blog runs at once; after an interrupted run, again
		case <-time.After(20 * time.Second):
			t.Fatalf("start %d: the blog did not run", start)
		}
		if err := d.Close(); err != nil {
			t.Fatal(err)
		}
		store, err := schedule.Open(filepath.Join(dir, "state.db"))
		if err != nil {
			t.Fatal(err)
		}
		st, _, err := store.Get("slow")
		store.Close()
		if err != nil {
			t.Fatal(err)
		}
		if st.Outcome != schedule.OutcomeInterrupted || st.Failures != 0 || st.Runs != start {
			t.Errorf("start %d: outcome %q, %d failures, %d runs; want interrupted, 0 failures, %d runs", start, st.Outcome, st.Failures, st.Runs, start)
		}
		if now := time.Now(); !schedule.DueOnStart(st, now).Equal(now) {
			t.Errorf("start %d: an interrupted run is not due at the next start", start)
		}
	}
}
