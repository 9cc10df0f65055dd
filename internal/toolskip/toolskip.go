// Package toolskip lets tests that need an outside tool (Chromium,
// xmllint, yaz and MARC::Lint, npm packages) skip when it is missing and
// say so once per package: Missing skips a test and remembers why, and
// Main, called from the package's TestMain, prints one summary line per
// missing tool when the tests have run ("blogharvest/daemon: 12 tests
// skipped: chromium is missing (…)").
//
// go test shows a passing package's output only with -v, so the line is
// also written to the terminal the tests run on (/dev/tty), when there is
// one: a newcomer running go test ./... sees what was not tested.
package toolskip

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"
)

var (
	mu      sync.Mutex
	skipped = map[string]*tool{}
)

// tool is one missing tool: the tests skipped for it and the first reason.
type tool struct {
	tests  int
	reason string
}

// Missing records that tb needs name, which is missing for reason, and
// skips tb.
func Missing(tb testing.TB, name string, reason any) {
	tb.Helper()
	mu.Lock()
	t := skipped[name]
	if t == nil {
		t = &tool{reason: fmt.Sprint(reason)}
		skipped[name] = t
	}
	t.tests++
	mu.Unlock()
	tb.Skipf("%s is missing: %v", name, reason)
}

// Main runs the package's tests and then prints the summary lines, to
// stdout and to the terminal if there is one. It returns m.Run's code, for
// os.Exit.
func Main(m *testing.M) int {
	code := m.Run()
	lines := Summary(packageName())
	if len(lines) == 0 {
		return code
	}
	out := []io.Writer{os.Stdout}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		out = append(out, tty)
	}
	for _, w := range out {
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
	}
	return code
}

// Summary returns one line per missing tool, for the package pkg.
func Summary(pkg string) []string {
	mu.Lock()
	defer mu.Unlock()
	names := make([]string, 0, len(skipped))
	for n := range skipped {
		names = append(names, n)
	}
	sort.Strings(names)
	lines := make([]string, len(names))
	for i, n := range names {
		t := skipped[n]
		lines[i] = fmt.Sprintf("SKIPPED %s: %d test(s) not run: %s is missing (%s)", pkg, t.tests, n, t.reason)
	}
	return lines
}

// packageName names the package under test by its folder (go test runs
// the test binary there), as blogharvest/<path>.
func packageName() string {
	wd, err := os.Getwd()
	if err != nil {
		return "this package"
	}
	dir, rest := wd, ""
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.ToSlash(filepath.Join("blogharvest", rest))
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return filepath.Base(wd)
		}
		rest = filepath.Join(filepath.Base(dir), rest)
		dir = parent
	}
}
