package capture_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/toolskip"
	"github.com/blogharvest/blogharvest/warc"
)

// TestBrowserRecordsHTTPSRequisites runs the real binary, `crawl -url
// https://… -render always`, behind a CONNECT proxy (to which HTTPS is an
// opaque tunnel), on a blog whose posts load a JSON document and an image
// only by script: no parsing of the page can find them, so they reach the
// archive only if the browser's own responses are recorded through the
// DevTools protocol. Both must be in the blog's requisites package as
// response records holding the bytes served, and each entry page's
// metadata record (WARC-Concurrent-To its response) must name them; no
// record is WARC-Concurrent-To a record of another URI, a revisit record
// names its original, and webrecorder's warcio must read every record.
func TestBrowserRecordsHTTPSRequisites(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process and a browser")
	}
	t.Parallel()
	if _, err := exec.LookPath("chromium"); err != nil {
		toolskip.Missing(t, "chromium", err)
	}
	const (
		tide  = `{"tide":"high water at 06:42, low at 12:55","note":"TIDE-TABLE-5521"}`
		boat  = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20"><rect width="40" height="20" fill="#246"/><!-- BOAT-7713 --></svg>`
		style = `.entry-content p { line-height: 1.5 } /* STYLE-4410 */`
	)
	embeds := `<link rel="stylesheet" href="/css/harbour.css"><script>fetch("/data/" + "tide.json").then(function(r){return r.json()}).then(function(d){var p=document.createElement('p');p.textContent=d.tide;document.querySelector('.entry-content').appendChild(p);var i=new Image();i.src="/img/"+"boat.svg";document.querySelector('.entry-content').appendChild(i)});</script>`
	base, _, env := harbourBlog(t, embeds, map[string]string{"/data/tide.json": tide, "/img/boat.svg": boat, "/css/harbour.css": style})
	out := t.TempDir()
	cmd := exec.Command(daemontest.Binary(), "crawl", "-url", base+"/", "-out", out, "-delay", "1ms", "-render", "always")
	cmd.Env = env
	logs, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("crawl: %v\n%s", err, daemontest.LastLines(string(logs), 30))
	}

	// The requisites package: the bytes served, over HTTPS.
	want := map[string]string{base + "/data/tide.json": tide, base + "/img/boat.svg": boat, base + "/css/harbour.css": style}
	reqs, _ := filepath.Glob(filepath.Join(out, "*", "requisites", "v*", "data", "objects", "warc", "*.warc.gz"))
	stored := map[string]bool{}
	for _, p := range reqs {
		for _, r := range readWARC(t, p) {
			if body, ok := want[r.TargetURI]; ok && r.Type == "response" {
				if string(r.Payload) != body {
					t.Errorf("%s: %s holds %q, want %q", p, r.TargetURI, r.Payload, body)
				}
				stored[r.TargetURI] = true
			}
		}
	}
	for u := range want {
		if !stored[u] {
			t.Errorf("no response record of %s in the requisites packages %v", u, reqs)
		}
	}

	// The entries: the page's metadata record names each requisite; a
	// revisit record only for a fetch of the requisite the browser made
	// again for that page, referring to the stored response by its id.
	entries, _ := filepath.Glob(filepath.Join(out, "*", "entries", "*", "*", "v1", "data", "objects", "warc", "*.warc.gz"))
	if len(entries) != 2 {
		t.Fatalf("%d entry WARCs, want 2\n%s", len(entries), daemontest.LastLines(string(logs), 20))
	}
	for _, p := range entries {
		recs := readWARC(t, p)
		page := ""
		byID := map[string]warc.Record{}
		for _, r := range recs {
			byID[r.ID] = r
			if r.Type == "response" && strings.HasPrefix(r.TargetURI, base+"/notes/") && page == "" {
				page = r.ID
			}
		}
		if page == "" {
			t.Fatalf("%s: no response record of the entry's page", p)
		}
		var outlinks string
		for _, r := range recs {
			if c, ok := byID[r.ConcurrentTo]; ok && c.TargetURI != r.TargetURI {
				t.Errorf("%s: %s record of %s is WARC-Concurrent-To the %s record of %s", p, r.Type, r.TargetURI, c.Type, c.TargetURI)
			}
			switch {
			case r.Type == "metadata" && r.ConcurrentTo == page:
				outlinks = string(r.Payload)
			case r.Type == "revisit" && want[r.TargetURI] != "" && r.RefersTo == "":
				t.Errorf("%s: the revisit record of %s names no original (WARC-Refers-To)", p, r.TargetURI)
			}
		}
		for u := range want {
			if !strings.Contains(outlinks, "outlink: "+u+" E ") {
				t.Errorf("%s: the page's metadata record does not name %s:\n%s", p, u, outlinks)
			}
		}
	}
	checkWARCs(t, out)
}

// readWARC reads the WARC file p with package warc (every digest checked).
func readWARC(t *testing.T, p string) []warc.Record {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := warc.Read(data)
	if err != nil {
		t.Errorf("%s: %v", p, err)
	}
	return recs
}
