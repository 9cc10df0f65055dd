package daemon_test

import (
	"net/http"
	"net/http/httptest"
	"os/exec"
	"regexp"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// TestCrawlDelayZeroBackToBack: crawl -url … -delay 0 sends its requests
// back to back. The blogharvest binary crawls a fixture blog, and the run's
// log line counts the requests that waited for their host's turn
// (delayed=N): none with -delay 0, some with -delay 10ms on the same blog,
// which shows the count can tell the two apart. No wall time is measured.
func TestCrawlDelayZeroBackToBack(t *testing.T) {
	t.Parallel()
	site := fixture.MustNew("static")
	var hits atomic.Int64
	h := site.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	for _, tc := range []struct {
		delay       string
		wantDelayed bool
	}{{"0", false}, {"10ms", true}} {
		hits.Store(0)
		out, err := exec.Command(daemontest.Binary(), "crawl", "-url", srv.URL+"/", "-out", t.TempDir(),
			"-delay", tc.delay, "-render", "never").CombinedOutput()
		if err != nil {
			t.Fatalf("crawl -delay %s: %v\n%s", tc.delay, err, daemontest.LastLines(string(out), 20))
		}
		delayed := loggedDelayed(t, string(out))
		t.Logf("-delay %s: %d requests, %d waited for their host's turn", tc.delay, hits.Load(), delayed)
		if hits.Load() < 10 {
			t.Errorf("-delay %s: only %d requests reached the blog", tc.delay, hits.Load())
		}
		if got := delayed > 0; got != tc.wantDelayed {
			t.Errorf("-delay %s: %d of %d requests waited for their host's turn, want %s", tc.delay, delayed,
				hits.Load(), map[bool]string{false: "none", true: "some"}[tc.wantDelayed])
		}
	}
}

// loggedDelayed reads delayed=N from the "harvest finished" log line.
func loggedDelayed(t *testing.T, logs string) int {
	t.Helper()
	m := regexp.MustCompile(`msg="harvest finished".* delayed=(\d+)`).FindStringSubmatch(logs)
	if m == nil {
		t.Fatalf("no harvest finished line with delayed=N:\n%s", daemontest.LastLines(logs, 20))
	}
	n, _ := strconv.Atoi(m[1])
	return n
}
