package daemon

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// demoArchive is the one archive `demo` makes in this test binary, which
// DemoArchive copies for each test that reads it.
var demoArchive struct {
	sync.Once
	dir string // its parent folder, removed by RemoveDemoArchive
	err error
}

// DemoArchive returns a new folder holding a copy of the archive `demo
// -out` writes. The tests that read the demo's archive (and may change
// their copy) need the same run of the demo: it runs once per test binary,
// not once per test.
func DemoArchive(t testing.TB) string {
	t.Helper()
	demoArchive.Do(func() {
		demoArchive.dir, demoArchive.err = os.MkdirTemp("", "blogharvest-demo-archive-")
		if demoArchive.err != nil {
			return
		}
		var out bytes.Buffer
		if err := runDemo(context.Background(), []string{"-out", filepath.Join(demoArchive.dir, "archive")}, IO{Stdout: &out, Stderr: &out}); err != nil {
			demoArchive.err = fmt.Errorf("demo: %v\n%s", err, out.Bytes())
		}
	})
	if demoArchive.err != nil {
		t.Fatal(demoArchive.err)
	}
	archive := filepath.Join(t.TempDir(), "archive")
	if err := os.CopyFS(archive, os.DirFS(filepath.Join(demoArchive.dir, "archive"))); err != nil {
		t.Fatal(err)
	}
	return archive
}

// RemoveDemoArchive removes the archive DemoArchive copies, if it made
// one; TestMain calls it.
func RemoveDemoArchive() {
	if demoArchive.dir != "" {
		os.RemoveAll(demoArchive.dir)
	}
}
