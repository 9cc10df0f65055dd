package render_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/render/internal/rendertest"
)

// TestSuiteFailsWithTheReason runs this package's tests again with a
// broken browser first on PATH: the tests that need the browser must fail
// and say why, not the binary exit 1 before any test. (A browser that is
// slow to start, or fails at start, is harvest/render/tests/ownbrowser's.)
func TestSuiteFailsWithTheReason(t *testing.T) {
	if os.Getenv("BLOGHARVEST_RENDER_CHILD") != "" {
		t.Skip("in the child run")
	}
	broken := rendertest.BrowserScript(t, rendertest.BrokenBrowser)
	cmd := exec.Command(os.Args[0], "-test.run", "^TestDelayedComments$", "-test.count=1")
	cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(broken)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"BLOGHARVEST_RENDER_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the suite passed with a broken browser:\n%s", out)
	}
	if !strings.Contains(string(out), "--- FAIL: TestDelayedComments") || !strings.Contains(string(out), "cannot open the profile") {
		t.Errorf("the suite failed without naming the failing test and the reason:\n%s", out)
	}
}
