package schemas_test

import (
	"os"
	"testing"

	"github.com/blogharvest/blogharvest/internal/toolskip"
)

// TestMain runs the tests and prints one line per outside tool whose
// absence skipped some (internal/toolskip).
func TestMain(m *testing.M) { os.Exit(toolskip.Main(m)) }
