package aip_test

import (
	"context"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/warc"
)

// TestWARCOfExchanges: an entry whose page came through a redirect holds,
// in its WARC, the redirect's and the page's request and response records
// (the page's payload the objects/ file's bytes, its headers as received
// but for the decoded Content-Encoding), the rendered DOM and the
// screenshot as resource records named after the page (urn:dom:,
// urn:screenshot:) and concurrent to no record of another URI; the
// derived feed excerpt has no record; every captured file names its record
// (File.WARCRecordID and the METS), and the CDXJ indexes both responses.
func TestWARCOfExchanges(t *testing.T) {
	forEachBackend(t, testWARCOfExchanges)
}

func testWARCOfExchanges(t *testing.T, a *testArchive) {
	e := fixtureEntry()
	const u = "https://garden.example.org/2024/03/notes-on-the-green-kettle/"
	page := &e.Files[0]
	req := map[string][]string{"Host": {"garden.example.org"}, "Cookie": {"s=" + blogharvest.Redacted}}
	page.Exchanges = []blogharvest.Exchange{
		{Method: "GET", URL: "https://garden.example.org/?p=7", RequestHeader: req, Proto: "HTTP/1.1", Status: 301,
			Reason: "301 Moved Permanently", ResponseHeader: map[string][]string{"Location": {u}}, Body: []byte("moved"), Sent: clock},
		{Method: "GET", URL: u, RequestHeader: req, Proto: "HTTP/1.1", Status: 200, Reason: "200 OK", RemoteIP: "192.0.2.7",
			ResponseHeader: map[string][]string{"Content-Type": {"text/html; charset=utf-8"}, "Content-Encoding": {"br"}, "Etag": {`"v1"`}}, Sent: clock},
	}
	dom := file(u, blogharvest.RoleRendered, "text/html", "<html><body>rendered</body></html>", 0)
	excerpt := file(u+"feed-item", blogharvest.RoleFeed, "application/rss+xml", "<item/>", 0)
	e.Files = append(e.Files, dom, excerpt)
	res, err := a.W.WriteEntry(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	recs := warcRecords(t, a, res.Dir)
	var types []string
	byID := map[string]warc.Record{}
	for _, r := range recs {
		types = append(types, r.Type+" "+r.TargetURI)
		byID[r.ID] = r
	}
	want := []string{"warcinfo ", "response https://garden.example.org/?p=7", "request https://garden.example.org/?p=7",
		"response " + u, "request " + u}
	if got := strings.Join(types[:5], "|"); got != strings.Join(want, "|") {
		t.Fatalf("first records:\n%s\nwant\n%s", got, strings.Join(want, "|"))
	}
	pageRec := byID[e.Files[0].WARCRecordID]
	if string(pageRec.Payload) != string(page.Body) || pageRec.Header.Get("X-Archive-Orig-Content-Encoding") != "br" ||
		pageRec.Header.Get("Etag") != `"v1"` {
		t.Errorf("page record %s: %q %v", e.Files[0].WARCRecordID, pageRec.Payload, pageRec.Header)
	}
	for _, i := range []int{4, 5} { // screenshot, rendered DOM
		r, ok := byID[e.Files[i].WARCRecordID]
		if !ok || r.Type != "resource" || r.ConcurrentTo != "" || !strings.HasSuffix(r.TargetURI, ":"+u) || string(r.Payload) != string(e.Files[i].Body) {
			t.Errorf("%s: record %+v", e.Files[i].Role, r)
		}
	}
	if e.Files[6].WARCRecordID != "" {
		t.Errorf("the feed excerpt, which no server sent, has WARC record %s", e.Files[6].WARCRecordID)
	}
	mets, _ := a.read(res.Dir, "data/METS.xml")
	if !strings.Contains(string(mets), e.Files[0].WARCRecordID) {
		t.Error("METS does not name the page's WARC record")
	}
	index, _ := a.read(res.Dir, "data/logs/index.cdxj")
	lines, _ := warc.ParseIndex(index)
	if len(warc.Lookup(lines, u)) != 1 || len(warc.Lookup(lines, "https://garden.example.org/?p=7")) != 1 {
		t.Errorf("index:\n%s", index)
	}
	if errs := a.checkBag(res.Dir); len(errs) > 0 {
		t.Errorf("check: %v", errs)
	}
}
