package aip_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
)

// moveAndLink moves folder or file p to a new place outside the archive
// and leaves a symbolic link to it at p; it returns the new place.
func moveAndLink(t *testing.T, p string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), filepath.Base(p))
	if err := os.Rename(p, out); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(out, p); err != nil {
		t.Fatal(err)
	}
	return out
}

// wantLink fails unless err is a *SymlinkError naming path.
func wantLink(t *testing.T, what string, err error, path string) {
	t.Helper()
	var se *aip.SymlinkError
	if !errors.As(err, &se) || se.Path != path {
		t.Errorf("%s: %v; want a *SymlinkError naming %s", what, err, path)
	}
}

// TestWriterRefusesLinkedFolders: a blog, entries, year or entry folder
// replaced by a symbolic link to a folder outside the archive makes the
// next version's write fail with a *SymlinkError naming the link, and
// nothing is written where the link points.
//
// Local only: symbolic links exist in a folder, not in an object store.
func TestWriterRefusesLinkedFolders(t *testing.T) {
	first := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	for _, level := range []string{"blog id", "entries", "year", "entry"} {
		t.Run(level, func(t *testing.T) {
			root := t.TempDir()
			w := &aip.Writer{Root: root, Now: func() time.Time { return first }}
			defer w.Close()
			e1 := reuseEntry(first, 0)
			res, err := w.WriteEntry(context.Background(), e1)
			if err != nil {
				t.Fatal(err)
			}
			entry := filepath.Dir(res.Dir)
			year := filepath.Dir(entry)
			entries := filepath.Dir(year)
			p := map[string]string{"blog id": filepath.Dir(entries), "entries": entries, "year": year, "entry": entry}[level]
			out := moveAndLink(t, p)
			_, err = w.WriteEntry(context.Background(), reuseEntry(first, 1))
			wantLink(t, "write through a linked "+level+" folder", err, p)
			if blogharvest.IsTransient(err) {
				t.Errorf("a link in the archive is not a transient failure: %v", err)
			}
			v2, _ := filepath.Glob(filepath.Join(out, "**", "v2"))
			deep, _ := filepath.Glob(filepath.Join(out, "*", "*", "*", "v2"))
			if _, err := os.Stat(filepath.Join(out, "v2")); err == nil || len(v2)+len(deep) > 0 {
				t.Errorf("a version was written outside the archive, under %s", out)
			}
		})
	}
}

// TestWriterRefusesLinkSwappedBeforePublish: an entry folder replaced by a
// link while the bag is being built (right before the rename) is not
// followed either.
//
// Local only: symbolic links exist in a folder, not in an object store.
func TestWriterRefusesLinkSwappedBeforePublish(t *testing.T) {
	root := t.TempDir()
	first := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	w := &aip.Writer{Root: root, Now: func() time.Time { return first }}
	defer w.Close()
	res, err := w.WriteEntry(context.Background(), reuseEntry(first, 0))
	if err != nil {
		t.Fatal(err)
	}
	entry := filepath.Dir(res.Dir)
	var out string
	aip.SetTestHook(func(final, event string) {
		if event == "publish" && out == "" {
			out = moveAndLink(t, entry)
		}
	})
	defer aip.SetTestHook(nil)
	_, err = w.WriteEntry(context.Background(), reuseEntry(first, 1))
	wantLink(t, "publish through an entry folder linked meanwhile", err, entry)
	if _, err := os.Stat(filepath.Join(out, "v2")); err == nil {
		t.Errorf("v2 was written outside the archive, in %s", out)
	}
}

// TestReuseRefusesLinks: media reuse reads no archived file through a
// symbolic link: a media file replaced by a link to a copy of its bytes
// outside the archive, or a linked entry folder, fails ArchivedMedia with a
// *SymlinkError naming the link.
//
// Local only: symbolic links exist in a folder, not in an object store.
func TestReuseRefusesLinks(t *testing.T) {
	first := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	for _, what := range []string{"media file", "entry folder"} {
		t.Run(what, func(t *testing.T) {
			root := t.TempDir()
			w := &aip.Writer{Root: root, Now: func() time.Time { return first }}
			defer w.Close()
			e1 := reuseEntry(first, 0)
			res, err := w.WriteEntry(context.Background(), e1)
			if err != nil {
				t.Fatal(err)
			}
			got, err := aip.ArchivedMedia(&aip.Local{Root: root}, e1)
			if err != nil || len(got) != 1 {
				t.Fatalf("ArchivedMedia before any link: %d files, %v", len(got), err)
			}
			p := aip.Location(&aip.Local{Root: root}, got[0].Stored.Name)
			if what == "entry folder" {
				p = filepath.Dir(res.Dir)
			}
			moveAndLink(t, p)
			got, err = aip.ArchivedMedia(&aip.Local{Root: root}, e1)
			wantLink(t, "reuse through a linked "+what, err, p)
			if len(got) != 0 {
				t.Errorf("%d files offered for reuse through a link", len(got))
			}
		})
	}
}

