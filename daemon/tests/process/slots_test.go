package process_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// TestCrawlDelayLendsTheSlot reproduces finding 3 of issue 23 with the real
// binary: concurrency 1, one blog whose robots.txt asks for a Crawl-delay
// of a day (crawled at a max_crawl_delay of an hour, far beyond the test)
// and another on @every 2s. While the first waits for its host's turn, the
// second must run, and more than once; before, it waited for the slot the
// sleeping crawl held.
func TestCrawlDelayLendsTheSlot(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	t.Parallel()
	slowSite, quickSite := fixture.MustNew("static"), fixture.MustNew("static")
	slowHandler := slowSite.Handler()
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			io.WriteString(w, "User-agent: *\nCrawl-delay: 86400\n")
			return
		}
		slowHandler.ServeHTTP(w, r)
	}))
	defer slow.Close()
	quick := httptest.NewServer(quickSite.Handler())
	defer quick.Close()
	config, listen := oneSlotConfig(t, fmt.Sprintf(`  - id: slow
    url: %s/
    schedule: "@every 1h"
    max_crawl_delay: 1h
    render: never
  - id: quick
    url: %s/
    schedule: "@every 2s"
    delay: 1ms
    render: never
`, slow.URL, quick.URL))
	d := daemontest.Start(t, "run", "-config", config)
	// Two runs of quick ending after slow started: slow's crawl waits an
	// hour after robots.txt and its first page, so it is still running.
	daemontest.WaitFor(t, "two runs of quick while slow waits for its Crawl-delay", 120*time.Second, func() bool {
		st := blogStatuses(listen)
		s, q := st["slow"], st["quick"]
		if s == nil || q == nil || s.LastStart.IsZero() {
			return false
		}
		return q.LastEnd.After(s.LastStart) && q.Runs >= 2 && q.Outcome == "ok"
	})
	if s := blogStatuses(listen)["slow"]; s == nil || !s.Running {
		t.Errorf("slow is no longer running: %+v (its crawl should still wait for its Crawl-delay)", s)
	}
	if code := d.Stop(t, syscall.SIGTERM, 90*time.Second); code != 0 {
		t.Errorf("exit code after SIGTERM = %d, want 0", code)
	}
}

// blogStatus is the part of a blog's /status line the tests read.
type blogStatus struct {
	Running   bool      `json:"running"`
	LastStart time.Time `json:"last_start"`
	LastEnd   time.Time `json:"last_end"`
	Outcome   string    `json:"outcome"`
	Runs      int       `json:"runs"`
	Entries   int       `json:"entries_archived"`
}

// blogStatuses reads /status of the daemon on listen, by blog id; nil if
// it does not answer.
func blogStatuses(listen string) map[string]*blogStatus {
	resp, err := http.Get("http://" + listen + "/status")
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	var body struct {
		Blogs []struct {
			ID string `json:"id"`
			blogStatus
		} `json:"blogs"`
	}
	if json.NewDecoder(resp.Body).Decode(&body) != nil {
		return nil
	}
	out := map[string]*blogStatus{}
	for _, b := range body.Blogs {
		out[b.ID] = &b.blogStatus
	}
	return out
}

// oneSlotConfig writes the config of a daemon with one harvest slot
// (concurrency 1), its archive and state in a temporary folder, JSON logs,
// a free status address and the blogs given (YAML list items), and returns
// the config's path and the status address.
func oneSlotConfig(t *testing.T, blogs string) (config, listen string) {
	t.Helper()
	dir := t.TempDir()
	listen = daemontest.FreeAddr(t)
	config = filepath.Join(dir, "blogs.yaml")
	y := fmt.Sprintf("archive: %s\nstate: %s\nlisten: %s\nconcurrency: 1\nlog: {format: json, level: info}\nblogs:\n%s",
		filepath.Join(dir, "archive"), filepath.Join(dir, "schedule.db"), listen, blogs)
	if err := os.WriteFile(config, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	return config, listen
}
