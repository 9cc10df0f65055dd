package warc_test

import (
	"bytes"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/warc"
)

// BenchmarkEntryWARC writes the WARC of a typical demo entry: a 20 KB page
// and a 4 KB comment feed, each with its request, and indexes it.
func BenchmarkEntryWARC(b *testing.B) {
	page := bytes.Repeat([]byte("<p>Some words of a post.</p>\n"), 700)
	feed := bytes.Repeat([]byte("<item>a comment</item>\n"), 180)
	hdr := map[string][]string{"Content-Type": {"text/html; charset=utf-8"}, "Last-Modified": {"Mon, 01 Jan 2024 00:00:00 GMT"}}
	req := map[string][]string{"Host": {"blog.example"}, "User-Agent": {"blogharvest/0.1"}, "Accept": {"*/*"}}
	x := func(u string) []blogharvest.Exchange {
		return []blogharvest.Exchange{{Method: "GET", URL: u, RequestHeader: req, Proto: "HTTP/1.1", Status: 200, ResponseHeader: hdr, Sent: at}}
	}
	var size int
	for b.Loop() {
		w, err := warc.NewWriter(warc.Info{Filename: "objects/warc/e.warc.gz", Software: "blogharvest", Crawl: "bench", IDSeed: "urn:uuid:x"}, at)
		if err != nil {
			b.Fatal(err)
		}
		w.Capture(x("http://blog.example/2024/01/post/"), page)
		w.Capture(x("http://blog.example/2024/01/post/feed/"), feed)
		size = len(w.Bytes()) + len(w.Index())
	}
	b.ReportMetric(float64(size), "bytes/WARC")
}
