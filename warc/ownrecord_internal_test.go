package warc

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
)

// ownCalls is one sequence of Writer calls: each call's outcome (the id
// or the error's presence) is logged to out.
type ownCalls func(w *Writer, out *strings.Builder)

// writeBoth runs calls on a new Writer through writeOwn and again through
// gowarc's builder only (viaGowarc), and returns both files, both logs
// and how many records gowarc built in the first run.
func writeBoth(t *testing.T, info Info, calls ownCalls) (ours, theirs []byte, ourLog, theirLog string, built int) {
	t.Helper()
	at := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	run := func() ([]byte, string, int) {
		w, err := NewWriter(info, at)
		if err != nil {
			t.Fatal(err)
		}
		var log strings.Builder
		calls(w, &log)
		fmt.Fprintf(&log, "index %q\n", w.Index())
		return bytes.Clone(w.Bytes()), log.String(), w.built
	}
	ours, ourLog, built = run()
	viaGowarc = true
	defer func() { viaGowarc = false }()
	theirs, theirLog, _ = run()
	return ours, theirs, ourLog, theirLog, built
}

// logged records one call's outcome: its id, or that it failed.
func logged(out *strings.Builder, what string, id string, err error) {
	if err != nil {
		fmt.Fprintf(out, "%s: error\n", what)
		return
	}
	fmt.Fprintf(out, "%s: %s\n", what, id)
}

