// Package lifecycle_test runs the binary over a blog that changes under
// it, built by real static-site engines installed from Debian (Pelican
// and Hugo) and served on loopback: a redesign (Pelican's stock theme
// simple, then another) and a move to another engine at the same address (Pelican to
// Hugo, with and without 301s from the old URLs), a post deleted (404,
// then 410) and put back, each a sequence of `crawl -out` runs into one
// archive, and a blog down (connection refused, then 503, then back)
// under the daemon's `run` (doc/lifecycle.md).
//
// Each folder under daemon/tests is a test binary of its own, with go
// test's default 10-minute limit to itself; the helpers are in
// daemon/internal/daemontest.
package lifecycle_test

import (
	"os"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// TestMain builds the binary once for every test (daemontest.Main).
func TestMain(m *testing.M) { os.Exit(daemontest.Main(m)) }
