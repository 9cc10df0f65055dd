package schedule_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/schedule"
)

// rssFile returns the process's resident file-backed pages in bytes
// (RssFile of /proc/self/status).
func rssFile(t *testing.T) int64 {
	t.Helper()
	f, err := os.Open("/proc/self/status")
	if err != nil {
		t.Skip("no /proc/self/status:", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "RssFile:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Skip("no RssFile in /proc/self/status")
	return 0
}

// TestReleaseMappedDropsResidentPages: reading every blog's state maps the
// whole state file into the resident set (bbolt reads through its mapping;
// a 100 000-blog scheduler held 202–229 MB so, doc/scale.md), and
// ReleaseMapped takes those pages out of it; the states read the same after.
func TestReleaseMappedDropsResidentPages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	s, err := schedule.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const n = 20000
	states := map[string]schedule.State{}
	for i := range n {
		states[fmt.Sprintf("blog-%05d", i)] = schedule.State{Spec: "@every 24h", Outcome: schedule.OutcomeOK,
			LastError: strings.Repeat("x", 1000), Runs: i}
	}
	if err := s.PutAll(states); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	all, err := s.All() // touches every page
	if err != nil || len(all) != n {
		t.Fatalf("All: %d states, %v", len(all), err)
	}
	mapped := rssFile(t)
	if err := s.ReleaseMapped(); err != nil {
		t.Fatal(err)
	}
	released := rssFile(t)
	t.Logf("state file %d bytes; resident file pages %d after reading every state, %d after ReleaseMapped", fi.Size(), mapped, released)
	if mapped-released < fi.Size()/2 {
		t.Errorf("ReleaseMapped took %d bytes out of the resident set, want at least half the %d-byte file", mapped-released, fi.Size())
	}
	all, err = s.All()
	if err != nil || len(all) != n || all["blog-00007"].Runs != 7 || all["blog-19999"].LastError != strings.Repeat("x", 1000) {
		t.Fatalf("after ReleaseMapped: %d states, %v; blog-00007 %+v", len(all), err, all["blog-00007"].Runs)
	}
	if err := s.Put("blog-00007", schedule.State{Runs: 8}); err != nil {
		t.Fatal(err)
	}
	if err := s.ReleaseMapped(); err != nil {
		t.Fatal(err)
	}
	if st, ok, err := s.Get("blog-00007"); err != nil || !ok || st.Runs != 8 {
		t.Errorf("a write after ReleaseMapped: %+v, %v, %v", st, ok, err)
	}
}
