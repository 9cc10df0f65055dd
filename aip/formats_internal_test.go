package aip

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/internal/siegfried/pkg/static"
)

// TestIdentifyPRONOM identifies real formats with the compiled-in
// signatures: HTML by its bytes, PNG by its signature, a file with no
// signature and a misleading name as no PUID.
func TestIdentifyPRONOM(t *testing.T) {
	cases := []struct {
		rel, body, puid string
	}{
		{"objects/page/a.html", "<!DOCTYPE html><html><head><title>x</title></head><body><p>x</p></body></html>", "fmt/471"},
		{"objects/media/a.png", string(tinyPNG), "fmt/11"},
		{"objects/media/b.png", "not a png at all", ""},
	}
	for _, c := range cases {
		it := memItem(c.rel, []byte(c.body), "", "")
		it.generated = false // a captured file
		f, err := it.identify()
		if err != nil {
			t.Fatal(err)
		}
		if f.puid != c.puid {
			t.Errorf("%s: PUID %q (%+v), want %q", c.rel, f.puid, f, c.puid)
		}
	}
}

// TestIdentifyGeneratedOncePerKind shows that a file the packager writes
// is identified by siegfried once per kind (extension) and the others of
// that kind take the first one's result: a second ".gz" file that is not
// gzip at all still gets the first one's answer, which only a skipped scan gives,
// while a captured file with the same bytes is scanned and gets none.
func TestIdentifyGeneratedOncePerKind(t *testing.T) {
	// The per-kind results are process-wide: start from none, and leave
	// none of this test's odd files behind for the goldens' packages.
	resetGenerated := func() {
		generated.mu.Lock()
		generated.m = nil
		generated.mu.Unlock()
	}
	resetGenerated()
	t.Cleanup(resetGenerated)
	var gz bytes.Buffer
	z := gzip.NewWriter(&gz)
	z.Write([]byte("WARC/1.1\r\n"))
	z.Close()
	first, err := memItem("objects/warc/a.warc.gz", gz.Bytes(), "metadata", "application/warc").identify()
	if err != nil || first.puid != gzipPUID {
		t.Fatalf("first WARC: %+v, %v; want %s (a bare header is no WARC record)", first, err, gzipPUID)
	}
	second, err := memItem("objects/warc/b.warc.gz", []byte("plain text, not gzip"), "metadata", "application/warc").identify()
	if err != nil || second != first {
		t.Errorf("second generated .gz: %+v, %v; want the first one's %+v", second, err, first)
	}
	captured := memItem("objects/media/b.warc.gz", []byte("plain text, not gzip"), "", "")
	captured.generated = false
	if f, err := captured.identify(); err != nil || f.puid == "x-fmt/266" {
		t.Errorf("captured non-gzip .gz: %+v, %v; want it scanned, not GZIP", f, err)
	}
}

// tinyPNG is a 1×1 PNG.
var tinyPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89" +
	"\x00\x00\x00\rIDATx\x9cc\xf8\xff\xff?\x00\x05\xfe\x02\xfe\xa7\x35\x81\x84\x00\x00\x00\x00IEND\xaeB`\x82")

// BenchmarkSiegfriedLoad measures loading the compiled-in signature file,
// paid once per process at the first identification.
func BenchmarkSiegfriedLoad(b *testing.B) {
	for b.Loop() {
		if static.New() == nil {
			b.Fatal("no siegfried")
		}
	}
}

// BenchmarkIdentify measures identifying one 40 KB HTML page, the cost
// paid per payload file.
func BenchmarkIdentify(b *testing.B) {
	page := []byte("<!DOCTYPE html><html><head><title>x</title></head><body>" +
		strings.Repeat("<p>Some words of a blog post, and more.</p>\n", 1000) + "</body></html>")
	it := memItem("objects/page/post.html", page, "", "")
	it.generated = false // a captured page, scanned each time
	it.identify()        // load once
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		if _, err := it.identify(); err != nil {
			b.Fatal(err)
		}
	}
}

// TestIdentifyConcurrent identifies from several goroutines at once, as
// concurrent Writer calls do (run it with -race).
func TestIdentifyConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				f, err := memItem(fmt.Sprintf("objects/media/%d.png", i), tinyPNG, "", "").identify()
				if err != nil || f.puid != "fmt/11" {
					t.Errorf("identify: %+v, %v", f, err)
				}
			}
		}()
	}
	wg.Wait()
}

// TestIdentifyEmptyAndFailure: an empty file has no format and no error; a
// file that cannot be read fails identification, and its event says so.
func TestIdentifyEmptyAndFailure(t *testing.T) {
	if f, err := memItem("logs/index.cdxj", nil, "", "").identify(); err != nil || f.puid != "" {
		t.Errorf("empty file: %+v, %v", f, err)
	}
	gone := &item{rel: "objects/media/gone.png", src: t.TempDir() + "/gone.png", size: 3}
	_, err := gone.identify()
	if err == nil {
		t.Fatal("identifying a missing file succeeded")
	}
	if ev := formatEvent("0001", "object-0001", gone, ids{}, format{}, err, clockForTest); ev.Outcome != "failure" {
		t.Errorf("event outcome %q, want failure", ev.Outcome)
	}
}

var clockForTest = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

// TestIdentifyWARC identifies the package's WARC file (gzip per record) as
// the WARC format fmt/1355, not as the gzip container; a gzip file of
// anything else in the WARC folder stays GZIP Format.
func TestIdentifyWARC(t *testing.T) {
	rec := "WARC/1.1\r\nWARC-Type: warcinfo\r\nWARC-Date: 2024-03-05T09:30:00Z\r\n" +
		"WARC-Record-ID: <urn:uuid:6f5c4b9e-0d1e-4f1a-9b2c-3d4e5f6a7b8c>\r\nContent-Type: application/warc-fields\r\n" +
		"Content-Length: 24\r\n\r\nsoftware: blogharvest\r\n\r\n\r\n"
	cases := []struct {
		rel, body, puid string
	}{
		{"objects/warc/post-1a2b3c4d.warc.gz", rec, warcPUID},
		{"objects/warc/post-1a2b3c4d.warc.gz", "not a WARC record at all", gzipPUID},
	}
	for _, c := range cases {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(c.body))
		zw.Close()
		it := memItem(c.rel, b.Bytes(), "", "")
		it.generated = false // scanned each time, not taken from the per-kind result of generated files
		f, err := it.identify()
		if err != nil {
			t.Fatal(err)
		}
		if f.puid != c.puid {
			t.Errorf("%.30q: PUID %q (%+v), want %q", c.body, f.puid, f, c.puid)
		}
	}
}
