package capture_test

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/fixture"
	"github.com/blogharvest/blogharvest/internal/toolskip"
	"github.com/blogharvest/blogharvest/warc"
)

// warcioResult is what testdata/warcio/verify.mjs prints for one file.
type warcioResult struct {
	File      string
	Records   int
	Types     map[string]int
	Responses []struct {
		URL    string
		Status int
		Length int
	}
	Errors []string
}

// warcioDir returns the folder holding node_modules/warcio (npm install
// --prefix DIR warcio@2.4.11, as .ci/run does): $BLOGHARVEST_WARCIO, or
// blogharvest-warcio in the user's cache folder. The test skips when node
// or warcio is absent.
func warcioDir(t *testing.T) string {
	t.Helper()
	dir, why := findWarcio()
	if dir == "" {
		toolskip.Missing(t, "warcio (npm)", why)
	}
	return dir
}

// findWarcio returns warcioDir's folder, or "" and why there is none.
func findWarcio() (dir, why string) {
	if _, err := exec.LookPath("node"); err != nil {
		return "", "node is not installed"
	}
	dir = os.Getenv("BLOGHARVEST_WARCIO")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			return "", "no cache folder: " + err.Error()
		}
		dir = filepath.Join(cache, "blogharvest-warcio")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "warcio", "package.json")); err != nil {
		return "", fmt.Sprintf("warcio is not installed in %s (npm install --prefix %s warcio@2.4.11)", dir, dir)
	}
	return dir, ""
}

// checkWARCs checks that every AIP under archive holds one WARC whose
// records all read back with their digests matching: with warcio when it
// is installed, and with package warc (gowarc) in any case. It returns
// warcio's findings by file, nil without warcio.
func checkWARCs(t *testing.T, archive string) map[string]warcioResult {
	var files []string
	for bag, ws := range bagWARCs(t, archive) {
		if len(ws) != 1 {
			t.Errorf("%s holds %d WARC files, want 1", bag, len(ws))
			continue
		}
		data, err := os.ReadFile(ws[0])
		if err == nil {
			_, err = warc.Read(data)
		}
		if err != nil {
			t.Errorf("%s: %v", ws[0], err)
		}
		files = append(files, ws[0])
	}
	dir, why := findWarcio()
	if dir == "" {
		t.Log("WARCs not read with warcio:", why)
		return nil
	}
	res := readWithWarcio(t, dir, files)
	for f, r := range res {
		for _, e := range r.Errors {
			t.Errorf("%s: warcio: %s", f, e)
		}
	}
	return res
}

// readWithWarcio reads every file with webrecorder's warcio and returns
// what it found, by file.
func readWithWarcio(t *testing.T, dir string, files []string) map[string]warcioResult {
	t.Helper()
	out, err := exec.Command("node", append([]string{filepath.Join("testdata", "warcio", "verify.mjs"), dir}, files...)...).Output()
	if err != nil {
		t.Fatalf("node verify.mjs: %v\n%s", err, out)
	}
	res := map[string]warcioResult{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r warcioResult
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("verify.mjs printed %q: %v", line, err)
		}
		res[r.File] = r
	}
	if len(res) != len(files) {
		t.Fatalf("warcio read %d files, want %d", len(res), len(files))
	}
	return res
}

// bagWARCs returns the bags under root and, by bag, its WARC files.
func bagWARCs(t *testing.T, root string) map[string][]string {
	t.Helper()
	bags := map[string][]string{}
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Name() == "bagit.txt" {
			bag := filepath.Dir(p)
			bags[bag], _ = filepath.Glob(filepath.Join(bag, "data", "objects", "warc", "*.warc.gz"))
		}
		return nil
	})
	if len(bags) == 0 {
		t.Fatalf("no bags under %s", root)
	}
	return bags
}

// TestDemoWARCsReadByWarcio: every AIP of the demo archive holds one WARC,
// and webrecorder's warcio reads all its records with every digest
// matching: entries hold the request and response of their page, the
// Blog AIP those of its home page, feed and robots.txt. A WARC with one
// byte changed is caught, so the reading can fail.
func TestDemoWARCsReadByWarcio(t *testing.T) {
	t.Parallel()
	dir := warcioDir(t)
	out := daemontest.DemoArchive(t)
	res := checkWARCs(t, out)
	bags := bagWARCs(t, out)
	var files []string
	entries := 0
	for bag, ws := range bags {
		if len(ws) != 1 {
			continue // reported by checkWARCs
		}
		files = append(files, ws[0])
		r := res[ws[0]]
		// A page requisite stored once per blog is a revisit record here,
		// after its request (aip/requisites.go).
		if r.Types["warcinfo"] != 1 || r.Types["request"] == 0 || r.Types["response"]+r.Types["revisit"] < r.Types["request"] {
			t.Errorf("%s: record types %v", ws[0], r.Types)
		}
		urls := ""
		for _, x := range r.Responses {
			urls += x.URL + " "
		}
		sep := string(filepath.Separator)
		if strings.Contains(bag, sep+"entries"+sep) {
			entries++
		} else if strings.Contains(bag, sep+"requisites"+sep) {
			continue // the blog's requisites package: its stylesheets, scripts and images
		} else if !strings.Contains(urls, "/robots.txt") || !strings.Contains(urls, "/feed") {
			t.Errorf("Blog AIP WARC lacks robots.txt or the feed: %s", urls)
		}
	}
	if entries == 0 {
		t.Error("no entry AIPs")
	}
	if len(files) == 0 {
		t.Fatal("no WARC")
	}
	bad := filepath.Join(t.TempDir(), "bad.warc.gz")
	os.WriteFile(bad, flipPayloadByte(t, files[0]), 0o644)
	if r := readWithWarcio(t, dir, []string{bad})[bad]; len(r.Errors) == 0 {
		t.Errorf("warcio found nothing wrong in a WARC with a changed payload byte: %+v", r)
	}
}

