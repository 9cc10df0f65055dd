package replay_test

import (
	"archive/zip"
	"bufio"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/toolskip"
)

// jsWACZ returns the js-wacz command (npm @harvard-lil/js-wacz@0.1.6,
// installed by .ci/run into $BLOGHARVEST_JSWACZ or blogharvest-jswacz in
// the user's cache folder); the test skips without node or js-wacz.
func jsWACZ(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		toolskip.Missing(t, "node", err)
	}
	dir := os.Getenv("BLOGHARVEST_JSWACZ")
	if dir == "" {
		cache, err := os.UserCacheDir()
		if err != nil {
			t.Skip("js-wacz: no cache folder: " + err.Error())
		}
		dir = filepath.Join(cache, "blogharvest-jswacz")
	}
	bin := filepath.Join(dir, "node_modules", ".bin", "js-wacz")
	if _, err := os.Stat(bin); err != nil {
		t.Skipf("js-wacz not installed (%v): .ci/run installs npm @harvard-lil/js-wacz@0.1.6 there; npm was unreachable", err)
	}
	return bin
}

// TestWACZMatchesJsWacz cross-checks `export -format wacz` with the
// Harvard Library Innovation Lab's js-wacz, which builds a WACZ of its own
// from the WARCs of ours (reindexing them with webrecorder's warcio and
// detecting pages): its CDXJ index must be ours line for line (SURT key,
// timestamp, url, mime, status, digest, length, offset, filename; js-wacz
// writes the digest without its "sha256:" label), and every page of our
// pages.jsonl must be one it detects, with the same timestamp, and carry a
// title (the home page its blog's, each entry its own). Pages it
// detects that ours does not list must be pages our index holds (an
// entry's second comment page is part of the entry, not a page of its
// own).
func TestWACZMatchesJsWacz(t *testing.T) {
	t.Parallel()
	bin := jsWACZ(t)
	out := daemontest.DemoArchive(t)
	blogs, _ := filepath.Glob(filepath.Join(out, "*", "blog"))
	if len(blogs) != 1 {
		t.Fatalf("%d blogs in the demo archive", len(blogs))
	}
	ours := filepath.Join(t.TempDir(), "ours.wacz")
	if code, so, se := daemontest.Run(t, "export", filepath.Dir(blogs[0]), "-format", "wacz", "-out", ours); code != 0 {
		t.Fatalf("export: exit %d\n%s\n%s", code, so, se)
	}
	warcs := t.TempDir()
	our := unzipWACZ(t, ours, warcs)
	theirs := filepath.Join(t.TempDir(), "theirs.wacz")
	cmd := exec.Command("node", bin, "create", "-f", filepath.Join(warcs, "archive", "*.warc.gz"), "-o", theirs, "--log-level", "error")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("js-wacz create: %v\n%s", err, daemontest.LastLines(string(b), 20))
	}
	their := unzipWACZ(t, theirs, "")

	ourIndex := strings.ReplaceAll(our["indexes/index.cdxj"], `"digest":"sha256:`, `"digest":"`)
	theirIndex := their["indexes/index.cdxj"] + their["indexes/index.cdx"]
	a, b := sortedLines(ourIndex), sortedLines(theirIndex)
	if len(a) < 100 || !slices.Equal(a, b) {
		t.Errorf("CDXJ: ours %d lines, js-wacz's %d; first differences:\n%s", len(a), len(b), firstDiffs(a, b, 5))
	}
	ourPages, theirPages := pageTimes(t, our["pages/pages.jsonl"]), pageTimes(t, their["pages/pages.jsonl"])
	for _, l := range sortedLines(our["pages/pages.jsonl"]) {
		var p struct{ URL, Title string }
		if json.Unmarshal([]byte(l), &p) == nil && p.URL != "" && strings.TrimSpace(p.Title) == "" {
			t.Errorf("our pages.jsonl: page %s has no title", p.URL)
		}
	}
	for u, ts := range ourPages {
		if theirPages[u] != ts {
			t.Errorf("page %s at %s in ours, js-wacz detects it at %q", u, ts, theirPages[u])
		}
	}
	var extra []string
	for u := range theirPages {
		if _, ok := ourPages[u]; !ok {
			extra = append(extra, u)
			if !strings.Contains(ourIndex, `"url":"`+u+`"`) {
				t.Errorf("js-wacz detects page %s, which our index lacks", u)
			}
		}
	}
	t.Logf("CDXJ %d lines alike; pages: ours %d, js-wacz %d (its extra: %v)", len(a), len(ourPages), len(theirPages), extra)
	if len(ourPages) < 40 {
		t.Errorf("our pages.jsonl lists %d pages", len(ourPages))
	}
}

// unzipWACZ returns the text files of a WACZ by name (CDXJ indexes
// ungzipped), and copies its WARCs under dir when dir is not empty.
func unzipWACZ(t *testing.T, wacz, dir string) map[string]string {
	t.Helper()
	z, err := zip.OpenReader(wacz)
	if err != nil {
		t.Fatal(err)
	}
	defer z.Close()
	out := map[string]string{}
	for _, f := range z.File {
		r, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			t.Fatalf("%s: %s: %v", wacz, f.Name, err)
		}
		switch {
		case strings.HasSuffix(f.Name, ".warc.gz"):
			if dir != "" {
				p := filepath.Join(dir, filepath.FromSlash(f.Name))
				os.MkdirAll(filepath.Dir(p), 0o755)
				if err := os.WriteFile(p, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		case strings.HasSuffix(f.Name, ".gz"):
			zr, err := gzip.NewReader(strings.NewReader(string(data)))
			if err != nil {
				t.Fatalf("%s: %s: %v", wacz, f.Name, err)
			}
			plain, err := io.ReadAll(zr)
			if err != nil {
				t.Fatalf("%s: %s: %v", wacz, f.Name, err)
			}
			out[strings.TrimSuffix(f.Name, ".gz")] = string(plain)
		default:
			out[f.Name] = string(data)
		}
	}
	return out
}

// sortedLines returns the non-empty lines of s, sorted.
func sortedLines(s string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			out = append(out, l)
		}
	}
	slices.Sort(out)
	return out
}

// firstDiffs shows up to n lines in one sorted list and not the other.
func firstDiffs(a, b []string, n int) string {
	var s strings.Builder
	for _, l := range a {
		if _, ok := slices.BinarySearch(b, l); !ok && n > 0 {
			s.WriteString("ours only:    " + l + "\n")
			n--
		}
	}
	for _, l := range b {
		if _, ok := slices.BinarySearch(a, l); !ok && n > 0 {
			s.WriteString("js-wacz only: " + l + "\n")
			n--
		}
	}
	return s.String()
}

// pageTimes returns the url → ts of a pages.jsonl (its header line aside).
func pageTimes(t *testing.T, jsonl string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, l := range sortedLines(jsonl) {
		var p struct{ URL, TS string }
		if err := json.Unmarshal([]byte(l), &p); err != nil {
			t.Fatalf("pages.jsonl line %q: %v", l, err)
		}
		if p.URL != "" {
			out[p.URL] = p.TS
		}
	}
	return out
}
