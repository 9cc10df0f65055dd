package capture_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// TestUpdateReusesRequisites: an UpdateCrawl that re-reads a changed post
// of the demo blog (a new comment) does not fetch again the theme's
// requisites the blog's requisites package holds: each is reused while its
// stored response is fresh or asked for conditionally (If-None-Match or
// If-Modified-Since), never fetched whole. The entry's new version still
// names every requisite its first version named (its page's metadata
// record), so it replays as before; and the archive holds one request
// record per request for a held requisite the two crawls made, no more
// (a 304 is a revisit record naming the stored response, with its
// request), no fewer.
func TestUpdateReusesRequisites(t *testing.T) {
	t.Parallel()
	// As served (ETag, Last-Modified: fresh by the heuristic), and with
	// Cache-Control: no-cache on every response (stale at once: each is
	// revalidated, and the fixture answers 304).
	for _, cc := range []string{"", "no-cache"} {
		t.Run("cache-control-"+cc, func(t *testing.T) { updateReusesRequisites(t, cc) })
	}
}

func updateReusesRequisites(t *testing.T, cacheControl string) {
	site := fixture.MustNew("wordpress")
	h := site.Handler()
	var mu sync.Mutex
	var asked []*http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r)
		mu.Unlock()
		if cacheControl != "" {
			w.Header().Set("Cache-Control", cacheControl)
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	out := t.TempDir()
	crawl := func() []*http.Request {
		t.Helper()
		mu.Lock()
		asked = nil
		mu.Unlock()
		b, err := exec.Command(daemontest.Binary(), "crawl", "-url", srv.URL+"/", "-out", out, "-delay", "0", "-render", "never").CombinedOutput()
		if err != nil {
			t.Fatalf("crawl: %v\n%s", err, daemontest.LastLines(string(b), 20))
		}
		mu.Lock()
		defer mu.Unlock()
		return append([]*http.Request(nil), asked...)
	}
	first := crawl()
	heldAsked := 0            // requests for the held requisites, both crawls
	held := map[string]bool{} // paths of the requisites the requisites package holds
	reqs, _ := filepath.Glob(filepath.Join(out, "*", "requisites", "v*", "data", "objects", "warc", "*.warc.gz"))
	for _, p := range reqs {
		for _, r := range readWARC(t, p) {
			if r.Type == "response" {
				held[strings.TrimPrefix(r.TargetURI, srv.URL)] = true
			}
		}
	}
	if len(held) < 3 {
		t.Fatalf("the requisites package holds %d requisites: %v", len(held), reqs)
	}
	post := site.Truth(srv.URL).Posts[0].URL
	slug := strings.Trim(path.Base(post), "/")
	site.AddComment(slug, fixture.CommentSpec{Author: "Rosa Update", Text: "A comment the update must find."})
	before := dirBytes(t, out)
	update := crawl()
	added := dirBytes(t, out) - before
	for _, r := range append(first, update...) {
		if held[r.URL.RequestURI()] {
			heldAsked++
		}
	}
	var whole, conditional int
	for _, r := range update {
		if !held[r.URL.RequestURI()] {
			continue
		}
		if r.Header.Get("If-None-Match") == "" && r.Header.Get("If-Modified-Since") == "" {
			whole++
			t.Errorf("the update fetched the held requisite %s again, unconditionally", r.URL)
		} else {
			conditional++
		}
	}
	t.Logf("new crawl: %d requests; update after one new comment: %d requests (%d for the %d held requisites, %d of them unconditional), %d bytes added to the archive",
		len(first), len(update), whole+conditional, len(held), whole, added)

	// The entry's versions: every requisite v1's page names, v2's names too.
	vs, _ := filepath.Glob(filepath.Join(out, "*", "entries", "*", "*", "v2"))
	if len(vs) != 1 {
		t.Fatalf("%d entries with a v2, want 1: %v", len(vs), vs)
	}
	urls := func(v string) map[string]bool {
		m := map[string]bool{}
		ws, _ := filepath.Glob(filepath.Join(filepath.Dir(vs[0]), v, "data", "objects", "warc", "*.warc.gz"))
		for _, p := range ws {
			for _, r := range readWARC(t, p) {
				if r.Type != "metadata" {
					continue
				}
				for _, l := range strings.Split(string(r.Payload), "\r\n") {
					if f := strings.Fields(strings.TrimPrefix(l, "outlink: ")); len(f) == 3 {
						m[f[0]] = true
					}
				}
			}
		}
		return m
	}
	if cacheControl == "no-cache" && conditional == 0 {
		t.Error("no conditional request for a stale requisite")
	}
	v1, v2 := urls("v1"), urls("v2")
	named := 0
	for u := range v1 {
		if held[strings.TrimPrefix(u, srv.URL)] {
			named++
			if !v2[u] {
				t.Errorf("v2 of %s does not name its requisite %s", filepath.Dir(vs[0]), u)
			}
		}
	}
	if named == 0 {
		t.Errorf("v1 of %s names none of the held requisites: %v", filepath.Dir(vs[0]), v1)
	}
	// One request record per request made for a held requisite.
	recorded := 0
	all, _ := filepath.Glob(filepath.Join(out, "*", "*", "v*", "data", "objects", "warc", "*.warc.gz"))
	more, _ := filepath.Glob(filepath.Join(out, "*", "entries", "*", "*", "v*", "data", "objects", "warc", "*.warc.gz"))
	for _, p := range append(all, more...) {
		for _, r := range readWARC(t, p) {
			if r.Type == "request" && held[strings.TrimPrefix(r.TargetURI, srv.URL)] {
				recorded++
			}
		}
	}
	if recorded != heldAsked {
		t.Errorf("%d request records of the held requisites, the server answered %d requests for them", recorded, heldAsked)
	}
	checkWARCs(t, out)
}

// dirBytes is the size of the regular files under dir.
func dirBytes(t *testing.T, dir string) int64 {
	t.Helper()
	var n int64
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}
