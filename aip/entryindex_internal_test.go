package aip

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestEntryIndexEviction: a Writer keeps the entry indexes of the
// maxEntryIndexes blogs it used last, drops the least recently used when a
// new blog comes, and builds a blog's index again under a new lock (an
// index built under another lock may miss folders another writer made).
func TestEntryIndexEviction(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "blog0", "entries", "2024", "post-1"), 0o755); err != nil {
		t.Fatal(err)
	}
	lock := &ArchiveLock{}
	w := &Writer{Root: root, Lock: lock}
	s := w.readStore()
	first := w.entryIndexFor(s, "blog0")
	if first == nil || len(first.years("post-1")) != 1 {
		t.Fatalf("blog0's index: %+v; want post-1 under 2024", first)
	}
	for i := 1; i < maxEntryIndexes; i++ {
		if w.entryIndexFor(s, fmt.Sprintf("blog%d", i)) == nil {
			t.Fatalf("blog%d: no index", i)
		}
	}
	if w.entryIndexFor(s, "blog0") != first { // blog0 used again: blog1 is now the oldest
		t.Fatal("blog0's index built again while kept")
	}
	w.entryIndexFor(s, "new")
	if len(w.entries) != maxEntryIndexes {
		t.Errorf("%d indexes kept; want %d", len(w.entries), maxEntryIndexes)
	}
	if w.entries["blog1"] != nil || w.entries["blog0"] != first || w.entries["new"] == nil {
		t.Errorf("after a new blog: blog1 kept %v, blog0 kept %v, new kept %v; want the least recently used (blog1) dropped",
			w.entries["blog1"] != nil, w.entries["blog0"] == first, w.entries["new"] != nil)
	}
	w.Lock = &ArchiveLock{}
	if x := w.entryIndexFor(s, "blog0"); x == first || x == nil || x.lock != w.Lock {
		t.Error("blog0's index kept under a new lock; want it built again")
	}
	if (&Writer{Root: root}).entryIndexFor(s, "blog0") != nil {
		t.Error("an index without a lock held")
	}
}
