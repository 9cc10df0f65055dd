package aip_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/warc"
)

// reuseEntry returns an entry with a page and one picture captured at t.
func reuseEntry(t time.Time, comments int) *blogharvest.Entry {
	page := blogharvest.File{URL: "https://blog.example.org/2024/05/pics/", Role: blogharvest.RolePage,
		MediaType: "text/html", Body: []byte("<h1>Pictures</h1><img src=a.png>"), Status: 200, Captured: t}
	pic := blogharvest.File{URL: "https://blog.example.org/a.png", Role: blogharvest.RoleMedia, MediaType: "image/png",
		Body: []byte("\x89PNG\r\n\x1a\nnot really a picture"), Status: 200, Captured: t,
		Header: map[string][]string{"Content-Type": {"image/png"}, "Etag": {`"a1"`}}}
	page.Sum()
	pic.Sum()
	e := &blogharvest.Entry{BlogID: "example", Kind: blogharvest.KindPost, URL: page.URL, Title: "Pictures",
		Content: `<p><img src="/a.png"></p>`, ContentFormat: "text/html", Created: time.Date(2024, 5, 1, 0, 0, 0, 0, time.UTC),
		Files: []blogharvest.File{page, pic}}
	for i := 0; i < comments; i++ {
		e.Comments = append(e.Comments, blogharvest.Comment{ID: "c" + string(rune('1'+i)), Author: "Ana", Content: "Nice " + string(rune('a'+i))})
	}
	return e
}

// TestArchivedMediaReusedInNewVersion reads the media of an entry's latest
// AIP back (ArchivedMedia), writes a new version with that file reused,
// and checks the new bag: it holds its own copy of the picture, passes
// Check (WARC ties included), its WARC holds no copy of the capture (its
// METS requires v1, whose WARC holds the record), PREMIS names the
// earlier record and the original capture date, and the picture read
// back from v2 is v2's copy verified against v1's record. A tampered
// archived copy is not offered for reuse.
//
// Local only: the test tampers with the reused file on disk; media reuse over both stores is TestStoreReaders.
func TestArchivedMediaReusedInNewVersion(t *testing.T) {
	root := t.TempDir()
	first := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	w := &aip.Writer{Root: root, Organization: "Example Library", Software: "blogharvest test",
		Now: func() time.Time { return first.Add(48 * time.Hour) }}
	defer w.Close()
	e1 := reuseEntry(first, 0)
	if _, err := w.WriteEntry(context.Background(), e1); err != nil {
		t.Fatal(err)
	}
	got, err := aip.ArchivedMedia(&aip.Local{Root: root}, e1)
	if err != nil || len(got) != 1 {
		t.Fatalf("ArchivedMedia: %d files, %v; want the one picture", len(got), err)
	}
	f := got[0]
	if f.URL != e1.Files[1].URL || f.SHA256 != e1.Files[1].SHA256 || !f.Captured.Equal(first) || f.Status != 200 ||
		f.Reused == "" || f.Stored == nil || f.Path != "" || f.Body != nil || !strings.HasPrefix(f.MediaType, "image/png") {
		t.Fatalf("archived picture %+v", f)
	}

	e2 := reuseEntry(first.Add(24*time.Hour), 1) // a new comment: a new version
	e2.Files[1] = f
	res, err := w.WriteEntry(context.Background(), e2)
	if err != nil || res.Version != 2 {
		t.Fatalf("second write: version %d, %v", res.Version, err)
	}
	for _, p := range aip.Check(root) {
		t.Error(p)
	}
	mets, err := os.ReadFile(res.Dir + "/data/METS.xml")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{f.Reused, "capture reused from WARC record", first.Format("2006-01-02T15:04:05")} {
		if !strings.Contains(string(mets), want) {
			t.Errorf("METS of v2 lacks %q", want)
		}
	}
	// v2's WARC does not copy the capture (issue 40): its METS requires
	// v1, whose WARC holds the record.
	v1 := aip.BagObjID(&aip.Local{Root: root}, strings.TrimPrefix(strings.TrimSuffix(res.Dir, "/v2")+"/v1", root+"/"))
	if v1 == "" || f.ReusedIn != v1 || !strings.Contains(string(mets), ">"+v1+"<") {
		t.Errorf("v1's OBJID %q, the picture's ReusedIn %q: want v2's METS to require v1", v1, f.ReusedIn)
	}
	warcs, _ := filepath.Glob(res.Dir + "/data/objects/warc/*.warc.gz")
	for _, p := range warcs {
		data, _ := os.ReadFile(p)
		recs, err := warc.Read(data)
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if r.TargetURI == f.URL {
				t.Errorf("v2's WARC holds a %s record of the reused picture", r.Type)
			}
		}
	}
	again, err := aip.ArchivedMedia(&aip.Local{Root: root}, e2)
	if err != nil || len(again) != 1 || !again[0].Captured.Equal(first) || again[0].Stored == nil || again[0].Stored.Name == f.Stored.Name || again[0].Reused != f.Reused ||
		again[0].ReusedIn != v1 {
		t.Fatalf("v2's picture read back: %+v, %v; want its own copy, captured %v, its record in v1", again, err, first)
	}

	if err := os.WriteFile(aip.Location(again[0].Stored.FS.(aip.Store), again[0].Stored.Name), []byte("tampered"), 0o644); err != nil {
		t.Fatal(err)
	}
	if bad, err := aip.ArchivedMedia(&aip.Local{Root: root}, e2); err != nil || len(bad) != 0 {
		t.Errorf("a tampered copy offered for reuse: %d files, %v", len(bad), err)
	}
}
