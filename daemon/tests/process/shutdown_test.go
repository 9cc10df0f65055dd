package process_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// TestNoHarvestStartsAfterShutdown: with concurrency 1, blog "busy" holds
// the only slot (its server never answers the feed) while blog "queued"
// waits for it. SIGTERM must end the daemon without starting the queued
// harvest: after "shutting down" the log holds no "harvest started", and
// the queued blog's server is never asked anything. Before, the queued
// task was handed the freed slot and started a harvest its cancelled
// context ended at once.
func TestNoHarvestStartsAfterShutdown(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	t.Parallel()
	var asked atomic.Int32
	hang := make(chan struct{})
	busy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		select {
		case <-r.Context().Done():
		case <-hang:
		}
	}))
	defer busy.Close()
	defer close(hang)
	var queuedAsked atomic.Int32
	queuedSite := fixture.MustNew("static").Handler()
	queued := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		queuedAsked.Add(1)
		queuedSite.ServeHTTP(w, r)
	}))
	defer queued.Close()
	config, listen := oneSlotConfig(t, fmt.Sprintf(`  - id: busy
    url: %s/
    schedule: "@every 1h"
    render: never
  - id: queued
    url: %s/
    schedule: "@every 1h"
    render: never
`, busy.URL, queued.URL))
	d := daemontest.Start(t, "run", "-config", config)
	daemontest.WaitFor(t, "a harvest holding the only slot", 120*time.Second, func() bool {
		st := blogStatuses(listen)
		return asked.Load() > 0 && st["busy"] != nil && st["busy"].Running || queuedAsked.Load() > 0
	})
	if queuedAsked.Load() > 0 {
		t.Skip("the queued blog was harvested first (schedule order); nothing to test this time")
	}
	if code := d.Stop(t, syscall.SIGTERM, 90*time.Second); code != 0 {
		t.Errorf("exit code after SIGTERM = %d, want 0\n%s", code, d.Logs.String())
	}
	logs := d.Logs.String()
	_, after, ok := strings.Cut(logs, "shutting down")
	if !ok {
		t.Fatalf("no shutting-down line:\n%s", logs)
	}
	if strings.Contains(after, "harvest started") {
		t.Errorf("a harvest started after shutting down:\n%s", after)
	}
	if n := queuedAsked.Load(); n > 0 {
		t.Errorf("the queued blog's server was asked %d times after SIGTERM", n)
	}
}
