package ownbrowser_test

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/render"
	"github.com/blogharvest/blogharvest/harvest/render/internal/rendertest"
)

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
	slow := rendertest.BrowserScript(t, `sleep 21; exec "`+real+`" "$@"`)
	b, err := render.New(context.Background(), render.Options{ExecPath: slow, Tabs: 1, Logger: quietLogger()})
	if err != nil {
		t.Fatalf("a browser that takes 21 s to start: %v", err)
	}
	b.Close()
}

// TestFailedStartIsNotNoBrowser: an installed browser that dies at start
// is reported as a failed start with its reason, never as no browser.
func TestFailedStartIsNotNoBrowser(t *testing.T) {
	broken := rendertest.BrowserScript(t, rendertest.BrokenBrowser)
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
