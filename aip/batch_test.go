package aip_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
)

// TestBatch stages entries in a Batch on both stores: nothing is visible
// or announced before the flush, the flush after max bags publishes and
// announces all of them and reports each (in staging order, Written set),
// a second version of a folder the batch holds flushes the first before
// it is staged (its version number comes from what is published), an
// unchanged entry stages nothing, and the archive checks clean with
// nothing left staged.
func TestBatch(t *testing.T) {
	forEachBackend(t, testBatch)
}

func testBatch(t *testing.T, a *testArchive) {
	var mu sync.Mutex
	var reports []aip.Published
	b := a.W.NewBatch(3, time.Hour, func(p aip.Published) {
		mu.Lock()
		defer mu.Unlock()
		reports = append(reports, p)
	})
	reported := func() []aip.Published {
		mu.Lock()
		defer mu.Unlock()
		return append([]aip.Published(nil), reports...)
	}
	announced := func() int {
		recs, err := aip.Publications(a.ctx, a.St, aip.PublicationFilter{})
		if err != nil {
			t.Fatal(err)
		}
		return len(recs)
	}
	entry := func(i int) *blogharvest.Entry {
		e := fixtureEntry()
		e.URL = fmt.Sprintf("%spart-%d/", e.URL, i)
		return e
	}
	var dirs []string
	for i := range 2 {
		res, err := b.WriteEntry(a.ctx, entry(i))
		if err != nil {
			t.Fatal(err)
		}
		if !res.Pending || res.Written || res.Version != 1 {
			t.Fatalf("staged: %+v, want Pending, version 1", res)
		}
		if a.published(t, res.Dir) {
			t.Errorf("%s visible before its flush", res.Dir)
		}
		dirs = append(dirs, res.Dir)
	}
	if n := announced(); n != 0 || len(reported()) != 0 || b.Len() != 2 {
		t.Fatalf("before the flush: %d announced, %d reported, %d staged; want 0, 0, 2", n, len(reported()), b.Len())
	}
	res, err := b.WriteEntry(a.ctx, entry(2)) // the third: the flush after max
	if err != nil {
		t.Fatal(err)
	}
	dirs = append(dirs, res.Dir)
	got := reported()
	if len(got) != 3 || b.Len() != 0 {
		t.Fatalf("after the third: %d reported, %d staged; want 3, 0", len(got), b.Len())
	}
	for i, p := range got {
		if p.Err != nil || !p.Result.Written || p.Result.Pending || p.Result.Dir != dirs[i] || p.Entry.URL != entry(i).URL {
			t.Errorf("report %d: %+v (entry %v), want %s written", i, p.Result, p.Err, dirs[i])
		}
		if !a.published(t, dirs[i]) {
			t.Errorf("%s reported published, not visible", dirs[i])
		}
	}
	if n := announced(); n != 3 {
		t.Errorf("%d bags announced, want 3", n)
	}

	// A second version of a folder the batch holds: the first is flushed.
	e := entry(3)
	if res, err = b.WriteEntry(a.ctx, e); err != nil || !res.Pending {
		t.Fatalf("%+v, %v", res, err)
	}
	if !b.Holds(e) || b.Holds(entry(4)) {
		t.Errorf("Holds: the staged entry %v, another %v; want true, false", b.Holds(e), b.Holds(entry(4)))
	}
	e2 := entry(3)
	e2.Content += "<p>Edited.</p>"
	res, err = b.WriteEntry(a.ctx, e2)
	if err != nil || !res.Pending || res.Version != 2 {
		t.Fatalf("second version: %+v, %v; want pending v2", res, err)
	}
	if got := reported(); len(got) != 4 || !got[3].Result.Written || got[3].Result.Version != 1 {
		t.Fatalf("the first version was not flushed before the second was staged: %d reports", len(got))
	}
	// Unchanged: nothing staged.
	if res, err := b.WriteEntry(a.ctx, entry(0)); err != nil || res.Pending || res.Written {
		t.Fatalf("unchanged: %+v, %v", res, err)
	}
	if err := b.Close(a.ctx); err != nil {
		t.Fatal(err)
	}
	if got := reported(); len(got) != 5 || got[4].Result.Version != 2 || !a.published(t, got[4].Result.Dir) {
		t.Fatalf("Close did not publish the last: %d reports", len(got))
	}
	if _, err := b.WriteEntry(a.ctx, entry(5)); err == nil {
		t.Error("a closed batch staged a bag")
	}
	if errs := a.check(); len(errs) > 0 {
		t.Errorf("check: %v", errs)
	}
	if left := a.leftovers(t); len(left) > 0 {
		t.Errorf("left staged: %v", left)
	}
	if n := announced(); n != 5 {
		t.Errorf("%d bags announced, want 5", n)
	}
}

