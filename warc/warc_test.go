package warc_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/warc"
)

var at = time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)

// sample writes a WARC of a redirect, a gzip-served page, a 304 and a
// rendered DOM.
func sample(t *testing.T) (*warc.Writer, string) {
	t.Helper()
	w, err := warc.NewWriter(warc.Info{Filename: "objects/warc/entry.warc.gz", Software: "blogharvest test",
		Organization: "Test Library", Crawl: "blog b, entry http://example.com/post"}, at)
	if err != nil {
		t.Fatal(err)
	}
	req := map[string][]string{"Host": {"example.com"}, "User-Agent": {"bh"}, "Authorization": {"Basic " + blogharvest.Redacted}}
	xs := []blogharvest.Exchange{
		{Method: "GET", URL: "http://example.com/p?id=1", RequestHeader: req, Proto: "HTTP/1.1", Status: 301, Reason: "301 Moved Permanently",
			ResponseHeader: map[string][]string{"Location": {"/post"}}, Body: []byte("moved"), Sent: at, Received: at},
		{Method: "GET", URL: "http://example.com/post", RequestHeader: req, Proto: "HTTP/1.1", Status: 200, Reason: "200 OK",
			ResponseHeader: map[string][]string{"Content-Type": {"text/html; charset=utf-8"}, "Content-Encoding": {"gzip"}, "Content-Length": {"20"}},
			RemoteIP:       "192.0.2.1", Sent: at, Received: at},
	}
	id, err := w.Capture(xs, []byte("<p>hello</p>"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Capture([]blogharvest.Exchange{{Method: "GET", URL: "http://example.com/feed", Status: 304, Reason: "304 Not Modified",
		ResponseHeader: map[string][]string{"Etag": {`"x"`}}, Sent: at}}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Resource("urn:dom:http://example.com/post", "text/html", at, []byte("<html>dom</html>")); err != nil {
		t.Fatal(err)
	}
	return w, id
}

func TestWriteRead(t *testing.T) {
	w, id := sample(t)
	recs, err := warc.Read(w.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, r := range recs {
		types = append(types, r.Type)
	}
	if got := strings.Join(types, " "); got != "warcinfo response request response request response request resource" {
		t.Fatalf("record types %q", got)
	}
	// A 304 whose original Capture does not know is the answer as
	// received (no revisit record without WARC-Refers-To).
	if nm := recs[5]; nm.Status != 304 || len(nm.Payload) != 0 || nm.RefersTo != "" || nm.Header.Get("Etag") != `"x"` {
		t.Errorf("304 record %+v: want a response record of the 304, no payload", nm)
	}
	page := recs[3]
	if page.ID != id || string(page.Payload) != "<p>hello</p>" || page.Status != 200 {
		t.Errorf("page record %+v", page)
	}
	if page.Header.Get("Content-Encoding") != "" || page.Header.Get("X-Archive-Orig-Content-Encoding") != "gzip" || page.Header.Get("Content-Length") != "12" {
		t.Errorf("page headers %v: want Content-Encoding renamed, Content-Length of the payload", page.Header)
	}
	if recs[7].ConcurrentTo != "" || string(recs[7].Payload) != "<html>dom</html>" {
		t.Errorf("resource %+v", recs[7])
	}
	// every record is its own gzip member
	zr, _ := gzip.NewReader(bytes.NewReader(w.Bytes()))
	zr.Multistream(false)
	first, _ := io.ReadAll(zr)
	if !bytes.HasPrefix(first, []byte("WARC/1.1\r\nWARC-Type: warcinfo")) || bytes.Contains(first, []byte("WARC-Type: response")) {
		t.Errorf("first gzip member is not the warcinfo record alone:\n%s", first)
	}
}

func TestIndexLookup(t *testing.T) {
	w, _ := sample(t)
	idx, err := warc.ParseIndex(w.Index())
	if err != nil {
		t.Fatal(err)
	}
	if len(idx) != 3 {
		t.Fatalf("%d index lines, want 3 (2 responses, 1 revisit):\n%s", len(idx), w.Index())
	}
	hits := warc.Lookup(idx, "http://EXAMPLE.com/post")
	if len(hits) != 1 || hits[0].Timestamp != "20261124080000" || hits[0].Mime != "text/html" {
		t.Fatalf("lookup: %+v", hits)
	}
	for in, want := range map[string]string{ // as the surt library writes them (reverse_ipaddr on)
		"http://127.0.0.1:8080/a/B": "1,0,0,127:8080)/a/b",
		"http://www2.example.org/":  "org,example)/",
		"https://example.org:443/x": "org,example)/x",
	} {
		if got := warc.SURT(in); got != want {
			t.Errorf("SURT(%s) = %s, want %s", in, got, want)
		}
	}
	if got := warc.SURT("https://www.Example.com:8443/a/B?z=1&a=2"); got != "com,example:8443)/a/b?a=2&z=1" {
		t.Errorf("SURT = %q", got)
	}
}

func TestReadTampered(t *testing.T) {
	w, _ := sample(t)
	data := w.Bytes()
	idx, _ := warc.ParseIndex(w.Index())
	hit := warc.Lookup(idx, "http://example.com/post")[0]
	var off int
	for _, c := range hit.Offset {
		off = off*10 + int(c-'0')
	}
	// re-compress the page's member with one payload byte changed
	zr, _ := gzip.NewReader(bytes.NewReader(data[off:]))
	zr.Multistream(false)
	member, _ := io.ReadAll(zr)
	end := off + len(data[off:]) - remaining(data[off:])
	member = bytes.Replace(member, []byte("hello"), []byte("jello"), 1)
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(member)
	zw.Close()
	bad := append(append(append([]byte(nil), data[:off]...), z.Bytes()...), data[end:]...)
	_, err := warc.Read(bad)
	t.Log(err)
	if err == nil || !errors.Is(err, warc.ErrDigest) {
		t.Fatalf("tampered payload read without a digest error: %v", err)
	}
}

// remaining returns how many bytes follow the first gzip member of b.
func remaining(b []byte) int {
	r := bytes.NewReader(b)
	zr, _ := gzip.NewReader(r)
	zr.Multistream(false)
	io.Copy(io.Discard, zr)
	return r.Len()
}

// TestConcurrentWriters writes and reads WARCs from several goroutines at
// once, as concurrent AIP writes do: under -race it fails if gowarc's
// making of options (which writes a variable of github.com/google/uuid)
// is not serialised.
func TestConcurrentWriters(t *testing.T) {
	done := make(chan error)
	for range 4 {
		go func() {
			w, err := warc.NewWriter(warc.Info{Filename: "x.warc.gz", Software: "t", Crawl: "c"}, at)
			if err == nil {
				_, err = w.Capture([]blogharvest.Exchange{{Method: "GET", URL: "http://example.com/", Status: 200}}, []byte("x"))
			}
			if err == nil {
				_, err = warc.Read(w.Bytes())
			}
			done <- err
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}
