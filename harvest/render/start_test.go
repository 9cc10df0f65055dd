package render_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/render"
)

// browserScript writes an executable shell script named chromium into a
// fresh directory and returns its path.
func browserScript(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "chromium")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSlowStartStillStarts runs the real browser behind a 21 s pause, as a
// loaded machine starts it: longer than chromedp's own 20 s wait for the
// DevTools address, shorter than the start timeout. It must start, not
// be taken for a missing browser.
func TestSlowStartStillStarts(t *testing.T) {
	real, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium on PATH")
	}
	t.Parallel()
	slow := browserScript(t, `sleep 21; exec "`+real+`" "$@"`)
	b, err := render.New(context.Background(), render.Options{ExecPath: slow, Tabs: 1, Logger: quietLogger()})
	if err != nil {
		t.Fatalf("a browser that takes 21 s to start: %v", err)
	}
	b.Close()
}

// brokenBrowser is a browser that says why it cannot start and exits. It
// waits a little before exiting: chromedp reads the output concurrently
// with its wait for the process, which closes the pipe at exit, so the
// words of a process that exits at once may be lost on a loaded machine.
const brokenBrowser = `echo "chromium: cannot open the profile (a broken browser)" >&2; sleep 3; exit 1`

// TestFailedStartIsNotNoBrowser: an installed browser that dies at start
// is reported as a failed start with its reason, never as no browser.
func TestFailedStartIsNotNoBrowser(t *testing.T) {
	broken := browserScript(t, brokenBrowser)
	_, err := render.New(context.Background(), render.Options{ExecPath: broken, Tabs: 1, Logger: quietLogger()})
	switch {
	case err == nil:
		t.Fatal("a browser that exits at once started")
	case errors.Is(err, render.ErrNoBrowser):
		t.Errorf("a browser that failed to start is reported as not installed: %v", err)
	case !errors.Is(err, render.ErrBrowserStart) || !strings.Contains(err.Error(), "cannot open the profile"):
		t.Errorf("New = %v, want ErrBrowserStart with the browser's own words", err)
	}
}

// TestSuiteFailsWithTheReason runs this package's tests again with a
// broken browser first on PATH: the tests that need the browser must fail
// and say why, not the binary exit 1 before any test.
func TestSuiteFailsWithTheReason(t *testing.T) {
	if os.Getenv("BLOGHARVEST_RENDER_CHILD") != "" {
		t.Skip("in the child run")
	}
	broken := browserScript(t, brokenBrowser)
	cmd := exec.Command(os.Args[0], "-test.run", "^TestDelayedComments$", "-test.count=1")
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(broken)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"BLOGHARVEST_RENDER_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the suite passed with a broken browser:\n%s", out)
	}
	if !strings.Contains(string(out), "--- FAIL: TestDelayedComments") || !strings.Contains(string(out), "cannot open the profile") {
		t.Errorf("the suite failed without naming the failing test and the reason:\n%s", out)
	}
}
