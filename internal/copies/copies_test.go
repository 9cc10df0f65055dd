package copies

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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

// TestCopiesFollowGoMod fails when gen.sh copies a module at a version
// other than the one go.mod requires (golang.org/x/net, whose html package
// the module also uses as published): a security release taken into
// go.mod must reach the copy too, by gen.sh at the new version.
func TestCopiesFollowGoMod(t *testing.T) {
	gen, err := os.ReadFile("gen.sh")
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join("..", "..", "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	required := map[string]string{}
	for _, m := range regexp.MustCompile(`(?m)^\s*(?:require\s+)?([a-z0-9.\-]+\.[a-z]+/\S+)\s+(v\S+)`).FindAllSubmatch(mod, -1) {
		required[string(m[1])] = string(m[2])
	}
	checked := 0
	for _, m := range regexp.MustCompile(`(?m)^[a-z]+_mod=(\S+)@(v\S+)$`).FindAllSubmatch(gen, -1) {
		path, version := string(m[1]), string(m[2])
		if want, ok := required[path]; ok {
			checked++
			if version != want {
				t.Errorf("gen.sh copies %s@%s, go.mod requires %s: run gen.sh at %s", path, version, want, want)
			}
		}
	}
	if checked == 0 {
		t.Error("no module gen.sh copies is in go.mod: the check checks nothing (golang.org/x/net expected)")
	}
}
