package aip_test

import (
	"context"
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/warc"
)

// TestRequisitesStoredOnce: two entries sharing a stylesheet, each with a
// picture of its own outside the article, the Blog sharing the
// stylesheet, and a third entry whose requisites an update reused or
// fetched again: the stylesheet is stored once, in requisites/v1 (with the
// first entry's picture), the second entry's new picture alone in v2.
// Every fetch is recorded once in the archive: the requisites package
// holds the response records of new payloads; an AIP holds a revisit
// record (with WARC-Refers-To the original response record) only for a
// fetch of its own whose payload was stored already (the same bytes under
// another URL, a picture fetched again), and nothing for a requisite
// another package's fetch brought or that was reused unfetched. Every
// AIP's page has a metadata record, WARC-Concurrent-To its response, with
// an outlink line per requisite, and its PREMIS object requires each; the
// METS names the requisites packages each AIP depends on; no record is
// WARC-Concurrent-To one of another URI; the whole archive checks clean.
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
	b.Files = append(b.Files, css) // the same fetch as e1's
	e3 := fixtureEntry()
	e3.URL, e3.Title = e3.URL+"third/", "Third"
	later := css.Captured.Add(time.Hour)
	reused := css // an update's: the stored capture, fresh, not asked for again
	reused.Reused = "urn:uuid:00000000-0000-0000-0000-000000000000"
	reused.Exchanges = []blogharvest.Exchange{{URL: css.URL, Status: 200, ResponseHeader: css.Header, Sent: later}}
	again := pic1 // fetched whole again: the same bytes
	again.Exchanges = []blogharvest.Exchange{{Method: "GET", URL: pic1.URL, Status: 200, Proto: "HTTP/1.1",
		ResponseHeader: map[string][]string{"Content-Type": {"image/png"}}, Sent: later}}
	e3.Files = append(e3.Files, reused, again)
	var dirs []string
	for _, write := range []func() (aip.Result, error){
		func() (aip.Result, error) { return w.WriteEntry(ctx, e1) },
		func() (aip.Result, error) { return w.WriteEntry(ctx, e2) },
		func() (aip.Result, error) { return w.WriteBlog(ctx, b) },
		func() (aip.Result, error) { return w.WriteEntry(ctx, e3) },
	} {
		res, err := write()
		if err != nil {
			t.Fatal(err)
		}
		dirs = append(dirs, res.Dir)
	}
	const reqDir = "garden/requisites"
	want := map[string][]string{"v1": {"a.png", "style.css"}, "v2": {"b.png"}}
	originals := map[string]string{} // URL → response record id in the requisites packages
	for v, names := range want {
		var base []string
		for _, g := range a.glob(a.loc(reqDir+"/"+v), "data/objects/requisites/*") {
			base = append(base, path.Base(g))
		}
		if strings.Join(base, ",") != strings.Join(names, ",") {
			t.Errorf("requisites %s holds %v, want %v", v, base, names)
		}
		for _, r := range warcRecords(t, a, a.loc(reqDir+"/"+v)) {
			if r.Type == "response" {
				originals[r.TargetURI] = r.ID
			}
		}
		info, _ := a.read(a.loc(reqDir+"/"+v), "bag-info.txt")
		if strings.Contains(string(info), "MARC") {
			t.Errorf("requisites %s: bag-info.txt claims a MARC record it does not hold:\n%s", v, info)
		}
	}
	if len(originals) != 3 {
		t.Errorf("response records in the requisites packages: %v, want style.css, a.png, b.png", originals)
	}
	if a.exists(reqDir + "/v3") {
		t.Error("a third requisites version was written for requisites already stored")
	}
	revisits := []map[string]string{ // per AIP: revisit target → the URL of the response it refers to
		{},
		{"https://garden.example.org/style.css?ver=2": "https://garden.example.org/style.css"},
		{},
		{"https://cdn.example.net/a.png": "https://cdn.example.net/a.png"},
	}
	embeds := [][]string{
		{css.URL, pic1.URL}, {css2.URL, pic2.URL}, {css.URL}, {css.URL, pic1.URL},
	}
	requests := []int{0, 0, 0, 1} // request records of requisites: e3's re-fetch alone has a method
	for i, dir := range dirs {
		recs := warcRecords(t, a, dir)
		byID := map[string]warc.Record{}
		for _, r := range recs {
			byID[r.ID] = r
		}
		got := map[string]string{}
		nreq, metadata := 0, 0
		for _, r := range recs {
			if c, ok := byID[r.ConcurrentTo]; ok && c.TargetURI != r.TargetURI {
				t.Errorf("%s: %s record of %s is WARC-Concurrent-To the %s record of %s", dir, r.Type, r.TargetURI, c.Type, c.TargetURI)
			}
			isReq := slices.Contains(embeds[i], r.TargetURI)
			switch {
			case r.Type == "revisit":
				got[r.TargetURI] = r.RefersToURI
				if r.RefersTo == "" || r.RefersTo != originals[r.RefersToURI] {
					t.Errorf("%s: revisit of %s refers to record %q, want the response record %q of %s", dir, r.TargetURI, r.RefersTo, originals[r.RefersToURI], r.RefersToURI)
				}
				if r.RefersToDate != "2024-05-06T06:00:00Z" || !strings.HasPrefix(r.PayloadDigest, "sha256:") {
					t.Errorf("%s: revisit of %s refers to date %q digest %q", dir, r.TargetURI, r.RefersToDate, r.PayloadDigest)
				}
			case r.Type == "response" && isReq:
				t.Errorf("%s: a response record for the requisite %s", dir, r.TargetURI)
			case r.Type == "request" && isReq:
				nreq++
			case r.Type == "metadata":
				metadata++
				page, ok := byID[r.ConcurrentTo]
				var lines []string
				for _, u := range embeds[i] {
					lines = append(lines, "outlink: "+u+" E =EMBED_MISC\r\n")
				}
				if !ok || page.Type != "response" || string(r.Payload) != strings.Join(lines, "") {
					t.Errorf("%s: metadata record of %s concurrent to %q: %q, want %q", dir, r.TargetURI, r.ConcurrentTo, r.Payload, strings.Join(lines, ""))
				}
			}
		}
		if metadata != 1 {
			t.Errorf("%s: %d metadata records, want 1 (the page's)", dir, metadata)
		}
		if nreq != requests[i] {
			t.Errorf("%s: %d request records of requisites, want %d (the fetches this package records)", dir, nreq, requests[i])
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
		for _, u := range embeds[i] {
			if !strings.Contains(string(mets), ">"+u+"<") {
				t.Errorf("%s: METS does not name the requisite %s", dir, u)
			}
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
