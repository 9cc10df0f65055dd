package browser_test

import (
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// TestBrowserThatDoesNotStartMakesRunPartial reproduces finding 2 of issue
// 23 with the real binary: an installed browser that fails to start (a
// chromium first on PATH that exits at once, as one that misses its start
// timeout on a loaded machine ends) must be reported as such, never as "no
// browser installed"; a render: always blog's run is partial; and the next
// run, with a browser that starts, renders the pages the first archived
// unrendered, as new versions.
func TestBrowserThatDoesNotStartMakesRunPartial(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemontest.Binary() twice")
	}
	t.Parallel()
	site := fixture.MustNew("static")
	srv := httptest.NewServer(site.Handler())
	defer srv.Close()
	dir := t.TempDir()
	archive := filepath.Join(dir, "archive")
	config := filepath.Join(dir, "blogs.yaml")
	y := fmt.Sprintf(`archive: %s
state: %s
organization: Test Library
blogs:
  - id: js
    url: %s/
    schedule: "@every 1h"
    delay: 1ms
    max_pages: 3
    render: always
`, archive, filepath.Join(dir, "schedule.db"), srv.URL)
	if err := os.WriteFile(config, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	os.WriteFile(filepath.Join(bin, "chromium"), []byte("#!/bin/sh\necho 'chromium: cannot open the profile (a broken browser)' >&2\nsleep 3\nexit 1\n"), 0o755)
	cmd := exec.Command(daemontest.Binary(), "crawl", "-config", config)
	cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("crawl with a broken browser: %v\n%s", err, daemontest.LastLines(string(out), 30))
	}
	logs := string(out)
	if strings.Contains(logs, "no browser installed") || !strings.Contains(logs, "did not start") ||
		!strings.Contains(logs, "cannot open the profile") {
		t.Errorf("the log does not say the installed browser did not start, and why:\n%s", daemontest.LastLines(logs, 30))
	}
	status, _ := exec.Command(daemontest.Binary(), "status", "-config", config).CombinedOutput()
	if !strings.Contains(string(status), "partial") || !strings.Contains(string(status), "archived unrendered") {
		t.Errorf("status after a run whose browser did not start, want partial and why:\n%s", status)
	}
	first := renderedVersions(t, archive)
	if len(first.all) == 0 {
		t.Fatal("nothing archived by the first run")
	}
	if len(first.rendered) > 0 {
		t.Fatalf("rendered captures without a browser: %v", first.rendered)
	}
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("no chromium: the second run, which renders, is not tried")
	}
	out, err = exec.Command(daemontest.Binary(), "crawl", "-config", config).CombinedOutput()
	if err != nil {
		t.Fatalf("crawl with the real browser: %v\n%s", err, daemontest.LastLines(string(out), 30))
	}
	second := renderedVersions(t, archive)
	for entry := range first.all {
		if !second.rendered[entry] {
			t.Errorf("%s: archived unrendered by the first run, no rendered version after the second", entry)
		}
	}
	status, _ = exec.Command(daemontest.Binary(), "status", "-config", config).CombinedOutput()
	if strings.Contains(string(status), "partial") {
		t.Errorf("status after the run that rendered:\n%s", status)
	}
	daemontest.CheckArchive(t, archive)
}

// versions are an archive's entry folders: all, and those with a version
// holding a rendered capture.
type versions struct{ all, rendered map[string]bool }

func renderedVersions(t *testing.T, archive string) versions {
	t.Helper()
	v := versions{all: map[string]bool{}, rendered: map[string]bool{}}
	bags, _ := filepath.Glob(filepath.Join(archive, "js", "entries", "*", "*", "v*"))
	for _, bag := range bags {
		entry := filepath.Dir(bag)
		v.all[entry] = true
		mets, err := os.ReadFile(filepath.Join(bag, "data", "METS.xml"))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(mets), `USE="rendered"`) {
			v.rendered[entry] = true
		}
	}
	return v
}