// TestOwnRecordsAsGowarc writes the same records through writeOwn and
// through gowarc's record builder and wants the same WARC file byte for
// byte, the same ids, the same index and the same refusals: captures of
// every kind the harvest makes (redirects, 304s, truncated bodies, IP
// addresses, HTTP/2, hostile and international URLs, empty and large
// bodies, requests without a method), resources of any media type
// (application/http and application/warc-fields blocks included, and
// blocks whose HTTP header never ends), metadata records with and
// without links, revisits, and what gowarc's strict validation refuses
// (an IP address that is none, a URL whatwg-url rejects, a concurrent id
// that is no URI). It also wants the ordinary records written by
// writeOwn: with every record built by gowarc it fails.
func TestOwnRecordsAsGowarc(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	noise := make([]byte, 300<<10)
	for i := range noise {
		noise[i] = "abcdefgh <>\n\r"[rng.IntN(13)]
	}
	hdr := map[string][]string{"Content-Type": {"text/html; charset=utf-8"}, "X-Empty": {""}, "Set-Cookie": {"a=1", "b=2"},
		"X-Utf8": {"café ☕"}}
	urls := []string{"http://example.com/post", "https://blog.example/i.png?q=a b&r={\"x\":1}", "https://bücher.example/ß?ä=ö#frag",
		"http://example.com/%zz", "http://[::1]:8080/x", "https://example.com/a/../b/./c?", "http://example.com/\t tab"}
	calls := func(w *Writer, out *strings.Builder) {
		for i, u := range urls {
			for j, body := range [][]byte{nil, []byte("<p>post</p>"), noise[:40<<10], noise} {
				x := blogharvest.Exchange{Method: "GET", URL: u, Status: 200, RequestHeader: map[string][]string{"Accept": {"*/*"}},
					ResponseHeader: hdr, Sent: time.Unix(int64(1e9+i), 0)}
				switch j {
				case 1:
					x.RemoteIP, x.Proto, x.Reason = "192.0.2.1", "HTTP/2.0", "200 Fine"
				case 2:
					x.RemoteIP, x.Truncated, x.Method = "2001:db8::1", true, ""
				case 3:
					x.Received, x.Sent = x.Sent, time.Time{}
					x.ResponseHeader = map[string][]string{"Content-Encoding": {"gzip"}, "Content-Length": {"9"}}
				}
				id, err := w.Capture([]blogharvest.Exchange{x}, body)
				logged(out, fmt.Sprintf("capture %d/%d", i, j), id, err)
			}
		}
		id, err := w.Capture([]blogharvest.Exchange{
			{Method: "GET", URL: "http://example.com/old", Status: 301, ResponseHeader: map[string][]string{"Location": {"/new"}}, Body: []byte("moved")},
			{Method: "GET", URL: "http://example.com/new", Status: 304, ResponseHeader: hdr}}, noise[:70<<10])
		logged(out, "redirect to a 304", id, err)
		for _, ip := range []string{"not-an-ip", "256.1.1.1", "::ffff:192.0.2.1"} {
			id, err := w.Capture([]blogharvest.Exchange{{Method: "GET", URL: "http://example.com/ip", Status: 200, RemoteIP: ip}}, []byte("x"))
			logged(out, "ip "+ip, id, err)
		}
		for _, u := range []string{"http://exa mple.com/", "http://[::1/", "", "no scheme", "urn:dom:http://example.com/p"} {
			id, err := w.Resource(u, "text/html", time.Unix(1e9, 0), []byte("<html>"))
			logged(out, "resource url "+u, id, err)
		}
		for _, mt := range []string{"", "image/png", "APPLICATION/HTTP;msgtype=response", "application/http;msgtype=request",
			"application/warc-fields", "Application/Warc-Fields; x=y"} {
			for k, body := range [][]byte{nil, []byte("HT"), []byte("HTTP/1.1 200 OK\r\nA: b\r\n\r\nbody"), []byte("GET / HTTP/1.1\nA: b\n\nq"),
				[]byte("HTTP/1.1 200 OK\r\nno end"), []byte("a: b\r\nc: d\r\n"), noise[:90<<10]} {
				id, err := w.Resource("http://example.com/shot", mt, time.Time{}, body)
				logged(out, fmt.Sprintf("resource %q %d", mt, k), id, err)
			}
		}
		page, _ := w.Capture([]blogharvest.Exchange{{Method: "GET", URL: "http://example.com/page", Status: 200, ResponseHeader: hdr}}, []byte("<p>"))
		for _, to := range []string{page, "", "urn:x:y", "garbage text", "urn:uuid:ABCDEF-12"} {
			for _, links := range [][]Link{nil, {{URL: "http://example.com/a.css"}, {URL: "http://example.com/b c.js", Hop: "L", Context: "script/@src"}}} {
				id, err := w.Metadata("http://example.com/page", time.Unix(1e9, 0), to, links)
				logged(out, fmt.Sprintf("metadata %q %d", to, len(links)), id, err)
			}
		}
		id, err = w.Revisit(blogharvest.Exchange{Method: "GET", URL: "http://example.com/b.css", Status: 200, ResponseHeader: hdr},
			[]byte("p{}"), Original{URL: "http://example.com/a.css", Date: time.Unix(1e9, 0), ID: page})
		logged(out, "revisit", id, err)
	}
	for _, info := range []Info{
		{Filename: "objects/warc/x.warc.gz", Software: "bh 1", Crawl: "t", IDSeed: "urn:uuid:seed"},
		{Filename: "x.warc.gz", Software: "bh ☕", Organization: "Org", Crawl: "blog b, entry http://example.com/é", IDSeed: "s"},
	} {
		ours, theirs, ourLog, theirLog, built := writeBoth(t, info, calls)
		if ourLog != theirLog {
			a, b := strings.Split(ourLog, "\n"), strings.Split(theirLog, "\n")
			for i := range min(len(a), len(b)) {
				if a[i] != b[i] {
					t.Errorf("the calls' outcomes differ: own %q, gowarc %q", a[i], b[i])
				}
			}
		}
		if !bytes.Equal(ours, theirs) {
			t.Errorf("own records: %d bytes, gowarc's builder %d; they differ", len(ours), len(theirs))
		}
		// Built by gowarc: the revisit, the records a check left to it
		// (the refused ones, the blocks whose HTTP header does not end,
		// ids that are not this package's, a resource with a URL
		// whatwg-url refuses) and nothing else.
		t.Logf("gowarc built %d records", built)
		if built > 40 {
			t.Errorf("gowarc built %d records, want the ordinary ones written without it", built)
		}
		if !strings.Contains(ourLog, "ip not-an-ip: error") || !strings.Contains(ourLog, "resource url : error") {
			t.Errorf("a record gowarc refuses was written:\n%s", ourLog)
		}
	}
}

