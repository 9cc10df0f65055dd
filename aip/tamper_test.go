package aip_test

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/aip"
)

// tamperedArchive copies the golden Entry AIP into a new archive as v1 and
// returns the archive, the bag and a folder outside the archive.
func tamperedArchive(t *testing.T) (root, bag, outside string) {
	t.Helper()
	dir := t.TempDir()
	root, outside = filepath.Join(dir, "archive"), filepath.Join(dir, "outside")
	bag = filepath.Join(root, "garden/entries/2024/notes-on-the-green-kettle-b7a8ef75/v1")
	copyTree(t, goldenEntryBag(t), bag)
	must(t, os.MkdirAll(outside, 0o755))
	if errs := aip.Check(root); len(errs) > 0 {
		t.Fatalf("the untampered copy has problems: %v", errs)
	}
	return root, bag, outside
}

// goldenFinal is where tamperedBag publishes the golden Entry AIP.
const goldenFinal = "garden/entries/2024/notes-on-the-green-kettle-b7a8ef75/v1"

// tamperedBag publishes the golden Entry AIP into a as v1 and returns its
// location (as Result.Dir has it).
func tamperedBag(t *testing.T, a *testArchive) string {
	t.Helper()
	bag := a.importBag(t, goldenEntryBag(t), goldenFinal)
	if errs := a.check(); len(errs) > 0 {
		t.Fatalf("the untampered copy has problems: %v", errs)
	}
	return bag
}

// archiveFinds requires a problem of type T that matches from the check of
// a, and on a folder from Check of bag alone too.
func archiveFinds[T error](t *testing.T, a *testArchive, bag string, match func(T) bool) {
	t.Helper()
	if a.backend == "local" {
		checkFinds(t, match, a.root, bag)
		return
	}
	errs := a.check()
	for _, e := range errs {
		var te T
		if errors.As(e, &te) && match(te) {
			return
		}
	}
	var zero T
	t.Errorf("check of %s: no matching %T among %d problems:\n%v", a.St, zero, len(errs), errors.Join(errs...))
}

// checkFinds runs Check on each path (with a guard: following a link to a
// FIFO would block) and requires a problem of type T that matches.
func checkFinds[T error](t *testing.T, match func(T) bool, paths ...string) {
	t.Helper()
	for _, p := range paths {
		done := make(chan []error, 1)
		go func() { done <- aip.Check(p) }()
		var errs []error
		select {
		case errs = <-done:
		case <-time.After(3 * time.Minute):
			t.Fatalf("Check(%s) blocked for 3 minutes: it followed a link to a FIFO", p)
		}
		found := false
		for _, e := range errs {
			var te T
			if errors.As(e, &te) && match(te) {
				found = true
			}
		}
		if !found {
			var zero T
			t.Errorf("Check(%s): no matching %T among %d problems:\n%v", p, zero, len(errs), errors.Join(errs...))
		}
	}
}

// TestCheckMissingMETS deletes data/METS.xml and covers the tracks: the
// manifests, Payload-Oxum and tag manifests rewritten. The bag is a valid
// BagIt bag, but not an AIP.
func TestCheckMissingMETS(t *testing.T) {
	forEachBackend(t, func(t *testing.T, a *testArchive) {
		bag := tamperedBag(t, a)
		a.edit(t, bag, func(folder string) {
			must(t, os.Remove(filepath.Join(folder, "data/METS.xml")))
			rebag(t, folder)
			if errs := aip.CheckBag(folder); len(errs) > 0 {
				t.Fatalf("the tampering left BagIt problems, the test proves nothing: %v", errs)
			}
		})
		want := a.loc(goldenFinal + "/data/METS.xml")
		archiveFinds(t, a, bag, func(e *aip.MissingError) bool { return e.Path == want })
	})
}

// TestCheckMissingTagManifests deletes the tag manifests, and then one line
// of a tag manifest.
func TestCheckMissingTagManifests(t *testing.T) {
	forEachBackend(t, func(t *testing.T, a *testArchive) {
		bag := tamperedBag(t, a)
		a.edit(t, bag, func(folder string) {
			for _, n := range []string{"tagmanifest-sha256.txt", "tagmanifest-sha512.txt"} {
				must(t, os.Remove(filepath.Join(folder, n)))
			}
		})
		archiveFinds(t, a, bag, func(e *aip.MissingError) bool { return path.Base(filepath.ToSlash(e.Path)) == "tagmanifest-sha256.txt" })
	})
	forEachBackend(t, func(t *testing.T, a *testArchive) {
		bag := tamperedBag(t, a)
		a.edit(t, bag, func(folder string) {
			for _, n := range []string{"tagmanifest-sha256.txt", "tagmanifest-sha512.txt"} {
				p := filepath.Join(folder, n)
				data, err := os.ReadFile(p)
				must(t, err)
				var keep []string
				for _, l := range strings.SplitAfter(string(data), "\n") {
					if !strings.HasSuffix(l, " bag-info.txt\n") {
						keep = append(keep, l)
					}
				}
				must(t, os.WriteFile(p, []byte(strings.Join(keep, "")), 0o644))
			}
		})
		archiveFinds(t, a, bag, func(e *aip.FormatError) bool { return strings.Contains(e.Reason, "bag-info.txt") })
	})
}

// TestCheckVersionSymlink is local only, like TestCheckSymlinksInBag: an
// object store has no symbolic links.
//
// It adds a v2 that is a symbolic link to a valid bag
// outside the archive: checking the archive or the v2 reports the link.
func TestCheckVersionSymlink(t *testing.T) {
	root, bag, outside := tamperedArchive(t)
	elsewhere := filepath.Join(outside, "bag")
	copyTree(t, bag, elsewhere)
	v2 := filepath.Join(filepath.Dir(bag), "v2")
	must(t, os.Symlink(elsewhere, v2))
	checkFinds(t, func(e *aip.SymlinkError) bool { return e.Path == v2 && e.Target == elsewhere }, root, v2)
}

// TestCheckSymlinksInBag replaces files and a folder of a bag by symbolic
// links to identical copies outside (a manifest, a payload file, the
// objects folder), and a payload file by a link to a FIFO: each is reported
// and none is followed.
func TestCheckSymlinksInBag(t *testing.T) {
	for _, name := range []string{"manifest-sha256.txt", "bagit.txt", "data/objects/media/kettle.png", "data/objects", "fifo"} {
		t.Run(strings.ReplaceAll(name, "/", "_"), func(t *testing.T) {
			root, bag, outside := tamperedArchive(t)
			target := filepath.Join(outside, "copy")
			p := filepath.Join(bag, name)
			if name == "fifo" {
				p = filepath.Join(bag, "data/objects/media/kettle.png")
				if err := syscall.Mkfifo(target, 0o644); err != nil {
					t.Skip("no FIFO:", err)
				}
				must(t, os.Remove(p))
			} else {
				must(t, os.Rename(p, target))
			}
			must(t, os.Symlink(target, p))
			checkFinds(t, func(e *aip.SymlinkError) bool { return e.Path == p && e.Target == target }, root, bag)
		})
	}
}