// TestWriterWritesNoFileThroughLinkInTempBag: a folder of the bag being
// built in .tmp, swapped for a link to a folder outside the archive between
// two files, gets no file through the link (each file is created relative
// to the folder the writer made and opened, not by its path), and the bag
// is not published (the wholeness re-check sees the link).
//
// Local only: symbolic links exist in a folder, not in an object store.
func TestWriterWritesNoFileThroughLinkInTempBag(t *testing.T) {
	root := t.TempDir()
	first := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	w := &aip.Writer{Root: root, Now: func() time.Time { return first }}
	defer w.Close()
	outside := t.TempDir()
	swapped := false
	aip.SetTestHook(func(final, event string) {
		if event != "data/METS.xml" || swapped {
			return
		}
		bags, _ := filepath.Glob(filepath.Join(root, aip.TmpDir, "*"))
		if len(bags) != 1 {
			t.Fatalf("temp bags: %v; want one", bags)
		}
		data := filepath.Join(bags[0], "data")
		if err := os.Rename(data, data+"-aside"); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, data); err != nil {
			t.Fatal(err)
		}
		swapped = true
	})
	defer aip.SetTestHook(nil)
	res, err := w.WriteEntry(context.Background(), reuseEntry(first, 1))
	if !swapped {
		t.Fatal("the hook never saw data/METS.xml written")
	}
	if err == nil {
		t.Errorf("a bag whose data folder became a link was published: %+v", res)
	}
	var found []string
	filepath.WalkDir(outside, func(p string, d fs.DirEntry, err error) error {
		if p != outside {
			found = append(found, p)
		}
		return nil
	})
	if len(found) > 0 {
		t.Errorf("written through the link, outside the archive: %v", found)
	}
}

// TestWriterRefusesLinkAboveNewEntryFolder: a new entry's folder is made
// below the deepest folder on its way that exists (found in one openat2
// call, nofollow.go); a blog, entries or year folder that is a link to a
// folder outside the archive makes the write fail with a *SymlinkError
// naming the link, and no folder or version is made where it points.
//
// Local only: symbolic links exist in a folder, not in an object store.
func TestWriterRefusesLinkAboveNewEntryFolder(t *testing.T) {
	first := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	for _, level := range []string{"blog id", "entries", "year"} {
		t.Run(level, func(t *testing.T) {
			root := t.TempDir()
			w := &aip.Writer{Root: root, Now: func() time.Time { return first }}
			defer w.Close()
			res, err := w.WriteEntry(context.Background(), reuseEntry(first, 0))
			if err != nil {
				t.Fatal(err)
			}
			year := filepath.Dir(filepath.Dir(res.Dir))
			entries := filepath.Dir(year)
			p := map[string]string{"blog id": filepath.Dir(entries), "entries": entries, "year": year}[level]
			out := moveAndLink(t, p)
			other := reuseEntry(first, 0)
			other.URL, other.Title = "https://blog.example.org/2024/05/other/", "Other" // a new key, the same year
			other.Files[0].URL = other.URL
			_, err = w.WriteEntry(context.Background(), other)
			wantLink(t, "a new entry's folder under a linked "+level+" folder", err, p)
			var made []string
			filepath.WalkDir(out, func(q string, d fs.DirEntry, err error) error {
				if err == nil && d.IsDir() && filepath.Base(q) != "v1" && strings.Contains(q, "other") {
					made = append(made, q)
				}
				return nil
			})
			if len(made) > 0 {
				t.Errorf("folders made outside the archive, through the link: %v", made)
			}
		})
	}
}

// TestWriterWritesNoFileThroughLinkedLeafFolder: a leaf folder of the bag
// being built (data/logs, which the writer made and did not open: its
// files are created relative to data, resolving no link, stagedir.go)
// swapped for a link to a folder outside the archive between its two
// files gets no file through the link: the write fails with a
// *SymlinkError naming the folder and nothing is published.
//
// Local only: symbolic links exist in a folder, not in an object store.
func TestWriterWritesNoFileThroughLinkedLeafFolder(t *testing.T) {
	root := t.TempDir()
	first := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	w := &aip.Writer{Root: root, Now: func() time.Time { return first }}
	defer w.Close()
	outside := t.TempDir()
	logs := ""
	aip.SetTestHook(func(final, event string) {
		if event != "data/logs/capture.log" || logs != "" {
			return
		}
		bags, _ := filepath.Glob(filepath.Join(root, aip.TmpDir, "*"))
		if len(bags) != 1 {
			t.Fatalf("temp bags: %v; want one", bags)
		}
		logs = filepath.Join(bags[0], "data", "logs")
		if err := os.Rename(logs, logs+"-aside"); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, logs); err != nil {
			t.Fatal(err)
		}
	})
	defer aip.SetTestHook(nil)
	res, err := w.WriteEntry(context.Background(), reuseEntry(first, 1))
	if logs == "" {
		t.Fatal("the hook never saw data/logs/capture.log written")
	}
	if err == nil {
		t.Errorf("a bag whose data/logs folder became a link was published: %+v", res)
	}
	wantLink(t, "a file created in a leaf folder swapped for a link", err, logs)
	var found []string
	filepath.WalkDir(outside, func(p string, d fs.DirEntry, err error) error {
		if p != outside {
			found = append(found, p)
		}
		return nil
	})
	if len(found) > 0 {
		t.Errorf("written through the link, outside the archive: %v", found)
	}
	if v, _ := filepath.Glob(filepath.Join(root, "*", "entries", "*", "*", "v1")); len(v) > 0 {
		t.Errorf("published: %v", v)
	}
}
