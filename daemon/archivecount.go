package daemon

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/blogharvest/blogharvest/schedule"
)

// countEntryAIPs counts the entry AIPs (versions) the archive holds for
// blog id: <archive>/<id>/entries/<yyyy>/<entry-key>/v<N>. Unreadable
// folders count as empty.
func countEntryAIPs(archive, id string) int {
	n := 0
	root := filepath.Join(archive, id, "entries")
	years, _ := os.ReadDir(root)
	for _, y := range years {
		entries, _ := os.ReadDir(filepath.Join(root, y.Name()))
		for _, e := range entries {
			versions, _ := os.ReadDir(filepath.Join(root, y.Name(), e.Name()))
			for _, v := range versions {
				if v.IsDir() && strings.HasPrefix(v.Name(), "v") {
					n++
				}
			}
		}
	}
	return n
}

// unfinishedCount returns st's entry count, or, when st's last run never
// ended (the process was killed: its run's entries were never added), the
// entry AIPs the archive holds for blog id.
func unfinishedCount(archive, id string, st schedule.State) int {
	if st.Outcome != schedule.OutcomeRunning {
		return st.Entries
	}
	return max(st.Entries, countEntryAIPs(archive, id))
}

// recountUnfinished sets, for each blog whose last run never ended (the
// daemon was killed mid-run), the stored entry count to what the archive
// holds. Called at Open, before any run of this process starts.
func (d *core) recountUnfinished() error {
	for _, b := range d.Config.Blogs {
		st, _, err := d.store.Get(b.ID)
		if err != nil {
			return err
		}
		if st.Outcome != schedule.OutcomeRunning {
			continue
		}
		err = d.store.Update(b.ID, func(st *schedule.State) error {
			st.Entries = unfinishedCount(d.Config.Archive, b.ID, *st)
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}
