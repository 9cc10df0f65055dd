package daemon_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/fixture"
	"github.com/blogharvest/blogharvest/schedule"
)

// TestCrawlOverBudgetIsPartial: a blog that turns endlessly slow mid-crawl
// is stopped by max_duration; what was extracted is archived, the run's
// outcome is "partial" (not failed), the watermark does not move, and the
// command returns (the harvest slot is free again). How much is extracted
// before the budget runs out depends on the machine (under -race on a
// loaded machine 10 s once archived no entry yet): a run that archived
// none is repeated with twice the budget, up to 80 s.
func TestCrawlOverBudgetIsPartial(t *testing.T) {
	t.Parallel()
	for budget := 10 * time.Second; ; budget *= 2 {
		st, errs, archive := crawlOverBudget(t, budget)
		if st.Outcome == schedule.OutcomePartial && st.Entries == 0 && budget < 80*time.Second {
			t.Logf("max_duration %v archived no entry yet: again with %v", budget, 2*budget)
			continue
		}
		if st.Outcome != schedule.OutcomePartial || st.LastError != "" || !st.Watermark.IsZero() || st.Entries == 0 {
			t.Errorf("state %+v: want outcome partial, no error, no watermark, some entries", st)
		}
		if want := fmt.Sprintf("max_duration %v reached", budget); !strings.Contains(errs, want) {
			t.Errorf("log lacks the budget warning %q:\n%s", want, daemontest.LastLines(errs, 10))
		}
		daemontest.CheckArchive(t, archive)
		return
	}
}

// crawlOverBudget crawls a blog whose pages hang after the 25th with
// max_duration budget and returns the blog's schedule state, the log and
// the archive's folder.
func crawlOverBudget(t *testing.T, budget time.Duration) (schedule.State, string, string) {
	t.Helper()
	site := fixture.MustNew("wordpress")
	var served atomic.Int32
	h := site.Handler()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page := r.URL.Path != "/robots.txt" && !strings.Contains(r.URL.Path, "feed")
		if page && served.Add(1) > 25 {
			<-r.Context().Done() // endlessly slow from here on
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	dir := t.TempDir()
	state := filepath.Join(dir, "state", "schedule.db")
	cfg := filepath.Join(dir, "blogs.yaml")
	y := fmt.Sprintf("archive: %s\nstate: %s\nblogs:\n  - id: sample\n    url: %s/\n    delay: 1ms\n    render: never\n    requisites: none\n    max_duration: %v\n",
		filepath.Join(dir, "archive"), state, srv.URL, budget)
	if err := os.WriteFile(cfg, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errs bytes.Buffer
	code := daemon.Main(context.Background(), []string{"crawl", "-config", cfg}, daemon.IO{Stdout: &out, Stderr: &errs})
	t.Logf("max_duration %v: exit %d\n%s%s", budget, code, out.String(), daemontest.LastLines(errs.String(), 10))
	s, err := schedule.OpenReadOnly(state)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	st, _, err := s.Get("sample")
	if err != nil {
		t.Fatal(err)
	}
	return st, errs.String(), filepath.Join(dir, "archive")
}

// TestCrawlURLMaxDuration: crawl -url takes -max-duration; a budget too
// short to archive even the blog record fails the crawl (exit 1) naming it.
func TestCrawlURLMaxDuration(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(fixture.MustNew("static").Handler())
	defer srv.Close()
	code, stdout, stderr := daemontest.Run(t, "crawl", "-url", srv.URL+"/", "-out", t.TempDir(), "-delay", "1ms", "-render", "never",
		"-max-duration", "1ns")
	if code != daemon.ExitFailure || !strings.Contains(stdout+stderr, "time budget (max_duration)") {
		t.Errorf("exit %d, want 1 naming the budget\n%s\n%s", code, stdout, daemontest.LastLines(stderr, 5))
	}
}