// TestOwnRecordsOfFilesAsGowarc writes every page, picture, style sheet
// and XML file of the module's test data as a capture (CaptureSum, its
// payload digest given) and as a resource, through writeOwn and through
// gowarc's builder (which hashes the payload itself), and wants the same
// file.
func TestOwnRecordsOfFilesAsGowarc(t *testing.T) {
	var files []string
	filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && (d.Name() == "eval" || strings.HasPrefix(d.Name(), ".")) && p != ".." {
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".html", ".png", ".jpg", ".css", ".xml", ".gz", ".json":
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 100 {
		t.Fatalf("found %d files", len(files))
	}
	calls := func(w *Writer, out *strings.Builder) {
		for _, f := range files {
			body, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			u := "http://example.com/" + filepath.ToSlash(f)
			// the payload's digest given, as the packager gives it
			id, err := w.CaptureSum([]blogharvest.Exchange{{Method: "GET", URL: u, Status: 200, RemoteIP: "192.0.2.7",
				RequestHeader: map[string][]string{"User-Agent": {"bh"}}, ResponseHeader: map[string][]string{"Content-Type": {"x/y"}}}}, body,
				blogharvest.DigestOf(body))
			logged(out, f, id, err)
			id, err = w.Resource("urn:dom:"+u, "text/html", time.Unix(1e9, 0), body)
			logged(out, "dom "+f, id, err)
		}
	}
	ours, theirs, ourLog, theirLog, _ := writeBoth(t, Info{Filename: "f.warc.gz", Software: "bh", Crawl: "files", IDSeed: "files"}, calls)
	if ourLog != theirLog {
		t.Errorf("the calls' outcomes differ")
	}
	if !bytes.Equal(ours, theirs) {
		t.Errorf("own records of %d files: %d bytes, gowarc's builder %d; they differ", len(files), len(ours), len(theirs))
	}
}

// TestCaptureSumAsCapture writes captures of every kind (a redirect
// chain, a 304, an empty payload, a truncated hop) with CaptureSum, the
// payload's digest given, and with Capture, and wants the same file; and
// shows that the digest given is the one written, the payload not hashed
// again, for the last response only and not for a 304's empty payload.
func TestCaptureSumAsCapture(t *testing.T) {
	at := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	hdr := map[string][]string{"Content-Type": {"text/html"}}
	hop := blogharvest.Exchange{Method: "GET", URL: "http://example.com/a", Status: 301, Reason: "301 Moved Permanently",
		ResponseHeader: map[string][]string{"Location": {"http://example.com/b"}}, Body: []byte("moved"), Truncated: true}
	captures := []struct {
		xs      []blogharvest.Exchange
		payload []byte
	}{
		{[]blogharvest.Exchange{{Method: "GET", URL: "http://example.com/p", Status: 200, ResponseHeader: hdr}}, []byte("<p>page</p>")},
		{[]blogharvest.Exchange{hop, {Method: "GET", URL: "http://example.com/b", Status: 200, ResponseHeader: hdr}}, []byte("<p>b</p>")},
		{[]blogharvest.Exchange{{Method: "GET", URL: "http://example.com/n", Status: 304, ResponseHeader: hdr}}, []byte("<p>kept</p>")},
		{[]blogharvest.Exchange{{URL: "http://example.com/e", Status: 200}}, []byte{}},
		{[]blogharvest.Exchange{{Method: "GET", URL: "http://example.com/nil", Status: 200}}, nil},
	}
	write := func(sum func([]byte) string) []byte {
		w, err := NewWriter(Info{Filename: "s.warc.gz", Software: "bh", Crawl: "sum", IDSeed: "sum"}, at)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range captures {
			if _, err := w.CaptureSum(c.xs, c.payload, sum(c.payload)); err != nil {
				t.Fatal(err)
			}
		}
		w.Index()
		return bytes.Clone(w.Bytes())
	}
	unknown := write(func([]byte) string { return "" })
	if given := write(blogharvest.DigestOf); !bytes.Equal(given, unknown) {
		t.Errorf("CaptureSum with the payloads' digests: %d bytes, without %d; they differ", len(given), len(unknown))
	}
	// a wrong digest given is written as given: the payload was not
	// hashed again (4 payloads: the page, the chain's last, the empty and
	// the nil one; not the redirect hop, not the 304's)
	bogus := "WARC-Payload-Digest: sha256:" + strings.Repeat("0", 64) + "\r\n"
	z, err := gzip.NewReader(bytes.NewReader(write(func([]byte) string { return strings.Repeat("0", 64) })))
	if err != nil {
		t.Fatal(err)
	}
	file, err := io.ReadAll(z)
	if err != nil {
		t.Fatal(err)
	}
	if n, all := strings.Count(string(file), bogus), strings.Count(string(file), "WARC-Payload-Digest: "); n != 4 || all != 11 {
		t.Errorf("%d of %d payload digests are the one given, want 4 of 11 (the requests' among them):\n%s", n, all, file)
	}
}
