package aip_test

import (
	"context"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
)

// TestStoreReaders runs the archive's readers over every backend: the
// media of an entry's latest version come back verified (ArchivedMedia: a
// file on disk in a folder, the bytes in any other store), a new version
// written with them reused holds its own copy, passes CheckStore and says
// in METS that the capture was reused; a tampered copy is not offered;
// LatestBlog returns the Blog AIP's captures, rules and state; and
// TallyArchive counts what CheckStore counts.
func TestStoreReaders(t *testing.T) {
	forEachBackend(t, func(t *testing.T, a *testArchive) {
		w, st := a.W, a.St
		ctx := context.Background()
		first := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
		e1 := reuseEntry(first, 0)
		e1.BlogID = "garden"
		if _, err := w.WriteEntry(ctx, e1); err != nil {
			t.Fatal(err)
		}
		got, err := aip.ArchivedMedia(st, e1)
		if err != nil || len(got) != 1 {
			t.Fatalf("ArchivedMedia: %d files, %v; want the one picture", len(got), err)
		}
		f := got[0]
		_, local := st.(*aip.Local)
		if f.SHA256 != e1.Files[1].SHA256 || !f.Captured.Equal(first) || f.Reused == "" ||
			f.Stored == nil || f.Path != "" || local != (f.Body == nil) || !local && string(f.Body) != string(e1.Files[1].Body) {
			t.Fatalf("archived picture %+v", f)
		}
		e2 := reuseEntry(first.Add(24*time.Hour), 1)
		e2.BlogID, e2.Files[1] = "garden", f
		r2, err := w.WriteEntry(ctx, e2)
		if err != nil || r2.Version != 2 {
			t.Fatalf("second write: %+v, %v", r2, err)
		}
		v2 := a.name(r2.Dir)
		mets, err := fs.ReadFile(st, v2+"/data/METS.xml")
		if err != nil || !strings.Contains(string(mets), "capture reused from WARC record "+f.Reused) {
			t.Errorf("v2's METS does not name the reused capture (%v)", err)
		}
		again, err := aip.ArchivedMedia(st, e2)
		if err != nil || len(again) != 1 || !again[0].Captured.Equal(first) {
			t.Fatalf("v2's picture read back: %+v, %v", again, err)
		}

		b := fixtureBlog()
		rules, state := `{"content":"div.entry"}`, `{"threads":{}}`
		b.Files = append(b.Files, file("", blogharvest.RoleLog, "application/json", rules, 0),
			file("", blogharvest.RoleState, "application/json", state, 0))
		rb, err := w.WriteBlog(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		ab, err := aip.LatestBlog(st, "garden")
		if err != nil || ab == nil {
			t.Fatalf("LatestBlog: %v, %v", ab, err)
		}
		if len(ab.Files) != 4 || string(ab.Rules) != rules || string(ab.State) != state || ab.Bag != rb.Dir {
			t.Errorf("LatestBlog: %d files, rules %q, state %q, bag %s; want 4, %q, %q, %s", len(ab.Files), ab.Rules, ab.State, ab.Bag, rules, state, rb.Dir)
		}

		checked, errs := aip.CheckStore(ctx, st, nil)
		for _, err := range errs {
			t.Errorf("CheckStore: %v", err)
		}
		counted, err := aip.TallyArchive(st, ".")
		if err != nil || counted.Bags() != 3 || counted.Files != checked.Files || counted.Bytes != checked.Bytes ||
			counted.Entries != 1 || counted.Blogs != 1 {
			t.Errorf("TallyArchive %+v, %v; CheckStore counted %+v", counted, err, checked)
		}

		log, _ := fs.ReadFile(st, v2+"/data/logs/capture.log")
		pic := ""
		for _, line := range strings.Split(string(log), "\n") {
			if cols := strings.Split(line, "\t"); len(cols) == 6 && strings.HasPrefix(cols[4], "data/objects/media/") {
				pic = cols[4]
			}
		}
		if pic == "" {
			t.Fatalf("v2's capture log names no picture:\n%s", log)
		}
		a.edit(t, r2.Dir, func(folder string) { flipFile(t, filepath.Join(folder, filepath.FromSlash(pic))) })
		if bad, err := aip.ArchivedMedia(a.St, e2); err != nil || len(bad) != 0 {
			t.Errorf("a tampered copy offered for reuse: %d files, %v", len(bad), err)
		}
	})
}
