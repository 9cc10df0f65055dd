// Package replay_test replays the archive's WACZ export in ReplayWeb.page
// and compares it with the live pages, and compares the WACZ with js-wacz's.
//
// Each folder under daemon/tests is a test binary of its own, with go
// test's default 10-minute limit to itself; the helpers are in
// daemon/internal/daemontest.
package replay_test

import (
	"os"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// TestMain builds the binary once for every test (daemontest.Main).
func TestMain(m *testing.M) { os.Exit(daemontest.Main(m)) }
