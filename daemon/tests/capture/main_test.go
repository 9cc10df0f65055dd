// Package capture_test checks what a crawl captures, through the real
// binary: every WARC read back by warcio, page requisites reused by an
// update, rendered requests kept in scope and recorded over HTTPS, a crawl
// through an institution's proxy.
//
// Each folder under daemon/tests is a test binary of its own, with go
// test's default 10-minute limit to itself; the helpers are in
// daemon/internal/daemontest.
package capture_test

import (
	"os"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// TestMain builds the binary once for every test (daemontest.Main).
func TestMain(m *testing.M) { os.Exit(daemontest.Main(m)) }
