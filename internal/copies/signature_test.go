package copies

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"fmt"
	"image"
	"image/gif"
	"image/jpeg"
	"image/png"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/blogharvest/blogharvest/internal/siegfried"
	"github.com/blogharvest/blogharvest/internal/siegfried/pkg/static"
)

// TestInflatedSignaturesIdentifyAsUpstream checks that siegfried loaded
// from the inflated signature file (static.New, what the archive uses)
// gives every identification the way upstream loads it gives
// (static.NewDeflated: inflating the compiled-in deflated file): the same
// formats, bases and warnings, in the same order, for the module's test
// files, the corpus of ../shared/corpus when it is there (its pages,
// feeds and JSON), and files of common kinds made here (PNG, JPEG, GIF,
// gzip, zip, PDF, WARC, plain text, empty).
func TestInflatedSignaturesIdentifyAsUpstream(t *testing.T) {
	fast, upstream := static.New(), static.NewDeflated()
	if fast == nil || upstream == nil {
		t.Fatalf("static.New() = %v, static.NewDeflated() = %v", fast, upstream)
	}
	if f, u := fmt.Sprint(fast.Identifiers(), fast.Fields()), fmt.Sprint(upstream.Identifiers(), upstream.Fields()); f != u {
		t.Errorf("the identifiers differ:\ninflated: %s\nupstream: %s", f, u)
	}
	n := 0
	check := func(name string, b []byte) {
		t.Helper()
		n++
		f, u := identification(t, fast, name, b), identification(t, upstream, name, b)
		if f != u {
			t.Errorf("%s: inflated signatures say\n%s\nupstream's load says\n%s", name, f, u)
		}
	}
	for name, b := range madeFiles(t) {
		check(name, b)
	}
	for _, root := range []string{"../../testdata", "../../aip/testdata", "../../../shared/corpus"} {
		if _, err := os.Stat(root); err != nil {
			t.Logf("%s: not there (%v)", root, err)
			continue
		}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			check(p, b)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d files identified alike", n)
	if n < 20 {
		t.Errorf("only %d files compared", n)
	}
}

// identification returns every identification siegfried makes of b, a file
// called name, with all its values, one a line.
func identification(t *testing.T, sf *siegfried.Siegfried, name string, b []byte) string {
	t.Helper()
	ids, err := sf.Identify(bytes.NewReader(b), filepath.Base(name), "")
	if err != nil {
		return "error: " + err.Error()
	}
	var s strings.Builder
	for _, id := range ids {
		s.WriteString(strings.Join(id.Values(), " | "))
		s.WriteByte('\n')
	}
	return s.String()
}

// madeFiles returns files of common kinds, made with the standard library,
// by name.
func madeFiles(t *testing.T) map[string][]byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, 16, 16))
	m := map[string][]byte{
		"empty":        nil,
		"a.txt":        []byte("plain text, a line of it\n"),
		"a.pdf":        []byte("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n"),
		"a.warc":       []byte("WARC/1.1\r\nWARC-Type: warcinfo\r\nWARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-000000000000>\r\nWARC-Date: 2026-01-01T00:00:00Z\r\nContent-Length: 0\r\n\r\n\r\n\r\n"),
		"a.html":       []byte(htmlPage),
		"noext":        []byte(htmlPage),
		"a.xml":        []byte(`<?xml version="1.0" encoding="utf-8"?><rss version="2.0"><channel><title>t</title></channel></rss>`),
		"a.atom":       []byte(`<?xml version="1.0" encoding="utf-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>t</title></feed>`),
		"a.svg":        []byte(`<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>`),
		"a.json":       []byte(`{"a": [1, 2, 3]}`),
		"a.css":        []byte("body { color: red }\n"),
		"wrongext.png": []byte(htmlPage),
	}
	var buf bytes.Buffer
	for name, enc := range map[string]func() error{
		"a.png": func() error { return png.Encode(&buf, img) },
		"a.jpg": func() error { return jpeg.Encode(&buf, img, nil) },
		"a.gif": func() error { return gif.Encode(&buf, img, nil) },
		"a.gz": func() error {
			z := gzip.NewWriter(&buf)
			z.Write([]byte(htmlPage))
			return z.Close()
		},
		"a.zip": func() error {
			z := zip.NewWriter(&buf)
			w, _ := z.Create("a.html")
			w.Write([]byte(htmlPage))
			return z.Close()
		},
	} {
		buf.Reset()
		if err := enc(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		m[name] = bytes.Clone(buf.Bytes())
	}
	return m
}

// TestInflatedSignatureIsUpstreams checks the inflated signature file
// byte for byte: upstream's deflated file (the byte literal of
// pkg/static/signature.go) inflated here with compress/flate, after its
// six-byte header, is the content of pkg/static/signature.sf (which gen.sh
// writes with perl's zlib); so both loads read the same bytes.
func TestInflatedSignatureIsUpstreams(t *testing.T) {
	src, err := os.ReadFile("../siegfried/pkg/static/signature.go")
	if err != nil {
		t.Fatal(err)
	}
	var deflated []byte
	for _, m := range regexp.MustCompile(`0x([0-9a-f]{1,2})`).FindAllSubmatch(src, -1) {
		v, _ := strconv.ParseUint(string(m[1]), 16, 8)
		deflated = append(deflated, byte(v))
	}
	inflated, err := os.ReadFile("../siegfried/pkg/static/signature.sf")
	if err != nil {
		t.Fatal(err)
	}
	const head = 6 // "sf\x00\xff", major and minor version
	if len(deflated) < head || len(inflated) < head || !bytes.Equal(deflated[:head], inflated[:head]) {
		t.Fatalf("headers differ: %q and %q", deflated[:min(head, len(deflated))], inflated[:min(head, len(inflated))])
	}
	want, err := io.ReadAll(flate.NewReader(bytes.NewReader(deflated[head:])))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(inflated[head:], want) {
		t.Errorf("signature.sf holds %d bytes after its header, upstream's file inflates to %d other bytes", len(inflated)-head, len(want))
	}
}

// BenchmarkSiegfriedLoad loads the compiled-in signatures and makes a
// first identification of a small HTML page (what a crawl pays once, at
// its first bag: the load, then the byte matcher's automaton), from the
// inflated file (static.New) and upstream's way (static.NewDeflated).
// Besides go test's figures it reports cpu-ns/op, the process's user and
// system CPU per load (getrusage), which a loaded machine inflates less
// than the wall clock.
func BenchmarkSiegfriedLoad(b *testing.B) {
	for _, bc := range []struct {
		name string
		load func() *siegfried.Siegfried
	}{{"inflated", static.New}, {"deflated", static.NewDeflated}} {
		for _, first := range []bool{false, true} {
			name := bc.name
			if first {
				name += "+identify"
			}
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				start := cpuTime()
				for b.Loop() {
					sf := bc.load()
					if first {
						if _, err := sf.Identify(strings.NewReader(htmlPage), "a.html", ""); err != nil {
							b.Fatal(err)
						}
					}
				}
				b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}

// cpuTime returns the process's user and system CPU time so far, in ns.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