// flipPayloadByte returns the WARC file p with the last byte of its first
// response record changed (that member recompressed).
func flipPayloadByte(t *testing.T, p string) []byte {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	r, done := bytes.NewReader(data), false
	for r.Len() > 0 {
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatal(err)
		}
		zr.Multistream(false)
		m, _ := io.ReadAll(zr)
		if !done && bytes.Contains(m, []byte("WARC-Type: response")) {
			m = bytes.TrimSuffix(m, []byte("\r\n\r\n"))
			m[len(m)-1] ^= 1
			m = append(m, "\r\n\r\n"...)
			done = true
		}
		zw := gzip.NewWriter(&out)
		zw.Write(m)
		zw.Close()
	}
	return out.Bytes()
}

// TestReplayEntryFromCDXJ replays one entry as a wayback tool would: the
// permalink looked up in the bag's CDXJ index gives the WARC file and
// offset; the record there holds exactly the bytes and headers the server
// sends for that URL, and the bytes of the page's objects/ file.
func TestReplayEntryFromCDXJ(t *testing.T) {
	t.Parallel()
	site := fixture.MustNew("static")
	srv := httptest.NewServer(site.Handler())
	defer srv.Close()
	out := t.TempDir()
	if code, stdout, stderr := daemontest.Run(t, "crawl", "-url", srv.URL+"/", "-out", out, "-delay", "1ms", "-render", "never"); code != 0 {
		t.Fatalf("crawl: exit %d\n%s\n%s", code, stdout, stderr)
	}
	bags, _ := filepath.Glob(filepath.Join(out, "*", "entries", "*", "*", "v1"))
	if len(bags) == 0 {
		t.Fatal("no entry AIP")
	}
	bag := bags[0]
	permalink := bagInfo(t, bag, "External-Identifier")
	index, err := os.ReadFile(filepath.Join(bag, "data", "logs", "index.cdxj"))
	if err != nil {
		t.Fatal(err)
	}
	lines, err := warc.ParseIndex(index)
	if err != nil {
		t.Fatal(err)
	}
	hits := warc.Lookup(lines, permalink)
	if len(hits) != 1 {
		t.Fatalf("CDXJ lookup of %s: %d lines\n%s", permalink, len(hits), index)
	}
	data, err := os.ReadFile(filepath.Join(bag, "data", filepath.FromSlash(hits[0].Filename)))
	if err != nil {
		t.Fatal(err)
	}
	off, _ := strconv.ParseInt(hits[0].Offset, 10, 64)
	rec, err := warc.ReadAt(data, off)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(permalink)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if rec.Type != "response" || rec.TargetURI != permalink || rec.Status != resp.StatusCode || !bytes.Equal(rec.Payload, body) {
		t.Fatalf("replayed %s %s status %d, %d bytes; the server sends status %d, %d bytes",
			rec.Type, rec.TargetURI, rec.Status, len(rec.Payload), resp.StatusCode, len(body))
	}
	for k := range resp.Header {
		if k != "Date" && rec.Header.Get(k) != resp.Header.Get(k) {
			t.Errorf("header %s replayed as %q, the server sends %q", k, rec.Header.Get(k), resp.Header.Get(k))
		}
	}
	pages, _ := filepath.Glob(filepath.Join(bag, "data", "objects", "page", "*"))
	found := false
	for _, p := range pages {
		b, _ := os.ReadFile(p)
		found = found || bytes.Equal(b, rec.Payload)
	}
	if !found {
		t.Errorf("no objects/page file holds the replayed bytes (%d files)", len(pages))
	}
}

// bagInfo returns the value of a bag-info.txt field.
func bagInfo(t *testing.T, bag, field string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(bag, "bag-info.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, field+": "); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("bag-info.txt of %s has no %s", bag, field)
	return ""
}
