package daemon

import (
	"io/fs"
	"path"
	"strconv"
	"strings"
	"sync"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/schedule"
)

// countEntryAIPs counts the entry AIPs (versions) the archive s holds for
// blog id: <id>/entries/<yyyy>/<entry-key>/v<N>, walked through the store
// (fs.WalkDir: no link followed, only published bags on S3). Unreadable
// folders, or no store (nil), count as empty.
func countEntryAIPs(s aip.Store, id string) int {
	n := 0
	if s == nil {
		return 0
	}
	root := path.Join(id, "entries")
	fs.WalkDir(s, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		switch strings.Count(strings.TrimPrefix(p, root), "/") {
		case 3: // <yyyy>/<entry-key>/v<N>
			if strings.HasPrefix(d.Name(), "v") {
				n++
			}
			return fs.SkipDir
		}
		return nil
	})
	return n
}

// unfinishedCount returns st's entry count, or, when st's last run never
// ended (the process was killed: its run's entries were never added), the
// entry AIPs the archive s holds for blog id.
func unfinishedCount(s aip.Store, id string, st schedule.State) int {
	if st.Outcome != schedule.OutcomeRunning {
		return st.Entries
	}
	return max(st.Entries, countEntryAIPs(s, id))
}

// recountUnfinished sets, for each blog whose last run never ended (the
// daemon was killed mid-run), the stored entry count to what the archive
// holds. Called at Open, before any run of this process starts.
func (d *planner) recountUnfinished(v *archiveView) error {
	for _, b := range d.env.Config.Blogs {
		st, _, err := d.store.Get(b.ID)
		if err != nil {
			return err
		}
		if st.Outcome != schedule.OutcomeRunning {
			continue
		}
		err = d.store.Update(b.ID, func(st *schedule.State) error {
			st.Entries = unfinishedCount(v.store(), b.ID, *st)
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// storage is what one blog's folder of the archive holds, every version
// of every AIP, as the blog's status page shows it.
type storage struct {
	aip.Tally
	Bags int    // bags, every version of every AIP (Tally.Bags)
	Err  string // why it could not be counted; "" when counted
}

// storageCache counts each blog's storage once per run that ended
// (aip.TallyArchive reads every bag's manifest: not once per page view).
type storageCache struct {
	mu   sync.Mutex
	byID map[string]storageEntry
}

type storageEntry struct {
	key string // the blog's last run end and runs when counted
	s   storage
}

// storageOf returns the storage of blog id in the archive s, counted
// again when st's last run differs from the one it was counted after.
func (d *archiveView) storageOf(id string, st schedule.State) storage {
	key := st.LastEnd.String() + "/" + strconv.Itoa(st.Runs)
	c := &d.storage
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byID[id]; ok && e.key == key {
		return e.s
	}
	var s storage
	if store := d.store(); store != nil {
		t, err := aip.TallyArchive(store, id)
		s.Tally, s.Bags = t, t.Bags()
		if err != nil {
			s.Err = publicText(err.Error(), d.env.Config)
		}
	}
	if c.byID == nil {
		c.byID = map[string]storageEntry{}
	}
	c.byID[id] = storageEntry{key, s}
	return s
}
