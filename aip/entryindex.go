package aip

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"sync"

	"github.com/blogharvest/blogharvest"
)

// entryIndex lists, for one blog of a folder archive, the year folders
// under <blog-id>/entries that hold a folder of each entry key. It saves
// entryDirOf the scan of every year folder for each new entry (the 3mdeb
// crawl's profile: 5 % of its CPU, doc/storage.md): built once with one
// ReadDir per year folder, then a map lookup per entry.
//
// The index may list more folders than the archive holds (a folder
// removed, or one added for a write that then failed): entryDirOf still
// reads every folder it names, so an extra name costs one read. It must
// never list fewer, so it is used only while the Writer holds the archive
// lock it was built under (one writer per archive: no other process adds
// folders), and the Writer adds each entry folder it resolves before it
// writes there. A Writer with a Store (S3, where writers are kept apart
// per blog by the blog's lease, not per archive) never uses one.
//
// A Writer keeps the indexes of the maxEntryIndexes blogs it wrote entries
// of last (a daemon's Writer lives for the process and writes every blog):
// an index dropped is built again at the blog's next entry.
type entryIndex struct {
	lock *ArchiveLock // the lock held when the index was built
	used uint64       // the Writer's entry-index use count at its last use, for eviction

	mu   sync.Mutex
	keys map[string][]string // entry key → the year folders holding a folder of that key, sorted
}

// buildEntryIndex reads <blogID>/entries in s: every year folder and the
// entry folders in each.
func buildEntryIndex(s fs.ReadDirFS, blogID string, lock *ArchiveLock) (*entryIndex, error) {
	x := &entryIndex{lock: lock, keys: map[string][]string{}}
	entries := path.Join(blogID, "entries")
	years, err := s.ReadDir(entries)
	if errors.Is(err, fs.ErrNotExist) {
		return x, nil
	}
	if err != nil {
		return nil, fmt.Errorf("aip: entry folder: %w", err)
	}
	for _, y := range years { // in name order (fs.ReadDir sorts), as entryDirOf scans them
		if !y.IsDir() {
			continue
		}
		keys, err := s.ReadDir(path.Join(entries, y.Name()))
		if err != nil {
			return nil, fmt.Errorf("aip: entry folder: %w", err)
		}
		for _, k := range keys {
			if k.IsDir() {
				x.keys[k.Name()] = append(x.keys[k.Name()], y.Name())
			}
		}
	}
	return x, nil
}

// years returns the year folders holding a folder named key.
func (x *entryIndex) years(key string) []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	return append([]string(nil), x.keys[key]...)
}

// add records that the store name dir, <blog-id>/entries/<year>/<key>,
// is (or is about to be) a folder.
func (x *entryIndex) add(dir string) {
	key, year := path.Base(dir), path.Base(path.Dir(dir))
	x.mu.Lock()
	defer x.mu.Unlock()
	ys := x.keys[key]
	i := sort.SearchStrings(ys, year)
	if i < len(ys) && ys[i] == year {
		return
	}
	x.keys[key] = append(ys[:i:i], append([]string{year}, ys[i:]...)...)
}

// entryIndexFor returns the Writer's index of blogID's entry folders, built
// at its first use under the lock the Writer holds now, or nil when the
// Writer holds none yet (before its first write, when it locks the archive
// itself) or writes into a Store.
func (w *Writer) entryIndexFor(s fs.ReadDirFS, blogID string) *entryIndex {
	if w.Store != nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	lock := w.Lock
	if lock == nil {
		lock = w.own
	}
	if lock == nil {
		return nil
	}
	w.entryUses++
	if x := w.entries[blogID]; x != nil && x.lock == lock {
		x.used = w.entryUses
		return x
	}
	x, err := buildEntryIndex(s, blogID, lock)
	if err != nil {
		return nil // entryDirOf reads the folders itself, and reports the error
	}
	x.used = w.entryUses
	if w.entries == nil {
		w.entries = map[string]*entryIndex{}
	}
	delete(w.entries, blogID)
	for len(w.entries) >= maxEntryIndexes { // drop the least recently used
		oldest := ""
		for id, y := range w.entries {
			if oldest == "" || y.used < w.entries[oldest].used {
				oldest = id
			}
		}
		delete(w.entries, oldest)
	}
	w.entries[blogID] = x
	return x
}

// maxEntryIndexes is how many blogs' entry indexes a Writer keeps: more
// than the blogs a daemon crawls at once (Config's concurrency), so that a
// crawl keeps its blog's index from its first entry to its last (with
// more at once, an index dropped mid-crawl is built again: still true,
// only slower).
const maxEntryIndexes = 32

// entryDirIndexed is entryDirOf for a blog whose entry folders x lists: it
// reads only the folders of e's keys that x names, in the order entryDirOf
// reads them, and adds the folder it returns to x.
func entryDirIndexed(s fs.ReadDirFS, e *blogharvest.Entry, x *entryIndex) (string, string, error) {
	dir, err := EntryDir("", e)
	if err != nil {
		return "", "", err
	}
	dir = filepath.ToSlash(dir)
	own := path.Base(path.Dir(dir))
	entries := path.Join(e.BlogID, "entries")
	for i, u := range append([]string{e.URL}, e.Aliases...) {
		if i > 0 && u == e.URL {
			continue
		}
		key := blogharvest.EntryKey(u, e.Title)
		ys := x.years(key)
		if i == 0 { // e.URL's folder under its own year first, as entryDirOf
			if j := sort.SearchStrings(ys, own); j < len(ys) && ys[j] == own {
				if n, err := LatestVersionOf(s, dir); err != nil || n > 0 {
					return dir, "", err
				}
			}
		}
		for _, y := range ys {
			if i == 0 && y == own {
				continue
			}
			other := path.Join(entries, y, key)
			if n, err := LatestVersionOf(s, other); err != nil || n > 0 {
				if i == 0 {
					u = ""
				}
				if err == nil {
					x.add(other)
				}
				return other, u, err
			}
		}
	}
	x.add(dir)
	return dir, "", nil
}
