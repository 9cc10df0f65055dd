// Package ownbrowser_test holds package render's tests that start a
// browser of their own, with options of their own: responses recorded
// (what a render could not keep is named), a forward proxy and an
// institution's CONNECT proxy and CA, a browser slow to start or broken,
// a hung renderer, Close, and the environment the browser inherits. Most
// of their time is waiting (a page that never settles, a 21 s start, a
// hung renderer's two attempts), so they are a test binary of their own,
// apart from render's (whose tests share one browser or kill its
// processes): each stays well inside go test's 10-minute limit on a busy
// 2-core machine. Both binaries share harvest/render/internal/rendertest
// (the test site and its pages, the usual options, /proc).
package ownbrowser_test

import (
	"context"
	"os"
	"os/exec"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/render"
	"github.com/blogharvest/blogharvest/harvest/render/internal/rendertest"
	"github.com/blogharvest/blogharvest/internal/toolskip"
)

var (
	blog     *rendertest.Site // served as http://blog.test/
	comments *rendertest.Site // served as http://comments.test/, another site
)

// TestMain starts the two test sites, runs the tests and prints one line
// per outside tool whose absence skipped some (internal/toolskip).
func TestMain(m *testing.M) { os.Exit(runTests(m)) }

func runTests(m *testing.M) int {
	blog, comments = rendertest.NewSite(), rendertest.NewSite()
	defer blog.Close()
	defer comments.Close()
	return toolskip.Main(m)
}

// sharedOptions are the options render's shared browser starts with: the
// test sites as blog.test and comments.test, screenshots, two tabs.
func sharedOptions() render.Options { return rendertest.Options(blog, comments) }

// quietLogger logs warnings with -v, nothing otherwise.
var quietLogger = rendertest.QuietLogger

// browser skips t when no browser is installed.
func browser(t testing.TB) {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if _, err := exec.LookPath(name); err == nil {
			return
		}
	}
	toolskip.Missing(t, "chromium", "no chromium, chromium-browser or google-chrome on PATH")
}

// newBrowser starts a browser of its own for a test, closed at cleanup:
// the test sites mapped as blog.test and comments.test, a quiet logger.
func newBrowser(t *testing.T, o render.Options) *render.Browser {
	t.Helper()
	browser(t) // skip without a browser
	o.HostRules = sharedOptions().HostRules
	o.Logger = quietLogger()
	b, err := render.New(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}
