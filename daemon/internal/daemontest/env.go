package daemontest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/blogharvest/blogharvest/daemon"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// EnvPosts is how many posts NewEnv's blog keeps: more than its feed
// lists (ten), so that some posts are found only by crawling, as on a
// real blog, and a third of the demo blog's 43, whose number no process
// test needs.
const EnvPosts = 14

// Env is one daemon test: a fixture blog server and a config naming it
// as the blog "sample".
type Env struct {
	Site    *fixture.Site
	Srv     *httptest.Server
	Dir     string // the test's folder, holding the rest
	Archive string
	Config  string
	Listen  string // the status server's address
}

// NewEnv serves the wordpress fixture blog, cut to its EnvPosts newest
// posts and its pages, and writes a config harvesting it on schedule into
// a new archive, rendering never.
func NewEnv(t testing.TB, schedule string) *Env {
	t.Helper()
	site := fixture.MustNew("wordpress")
	site.KeepNewest(EnvPosts)
	e := &Env{Site: site, Dir: t.TempDir(), Listen: FreeAddr(t)}
	e.Srv = httptest.NewServer(e.Site.Handler())
	t.Cleanup(e.Srv.Close)
	e.Archive = filepath.Join(e.Dir, "archive")
	e.Config = filepath.Join(e.Dir, "blogs.yaml")
	y := fmt.Sprintf(`archive: %s
state: %s
listen: %s
organization: Test Library
log: {format: json, level: info}
blogs:
  - id: sample
    url: %s/
    schedule: %q
    delay: 1ms
    render: never
`, e.Archive, filepath.Join(e.Dir, "state", "schedule.db"), e.Listen, e.Srv.URL, schedule)
	if err := os.WriteFile(e.Config, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	return e
}

// Entries maps each archived entry's permalink to its versions.
func (e *Env) Entries(t testing.TB) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	bags, _ := filepath.Glob(filepath.Join(e.Archive, "sample", "entries", "*", "*", "v*", "bag-info.txt"))
	for _, bi := range bags {
		data, err := os.ReadFile(bi)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "External-Identifier: "); ok {
				out[v] = append(out[v], filepath.Base(filepath.Dir(bi)))
			}
		}
	}
	return out
}

// TruthURLs lists the permalinks a perfect harvest archives.
func (e *Env) TruthURLs() []string {
	tr := e.Site.Truth(e.Srv.URL)
	var urls []string
	for _, p := range append(tr.Posts, tr.Pages...) {
		urls = append(urls, p.URL)
	}
	return urls
}

// HasAll is a condition for WaitFor: every post and page archived.
func (e *Env) HasAll(t testing.TB) func() bool {
	return func() bool {
		got := e.Entries(t)
		for _, u := range e.TruthURLs() {
			if len(got[u]) == 0 {
				return false
			}
		}
		return true
	}
}

// Status is the blog's row of the daemon's /status, or nil when the
// daemon does not answer (yet).
func (e *Env) Status(t testing.TB) map[string]any {
	resp, err := http.Get("http://" + e.Listen + "/status")
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	var body struct{ Blogs []map[string]any }
	if json.NewDecoder(resp.Body).Decode(&body) != nil || len(body.Blogs) != 1 {
		return nil
	}
	return body.Blogs[0]
}

// CrawlDemo returns a new archive of the demo's sample blog (the
// wordpress fixture), a copy of its one harvest in this test binary, and
// what a perfect harvest finds. The tests that read a harvested blog (and
// may change their copy) need the same crawl: it is made once, not once
// per test.
func CrawlDemo(t testing.TB) (string, fixture.Truth) {
	t.Helper()
	demo.Do(func() { demo.dir, demo.truth, demo.err = crawlDemoOnce() })
	if demo.err != nil {
		t.Fatal(demo.err)
	}
	out := t.TempDir()
	if err := os.CopyFS(out, os.DirFS(demo.dir)); err != nil {
		t.Fatal(err)
	}
	return out, demo.truth
}

// demo is the one harvest of the demo's sample blog CrawlDemo copies.
var demo struct {
	sync.Once
	dir   string
	truth fixture.Truth
	err   error
}

// crawlDemoOnce harvests the demo's sample blog into a new folder and
// returns it and what a perfect harvest finds.
func crawlDemoOnce() (string, fixture.Truth, error) {
	site := fixture.MustNew("wordpress")
	srv := httptest.NewServer(site.Handler())
	defer srv.Close()
	out, err := os.MkdirTemp("", "blogharvest-demo-")
	if err != nil {
		return "", fixture.Truth{}, err
	}
	var stdout, stderr bytes.Buffer
	args := []string{"crawl", "-url", srv.URL + "/", "-out", out, "-delay", "1ms", "-render", "never"}
	if code := daemon.Main(context.Background(), args, daemon.IO{Stdout: &stdout, Stderr: &stderr}); code != 0 {
		return out, fixture.Truth{}, fmt.Errorf("crawl: exit %d\n%s\n%s", code, stdout.String(), stderr.String())
	}
	return out, site.Truth(srv.URL), nil
}

// DemoArchive returns a new folder holding a copy of the archive `demo
// -out` writes. The tests that read the demo's archive (and may change
// their copy) need the same run of the demo: it runs once per test binary,
// not once per test.
func DemoArchive(t testing.TB) string {
	t.Helper()
	demoArchive.Do(func() {
		demoArchive.dir, demoArchive.err = os.MkdirTemp("", "blogharvest-demo-archive-")
		if demoArchive.err != nil {
			return
		}
		var out bytes.Buffer
		args := []string{"demo", "-out", filepath.Join(demoArchive.dir, "archive")}
		if code := daemon.Main(context.Background(), args, daemon.IO{Stdout: &out, Stderr: &out}); code != 0 {
			demoArchive.err = fmt.Errorf("demo: exit %d\n%s", code, out.Bytes())
		}
	})
	if demoArchive.err != nil {
		t.Fatal(demoArchive.err)
	}
	archive := filepath.Join(t.TempDir(), "archive")
	if err := os.CopyFS(archive, os.DirFS(filepath.Join(demoArchive.dir, "archive"))); err != nil {
		t.Fatal(err)
	}
	return archive
}

// demoArchive is the one archive `demo` makes in this test binary.
var demoArchive struct {
	sync.Once
	dir string // its parent folder
	err error
}

// removeDemos removes the folders CrawlDemo and DemoArchive copy from.
func removeDemos() {
	if demo.dir != "" {
		os.RemoveAll(demo.dir)
	}
	if demoArchive.dir != "" {
		os.RemoveAll(demoArchive.dir)
	}
}

// BagFolders returns the folders of the archive root holding bagit.txt
// (Blog, requisites and Entry AIP versions), sorted.
func BagFolders(t testing.TB, root string) []string {
	t.Helper()
	bags, err := filepath.Glob(filepath.Join(root, "*", "*", "v*", "bagit.txt"))
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob(filepath.Join(root, "*", "entries", "*", "*", "v*", "bagit.txt"))
	var out []string
	for _, b := range append(bags, more...) {
		out = append(out, filepath.Dir(b))
	}
	slices.Sort(out)
	return out
}
