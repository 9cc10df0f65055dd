package aip_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
)

// TestWriterPublishesOnlyWholeBags damages the staged bag right before it
// is published, as another process sweeping or writing .tmp (or the
// staging keys) would: each time the write fails with a transient error
// saying what is wrong, and nothing is published.
func TestWriterPublishesOnlyWholeBags(t *testing.T) {
	damages := map[string]func(tmp string) error{
		"payload removed":   func(tmp string) error { return os.Remove(filepath.Join(tmp, "data/objects/media/kettle.png")) },
		"payload truncated": func(tmp string) error { return os.Truncate(filepath.Join(tmp, "data/METS.xml"), 10) },
		"bag emptied":       func(tmp string) error { return os.RemoveAll(filepath.Join(tmp, "data")) },
		"file added": func(tmp string) error {
			return os.WriteFile(filepath.Join(tmp, "data/objects/stowaway.bin"), []byte("?"), 0o644)
		},
		"manifest rewritten, same size": func(tmp string) error {
			p := filepath.Join(tmp, "manifest-sha256.txt")
			data, err := os.ReadFile(p)
			data[0] ^= 1
			return errors.Join(err, os.WriteFile(p, data, 0o644))
		},
		// S3 only: the S3 publish compares every object's ETag (free: the
		// listing it makes anyway has them)
		"payload rewritten, same size": func(tmp string) error {
			p := filepath.Join(tmp, "data/objects/media/kettle.png")
			data, err := os.ReadFile(p)
			data[len(data)-1] ^= 1
			return errors.Join(err, os.WriteFile(p, data, 0o644))
		},
		"tag file grown": func(tmp string) error {
			f, err := os.OpenFile(filepath.Join(tmp, "bag-info.txt"), os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			_, err = f.Write([]byte("X"))
			return errors.Join(err, f.Close())
		},
		"tag file truncated": func(tmp string) error { return os.Truncate(filepath.Join(tmp, "tagmanifest-sha512.txt"), 3) },
		"file added beside the tag files": func(tmp string) error {
			return os.WriteFile(filepath.Join(tmp, "stowaway.txt"), []byte("?"), 0o644)
		},
		// local only: an object store has no links (nor named pipes)
		"tag file replaced by a named pipe": func(tmp string) error {
			p := filepath.Join(tmp, "bagit.txt")
			return errors.Join(os.Remove(p), syscall.Mkfifo(p, 0o644))
		},
		// local only: an object store has no links
		"tag file replaced by a symlink": func(tmp string) error {
			p := filepath.Join(tmp, "bagit.txt")
			return errors.Join(os.Rename(p, p+".real"), os.Symlink("bagit.txt.real", p))
		},
	}
	for name, damage := range damages {
		t.Run(name, func(t *testing.T) {
			forEachBackend(t, func(t *testing.T, a *testArchive) {
				if (strings.Contains(name, "symlink") || strings.Contains(name, "named pipe")) && a.backend != "local" {
					t.Skip("an object store has no symbolic links or named pipes")
				}
				if name == "payload rewritten, same size" && a.backend == "local" {
					t.Skip("the folder's publish re-reads tag files, not the payload: check finds this one")
				}
				var hookErr error
				aip.SetTestHook(func(final, event string) {
					if event == "publish" {
						hookErr = a.editStaged(t, final, damage)
					}
				})
				defer aip.SetTestHook(nil)
				e := fixtureEntry()
				_, err := a.W.WriteEntry(context.Background(), e)
				if hookErr != nil {
					t.Fatal(hookErr)
				}
				if err == nil || !blogharvest.IsTransient(err) || !strings.Contains(err.Error(), "no longer whole") {
					t.Fatalf("write of a damaged staged bag: err %v, want a transient \"no longer whole\" error", err)
				}
				if files := a.files(t); len(files) != 0 {
					t.Errorf("%d files published", len(files))
				}
				if left := a.leftovers(t); len(left) != 0 && a.backend == "local" {
					t.Errorf(".tmp holds leftovers: %v", left)
				}
			})
		})
	}
}

// tempBag returns the one bag being built under root/.tmp.
func tempBag(t *testing.T, root string) string {
	m, _ := filepath.Glob(filepath.Join(root, aip.TmpDir, "*"))
	if len(m) != 1 {
		t.Fatalf("temp bags: %v", m)
	}
	return m[0]
}

// TestWriterRechecksLockBeforeRename removes the archive's lock file while
// a bag is being written (another process could then lock a new one and
// sweep .tmp): the bag is not published.
//
// Local only: the folder's lock file (S3 has none; TestS3WritersRace is its counterpart).
func TestWriterRechecksLockBeforeRename(t *testing.T) {
	w := newWriter(t)
	defer w.Close()
	aip.SetTestHook(func(final, event string) {
		if event == "publish" {
			os.Remove(filepath.Join(w.Root, aip.LockFile))
		}
	})
	defer aip.SetTestHook(nil)
	e := fixtureEntry()
	_, err := w.WriteEntry(context.Background(), e)
	if err == nil || !blogharvest.IsTransient(err) || !strings.Contains(err.Error(), "removed or replaced") {
		t.Fatalf("write after the lock file was removed: err %v, want a transient error", err)
	}
	dir, _ := aip.EntryDir(w.Root, e)
	if v, _ := aip.LatestVersion(dir); v != 0 {
		t.Errorf("v%d published without the lock", v)
	}
}
