// Package cluster_test runs cluster mode through the real binary: a NATS
// server with JetStream, schedulers and workers as processes, faults
// injected by killing them, forged members, an S3 archive.
//
// Each folder under daemon/tests is a test binary of its own, with go
// test's default 10-minute limit to itself; the helpers are in
// daemon/internal/daemontest.
package cluster_test

import (
	"os"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// TestMain builds the binary once for every test (daemontest.Main).
func TestMain(m *testing.M) { os.Exit(daemontest.Main(m)) }
