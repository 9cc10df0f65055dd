// Package browser_test runs the binary with headless Chromium: the status
// page and report read in a browser at several widths, and a browser that
// does not start.
//
// Each folder under daemon/tests is a test binary of its own, with go
// test's default 10-minute limit to itself; the helpers are in
// daemon/internal/daemontest.
package browser_test

import (
	"os"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// TestMain builds the binary once for every test (daemontest.Main).
func TestMain(m *testing.M) { os.Exit(daemontest.Main(m)) }
