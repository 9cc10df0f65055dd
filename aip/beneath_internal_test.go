//go:build linux

package aip

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestOpenBeneathAsWalk opens paths with links, missing components, files
// where folders are expected and plain folders both ways: in one openat2
// call (openBeneath) and one component at a time (the walk, what a system
// without openat2 does). Each must succeed or fail alike, a link naming the
// same link.
func TestOpenBeneathAsWalk(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"b/entries/2020/k/v1/data", "b/blog/v1", "outside"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "b/entries/2020/k/v1/data/f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{
		"b/entries/2021":             "2020",
		"b/entries/2020/k/v2":        "v1",
		"b/entries/2020/k/v1/data/g": "f",
		"b/escape":                   "../outside",
		"b/abs":                      filepath.Join(root, "outside"),
		"b/dangling":                 "nowhere",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	if !canOpenat2(root) {
		t.Skip("openat2 refused here: openBelow always walks")
	}
	type result struct {
		ok       bool
		notExist bool
		link     string
		name     string
	}
	open := func(rel string, dir bool) result {
		var r result
		var err error
		if dir {
			var f *os.File
			if f, err = openBelow(root, filepath.Join(root, rel), unix.O_RDONLY|unix.O_DIRECTORY, false, true, Modes{}); err == nil {
				r.name = f.Name()
				f.Close()
			}
		} else {
			var f *os.File
			if f, err = OpenFile(root, filepath.Join(root, rel)); err == nil {
				r.name = f.Name()
				f.Close()
			}
		}
		r.ok = err == nil
		r.notExist = errors.Is(err, fs.ErrNotExist)
		var le *SymlinkError
		if errors.As(err, &le) {
			r.link = le.Path
		}
		return r
	}
	cases := []struct {
		rel string
		dir bool
	}{
		{"b", true}, {"b/entries/2020/k/v1", true}, {"b/entries/2020/k/v1/data/f", false},
		{"b/entries/2021/k", true}, {"b/entries/2021", true}, {"b/entries/2020/k/v2", true},
		{"b/entries/2020/k/v2/data/f", false}, {"b/entries/2020/k/v1/data/g", false},
		{"b/escape", true}, {"b/abs", true}, {"b/dangling", true}, {"b/dangling/x", true},
		{"b/entries/2020/k/v9", true}, {"b/entries/1999/k/v1", true}, {"b/entries/2020/k/v1/data/f/x", false},
		{"b/entries/2020/k/v1/data/f", true},
	}
	opened := 0
	for _, c := range cases {
		fast := open(c.rel, c.dir)
		noOpenat2.Store(true)
		walk := open(c.rel, c.dir)
		noOpenat2.Store(false)
		if fast != walk {
			t.Errorf("%s (folder %v): openat2 %+v, walk %+v", c.rel, c.dir, fast, walk)
		}
		if fast.ok {
			opened++
		}
	}
	if opened != 3 {
		t.Errorf("%d paths opened, want 3 (b, v1, f; none through a link)", opened)
	}
}

// canOpenat2 reports whether openBeneath answers here (it is not refused
// by the kernel or a filter).
func canOpenat2(root string) bool {
	f, err := os.Open(root)
	if err != nil {
		return false
	}
	defer f.Close()
	fd, ok, err := openBeneath(int(f.Fd()), ".", 0)
	if ok && err == nil {
		os.NewFile(uintptr(fd), ".").Close()
	}
	return ok
}

// BenchmarkOpenBelow opens an entry's version folder (six components
// below the root) and a missing one, in one openat2 call and by the walk:
//
//	go test -run '^$' -bench OpenBelow ./aip
func BenchmarkOpenBelow(b *testing.B) {
	root := b.TempDir()
	dir := filepath.Join(root, "b/entries/2020/k/v1/data")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	if !canOpenat2(root) {
		b.Skip("openat2 refused here")
	}
	for _, way := range []struct {
		name string
		walk bool
	}{{"openat2", false}, {"walk", true}} {
		for _, p := range []struct{ name, path string }{{"existing", dir}, {"missing", filepath.Join(root, "b/entries/2020/q/v1")}} {
			b.Run(way.name+"/"+p.name, func(b *testing.B) {
				noOpenat2.Store(way.walk)
				defer noOpenat2.Store(false)
				for b.Loop() {
					if f, err := openBelow(root, p.path, unix.O_RDONLY|unix.O_DIRECTORY, false, true, Modes{}); err == nil {
						f.Close()
					}
				}
			})
		}
	}
}
