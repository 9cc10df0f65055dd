// Package process_test runs the daemon as a process: schedules, signals,
// kills mid-write, a damaged state file, the archive lock, the status
// server, the first hour of a new user.
//
// Each folder under daemon/tests is a test binary of its own, with go
// test's default 10-minute limit to itself; the helpers are in
// daemon/internal/daemontest.
package process_test

import (
	"os"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// TestMain builds the binary once for every test (daemontest.Main).
func TestMain(m *testing.M) { os.Exit(daemontest.Main(m)) }