// TestBatchFlushesAfterWait: a bag staged alone is published by the
// batch's timer, without another call.
func TestBatchFlushesAfterWait(t *testing.T) {
	forEachBackend(t, func(t *testing.T, a *testArchive) {
		done := make(chan aip.Published, 1)
		b := a.W.NewBatch(100, 50*time.Millisecond, func(p aip.Published) { done <- p })
		defer b.Close(a.ctx)
		res, err := b.WriteEntry(a.ctx, fixtureEntry())
		if err != nil || !res.Pending {
			t.Fatalf("%+v, %v", res, err)
		}
		select {
		case p := <-done:
			if p.Err != nil || !p.Result.Written || !a.published(t, p.Result.Dir) {
				t.Errorf("%+v, %v", p.Result, p.Err)
			}
		case <-time.After(2 * time.Minute):
			t.Fatal("not flushed after its wait")
		}
	})
}

// TestBatchRecordsTogether checks that a flush on a folder writes its
// bags' publication records together: when the first is renamed into
// place (the hook's "announce" event), every record of the batch is
// already written under its temporary name (made durable by the flush's
// one sync after the bags' renames), and none is in place yet; at the
// end each bag has its record and no temporary file is left.
func TestBatchRecordsTogether(t *testing.T) {
	a := openArchive(t, "local")
	logDir := filepath.Join(a.root, aip.PublicationsDir)
	list := func() (temps, recs int) {
		filepath.WalkDir(logDir, func(p string, d fs.DirEntry, err error) error {
			switch {
			case err != nil || d.IsDir():
			case strings.HasPrefix(d.Name(), "."):
				temps++
			default:
				recs++
			}
			return nil
		})
		return
	}
	var mu sync.Mutex
	var atFirst []int
	aip.SetTestHook(func(final, event string) {
		mu.Lock()
		defer mu.Unlock()
		if event == "announce" && atFirst == nil && strings.HasPrefix(final, a.root) {
			temps, recs := list()
			atFirst = []int{temps, recs}
		}
	})
	defer aip.SetTestHook(nil)
	b := a.W.NewBatch(3, time.Hour, nil)
	for i := range 3 {
		e := fixtureEntry()
		e.URL = fmt.Sprintf("%spart-%d/", e.URL, i)
		if _, err := b.WriteEntry(a.ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(atFirst) != 2 || atFirst[0] != 3 || atFirst[1] != 0 {
		t.Errorf("at the first record's rename: %v temporary records and records, want 3 and 0", atFirst)
	}
	if temps, recs := list(); temps != 0 || recs != 3 {
		t.Errorf("after the flush: %d temporary records, %d records; want 0 and 3", temps, recs)
	}
}

// TestBatchStagedHoldsNoDescriptor: a bag staged in a folder archive holds
// no open file until its flush. Each held its eight folders open before, so
// a batch of eight held 64 descriptors a crawl, and a daemon's harvest ran
// out of a limit of 150 open files beside 200 idle status clients
// (daemon/tests/process's TestIdleStatusClientsDoNotStarveHarvests).
func TestBatchStagedHoldsNoDescriptor(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd:", err)
	}
	open := func() int {
		names, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(names)
	}
	a := openArchive(t, "local")
	b := a.W.NewBatch(8, time.Hour, nil)
	before := open()
	const staged = 4
	var dirs []string
	for i := range staged {
		e := fixtureEntry()
		e.URL = fmt.Sprintf("%spart-%d/", e.URL, i)
		res, err := b.WriteEntry(a.ctx, e)
		if err != nil || !res.Pending {
			t.Fatalf("stage %d: %+v, %v", i, res, err)
		}
		dirs = append(dirs, res.Dir)
	}
	if n := open() - before; n >= staged {
		t.Errorf("%d bags staged hold %d more open files, want none", staged, n)
	}
	if err := b.Close(a.ctx); err != nil {
		t.Fatal(err)
	}
	for _, dir := range dirs {
		if !a.published(t, dir) {
			t.Errorf("%s not published by the flush", dir)
		}
	}
}
