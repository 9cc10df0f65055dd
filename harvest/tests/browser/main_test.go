// Package browser_test holds the crawler's tests that start Chromium for
// every crawl (scripted comment threads and widgets, comment systems found
// unknown, the browser's own requests): a test binary of their own, so
// that each of it and harvest's stays well inside go test's 10-minute
// limit on a busy 2-core machine. They drive package harvest through its
// API, as harvest's external tests do, with the helpers they share
// (harvest/internal/crawltest).
package browser_test

import (
	"os"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/internal/crawltest"
	"github.com/blogharvest/blogharvest/internal/toolskip"
)

// TestMain runs the tests and prints one line per outside tool whose
// absence skipped some (internal/toolskip).
func TestMain(m *testing.M) { os.Exit(toolskip.Main(m)) }

type (
	output     = crawltest.Output
	requestLog = crawltest.RequestLog
)

var (
	serve          = crawltest.Serve
	options        = crawltest.Options
	crawl          = crawltest.Crawl
	newestActivity = crawltest.NewestActivity
)
