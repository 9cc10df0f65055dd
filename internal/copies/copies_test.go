package copies

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// copies are the folders gen.sh writes, relative to the module root.
var copies = []string{"internal/dateparser", "internal/match", "internal/siegfried", "internal/xnet"}

// TestCopiesAreGenerated runs gen.sh into a temporary folder and fails on
// any file of the committed copies that differs from what it wrote, is
// missing, or is extra: the copies are upstream plus the patches, nothing
// edited by hand. It skips when gen.sh cannot download an upstream module
// (offline, no module cache).
func TestCopiesAreGenerated(t *testing.T) {
	for _, tool := range []string{"bash", "patch", "perl", "gofmt"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("gen.sh needs %s: %v", tool, err)
		}
	}
	out := t.TempDir()
	cmd := exec.Command("bash", "gen.sh", out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) && exit.ExitCode() == 3 {
			t.Skipf("upstream module not downloadable: %s", bytes.TrimSpace(stderr.Bytes()))
		}
		t.Fatalf("gen.sh: %v\n%s", err, stderr.Bytes())
	}
	for _, dir := range copies {
		want := files(t, filepath.Join(out, dir))
		got := files(t, filepath.Join("..", "..", dir))
		if len(want) < 3 {
			t.Fatalf("gen.sh wrote %d files in %s", len(want), dir)
		}
		for name, w := range want {
			g, ok := got[name]
			switch {
			case !ok:
				t.Errorf("%s/%s: gen.sh writes it, the checkout lacks it", dir, name)
			case !bytes.Equal(g, w):
				t.Errorf("%s/%s differs from what gen.sh writes: edit the patch in internal/copies, not the copy", dir, name)
			}
		}
		for name := range got {
			if _, ok := want[name]; !ok {
				t.Errorf("%s/%s: in the checkout, not written by gen.sh", dir, name)
			}
		}
	}
}

// files returns the contents of the files under dir, by path relative to
// dir.
func files(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	m := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		m[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}
