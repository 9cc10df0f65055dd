package warc_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/warc"
)

// TestMetadataAndRevisit writes a page, its metadata record with two
// embeds, a revisit of a re-fetch and a revisit without its original's id,
// and reads them back: the metadata record is concurrent to the page's
// response (same target URI) and lists the embeds as Heritrix outlinks;
// the revisit names its original by WARC-Refers-To and has its own request
// record; a revisit without an original id is refused.
func TestMetadataAndRevisit(t *testing.T) {
	at := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	w, err := warc.NewWriter(warc.Info{Filename: "objects/warc/x.warc.gz", Software: "bh 1", Crawl: "t"}, at)
	if err != nil {
		t.Fatal(err)
	}
	page, err := w.Capture([]blogharvest.Exchange{{Method: "GET", URL: "http://example.com/post", Status: 200,
		ResponseHeader: map[string][]string{"Content-Type": {"text/html"}}, Sent: at}}, []byte("<p>post</p>"))
	if err != nil {
		t.Fatal(err)
	}
	css, err := w.Capture([]blogharvest.Exchange{{Method: "GET", URL: "http://example.com/a.css", Status: 200,
		ResponseHeader: map[string][]string{"Content-Type": {"text/css"}}, Sent: at}}, []byte("p{}"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Metadata("http://example.com/post", at, page, []warc.Link{{URL: "http://example.com/a.css"},
		{URL: "http://example.com/b.css", Context: "link/@href"}}); err != nil {
		t.Fatal(err)
	}
	later := at.Add(time.Hour)
	rv, err := w.Revisit(blogharvest.Exchange{Method: "GET", URL: "http://example.com/b.css", Status: 200,
		ResponseHeader: map[string][]string{"Content-Type": {"text/css"}}, Sent: later}, []byte("p{}"),
		warc.Original{URL: "http://example.com/a.css", Date: at, ID: css})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Revisit(blogharvest.Exchange{URL: "http://example.com/c.css", Status: 200, Sent: later}, []byte("p{}"),
		warc.Original{URL: "http://example.com/a.css", Date: at}); !errors.Is(err, warc.ErrNoOriginal) {
		t.Errorf("revisit without an original id: %v, want ErrNoOriginal", err)
	}
	recs, err := warc.Read(w.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	byID := map[string]warc.Record{}
	for _, r := range recs {
		types = append(types, r.Type)
		byID[r.ID] = r
	}
	if got := strings.Join(types, " "); got != "warcinfo response request response request metadata revisit request" {
		t.Fatalf("record types %q", got)
	}
	md := recs[5]
	want := "outlink: http://example.com/a.css E =EMBED_MISC\r\noutlink: http://example.com/b.css E link/@href\r\n"
	if md.ConcurrentTo != page || md.TargetURI != "http://example.com/post" || string(md.Payload) != want {
		t.Errorf("metadata record: concurrent to %q (want %q), target %q, block %q (want %q)", md.ConcurrentTo, page, md.TargetURI, md.Payload, want)
	}
	r := byID[rv]
	if r.Type != "revisit" || r.RefersTo != css || r.RefersToURI != "http://example.com/a.css" || r.RefersToDate != "2024-05-06T07:08:09Z" || r.ConcurrentTo != "" {
		t.Errorf("revisit %+v", r)
	}
	if q := recs[7]; q.Type != "request" || q.ConcurrentTo != rv || q.TargetURI != "http://example.com/b.css" || !q.Date.Equal(later) {
		t.Errorf("revisit's request %+v", q)
	}
	for _, r := range recs {
		if c, ok := byID[r.ConcurrentTo]; ok && c.TargetURI != r.TargetURI {
			t.Errorf("%s %s is WARC-Concurrent-To %s of %s", r.Type, r.TargetURI, c.Type, c.TargetURI)
		}
	}
	// Verify (streamed) reads the same ids
	n := 0
	if err := warc.Verify(bytes.NewReader(w.Bytes()), func(r warc.Record) error {
		if r.RefersTo != byID[r.ID].RefersTo {
			t.Errorf("Verify: %s refers to %q, Read says %q", r.ID, r.RefersTo, byID[r.ID].RefersTo)
		}
		n++
		return nil
	}); err != nil || n != len(recs) {
		t.Errorf("Verify: %d records, %v", n, err)
	}
}
