package toolskip

import (
	"testing"
)

// TestSummary skips a test for a missing tool and finds it in the
// package's summary line.
func TestSummary(t *testing.T) {
	t.Run("needs a tool", func(t *testing.T) { Missing(t, "frobnicator", "not on PATH") })
	t.Run("needs it too", func(t *testing.T) { Missing(t, "frobnicator", "still not on PATH") })
	got := Summary("blogharvest/x")
	want := "SKIPPED blogharvest/x: 2 test(s) not run: frobnicator is missing (not on PATH)"
	if len(got) != 1 || got[0] != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	if name := packageName(); name != "blogharvest/internal/toolskip" {
		t.Errorf("package name %q", name)
	}
}
