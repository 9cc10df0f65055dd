package aip_test

import (
	"context"
	"io/fs"
	"path"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/warc"
)

// TestRequisitesStoredOnce: two entries sharing a stylesheet, each with a
// picture of its own outside the article, and the Blog sharing the
// stylesheet too: the stylesheet is stored once, in requisites/v1 (with the
// first entry's picture), the second entry's new picture alone in v2; every
// AIP's WARC holds a revisit record per requisite naming the first
// capture's URL, date and payload digest, and no response record for it;
// the METS names the requisites packages each AIP depends on; the whole
// archive checks clean.
func TestRequisitesStoredOnce(t *testing.T) {
	forEachBackend(t, testRequisitesStoredOnce)
}

func testRequisitesStoredOnce(t *testing.T, a *testArchive) {
	w, ctx := a.W, context.Background()
	css := file("https://garden.example.org/style.css", blogharvest.RoleRequisite, "text/css", "body{color:green}", 200)
	pic1 := file("https://cdn.example.net/a.png", blogharvest.RoleRequisite, "image/png", "\x89PNG one", 200)
	pic2 := file("https://cdn.example.net/b.png", blogharvest.RoleRequisite, "image/png", "\x89PNG two", 200)
	e1 := fixtureEntry()
	e1.Files = append(e1.Files, css, pic1)
	e2 := fixtureEntry()
	e2.URL, e2.Title = e2.URL+"second/", "Second"
	css2 := css
	css2.URL = "https://garden.example.org/style.css?ver=2" // same bytes under another URL
	e2.Files = append(e2.Files, css2, pic2)
	b := fixtureBlog()
	b.Files = append(b.Files, css)
	var dirs []string
	for _, write := range []func() (aip.Result, error){
		func() (aip.Result, error) { return w.WriteEntry(ctx, e1) },
		func() (aip.Result, error) { return w.WriteEntry(ctx, e2) },
		func() (aip.Result, error) { return w.WriteBlog(ctx, b) },
	} {
		res, err := write()
		if err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, res.Dir)
	}
	const reqDir = "garden/requisites"
	want := map[string][]string{"v1": {"a.png", "style.css"}, "v2": {"b.png"}}
	for v, names := range want {
		var base []string
		for _, g := range a.glob(a.loc(reqDir+"/"+v), "data/objects/requisites/*") {
			base = append(base, path.Base(g))
		}
		if strings.Join(base, ",") != strings.Join(names, ",") {
			t.Errorf("requisites %s holds %v, want %v", v, base, names)
		}
	}
	if a.exists(reqDir + "/v3") {
		t.Error("a third requisites version was written for requisites already stored")
	}
	revisits := []map[string]string{
		{"https://garden.example.org/style.css": "https://garden.example.org/style.css", "https://cdn.example.net/a.png": "https://cdn.example.net/a.png"},
		{"https://garden.example.org/style.css?ver=2": "https://garden.example.org/style.css", "https://cdn.example.net/b.png": "https://cdn.example.net/b.png"},
		{"https://garden.example.org/style.css": "https://garden.example.org/style.css"},
	}
	for i, dir := range dirs {
		recs := warcRecords(t, a, dir)
		got := map[string]string{}
		for _, r := range recs {
			if r.Type == "revisit" {
				got[r.TargetURI] = r.RefersToURI
				if r.RefersToDate != "2024-05-06T06:00:00Z" || !strings.HasPrefix(r.PayloadDigest, "sha256:") {
					t.Errorf("%s: revisit of %s refers to date %q digest %q", dir, r.TargetURI, r.RefersToDate, r.PayloadDigest)
				}
			}
			if _, ok := revisits[i][r.TargetURI]; ok && r.Type == "response" {
				t.Errorf("%s: a response record for the requisite %s", dir, r.TargetURI)
			}
		}
		if len(got) != len(revisits[i]) {
			t.Errorf("%s: revisits %v, want %v", dir, got, revisits[i])
		}
		for k, v := range revisits[i] {
			if got[k] != v {
				t.Errorf("%s: revisit of %s refers to %q, want %q", dir, k, got[k], v)
			}
		}
		mets, _ := a.read(dir, "data/METS.xml")
		v1 := aip.ObjID(aip.RequisitesPermalink("https://garden.example.org/"), 1)
		if !strings.Contains(string(mets), v1) || !strings.Contains(string(mets), ">requires<") {
			t.Errorf("%s: METS does not say it requires %s", dir, v1)
		}
	}
	for _, err := range a.check() {
		t.Error(err)
	}
}

// warcRecords returns the records of the one WARC of the bag at dir.
func warcRecords(t *testing.T, a *testArchive, dir string) []warc.Record {
	t.Helper()
	ws := a.glob(dir, "data/objects/warc/*.warc.gz")
	if len(ws) != 1 {
		t.Fatalf("%s: WARC files %v, want one", dir, ws)
	}
	data, err := fs.ReadFile(a.St, ws[0])
	if err != nil {
		t.Fatal(err)
	}
	recs, err := warc.Read(data)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	return recs
}

// TestOwnPictureSizesStayWithTheEntry: a requisite the entry's article
// names itself (another size of the post's picture) is a response record
// in the entry's own WARC, not in the requisites package.
func TestOwnPictureSizesStayWithTheEntry(t *testing.T) {
	forEachBackend(t, testOwnPictureSizesStayWithTheEntry)
}

func testOwnPictureSizesStayWithTheEntry(t *testing.T, a *testArchive) {
	w, e := a.W, fixtureEntry()
	small := "https://garden.example.org/wp-content/uploads/kettle-300x200.png"
	e.Content += `<img src="/wp-content/uploads/kettle.png" srcset="/wp-content/uploads/kettle-300x200.png 300w">`
	e.Files = append(e.Files, file(small, blogharvest.RoleRequisite, "image/png", "\x89PNG small", 200))
	res, err := w.WriteEntry(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	if a.exists("garden/requisites") {
		t.Error("a requisites package was written for the post's own picture")
	}
	recs := warcRecords(t, a, res.Dir)
	found := false
	for _, r := range recs {
		found = found || r.Type == "response" && r.TargetURI == small
	}
	if !found {
		t.Errorf("no response record for %s in the entry's WARC", small)
	}
	for _, err := range a.check() {
		t.Error(err)
	}
}
