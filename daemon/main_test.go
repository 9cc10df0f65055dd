package daemon_test

import (
	"os"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// TestMain builds the binary once for every test (daemontest.Main).
func TestMain(m *testing.M) { os.Exit(daemontest.Main(m)) }
