package warc

import (
	"bufio"
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	gw "github.com/nlnwa/gowarc"

	"github.com/blogharvest/blogharvest"
)

// TestMarshalRecordAsGowarc writes the same records (captures of small and
// large pages, a redirect chain, a resource, a metadata record, a revisit)
// through marshalRecord and through gowarc's Marshaler, and wants the
// same WARC file, byte for byte: the compressed members and the records
// inside them.
func TestMarshalRecordAsGowarc(t *testing.T) {
	at := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	rng := rand.New(rand.NewPCG(1, 2))
	noise := make([]byte, 300<<10) // over several 32 KB buffers and 64 KB deflate windows
	for i := range noise {
		noise[i] = "abcdefgh <>\n"[rng.IntN(12)]
	}
	write := func() []byte {
		w, err := NewWriter(Info{Filename: "objects/warc/x.warc.gz", Software: "bh 1", Crawl: "t", IDSeed: "urn:uuid:seed"}, at)
		if err != nil {
			t.Fatal(err)
		}
		hdr := map[string][]string{"Content-Type": {"text/html; charset=utf-8"}}
		for _, body := range [][]byte{nil, []byte("<p>post</p>"), noise[:40<<10], noise} {
			if _, err := w.Capture([]blogharvest.Exchange{{Method: "GET", URL: "http://example.com/post", Status: 200,
				RequestHeader: map[string][]string{"Accept": {"*/*"}}, ResponseHeader: hdr, Sent: at}}, body); err != nil {
				t.Fatal(err)
			}
		}
		page, err := w.Capture([]blogharvest.Exchange{
			{Method: "GET", URL: "http://example.com/old", Status: 301, ResponseHeader: map[string][]string{"Location": {"/new"}}, Sent: at},
			{Method: "GET", URL: "http://example.com/new", Status: 200, ResponseHeader: hdr, Sent: at}}, noise[:70<<10])
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Resource("http://example.com/shot.png", "image/png", at, noise[:90<<10]); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Metadata("http://example.com/new", at, page, []Link{{URL: "http://example.com/a.css"}}); err != nil {
			t.Fatal(err)
		}
		if _, err := w.Revisit(blogharvest.Exchange{Method: "GET", URL: "http://example.com/b.css", Status: 200,
			ResponseHeader: hdr, Sent: at.Add(time.Hour)}, []byte("p{}"),
			Original{URL: "http://example.com/a.css", Date: at, ID: page}); err != nil {
			t.Fatal(err)
		}
		return bytes.Clone(w.Bytes())
	}
	ours := write()
	marshal = func(bw *bufio.Writer, rec gw.WarcRecord) error {
		_, _, err := gw.NewMarshaler().Marshal(bw, rec, 0)
		return err
	}
	defer func() { marshal = marshalRecord }()
	theirs := write()
	if !bytes.Equal(ours, theirs) {
		t.Fatalf("marshalRecord wrote %d bytes, gowarc's Marshaler %d; they differ", len(ours), len(theirs))
	}
	recs, err := Read(ours)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) < 16 { // warcinfo, a request and a response per exchange (6), resource, metadata, revisit
		t.Errorf("read %d records back, want at least 16", len(recs))
	}
}
