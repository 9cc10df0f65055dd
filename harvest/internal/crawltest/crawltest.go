// Package crawltest holds what the crawler's tests share across their
// test binaries: a fixture blog served on loopback (Serve), the crawl
// options of most tests (Options), a crawl and what it emitted (Crawl,
// Output), and a log of the requests a server was asked (RequestLog).
//
// harvest's own tests and the test-only packages under harvest/tests
// (each a test binary with go test's 10-minute limit to itself, as the
// daemon's are under daemon/tests) import it; nothing else does.
package crawltest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// Output is what a crawl emitted.
type Output struct {
	Blogs   []*blogharvest.Blog
	Entries []*blogharvest.Entry
	Order   []string // "blog" / "entry", in emission order
}

// Emit records r; it is the crawl's emit function.
func (o *Output) Emit(r harvest.Record) error {
	switch {
	case r.Blog != nil:
		o.Blogs = append(o.Blogs, r.Blog)
		o.Order = append(o.Order, "blog")
	case r.Entry != nil:
		o.Entries = append(o.Entries, r.Entry)
		o.Order = append(o.Order, "entry")
	}
	return nil
}

// ByURL indexes the entries by URL and reports duplicates. An entry may be
// emitted again only when a redirect stub met after it adds an alias (the
// crawl re-reads it for that, see harvest's stub.go): the later one wins.
func (o *Output) ByURL(t *testing.T) map[string]*blogharvest.Entry {
	t.Helper()
	m := map[string]*blogharvest.Entry{}
	for _, e := range o.Entries {
		if was, dup := m[e.URL]; dup && !addsAliases(was, e) {
			t.Errorf("entry %s emitted twice, the second time without a new alias (%q, then %q)", e.URL, was.Aliases, e.Aliases)
		}
		m[e.URL] = e
	}
	return m
}

// addsAliases reports whether later keeps every alias of was and adds one.
func addsAliases(was, later *blogharvest.Entry) bool {
	have := map[string]bool{}
	for _, a := range later.Aliases {
		have[a] = true
	}
	for _, a := range was.Aliases {
		if !have[a] {
			return false
		}
	}
	return len(later.Aliases) > len(was.Aliases)
}

// RequestLog records the paths (with their queries) a server was asked
// for.
type RequestLog struct {
	mu    sync.Mutex
	paths []string
}

// Wrap returns h logging every request into l.
func (l *RequestLog) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.Add(r.URL.RequestURI())
		h.ServeHTTP(w, r)
	})
}

// Add logs p as a request.
func (l *RequestLog) Add(p string) {
	l.mu.Lock()
	l.paths = append(l.paths, p)
	l.mu.Unlock()
}

// Count returns how many logged requests pred accepts.
func (l *RequestLog) Count(pred func(string) bool) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for _, p := range l.paths {
		if pred(p) {
			n++
		}
	}
	return n
}

// Reset forgets the requests logged so far.
func (l *RequestLog) Reset() {
	l.mu.Lock()
	l.paths = nil
	l.mu.Unlock()
}

// All returns the requests logged so far.
func (l *RequestLog) All() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.paths...)
}

// Serve starts the fixture blog name on loopback, its handler wrapped by
// wrap when given; the test is skipped when the fixture cannot be made.
func Serve(t testing.TB, name string, wrap func(http.Handler) http.Handler) (*fixture.Site, *httptest.Server) {
	t.Helper()
	site, err := fixture.New(name)
	if err != nil {
		t.Skipf("fixture %s: %v", name, err)
	}
	h := site.Handler()
	if wrap != nil {
		h = wrap(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return site, srv
}

// Options returns the crawl options of most tests for the blog id at
// base, fast and quiet: no rendering, media or page requisites (each
// tested on its own), so that requests are the pages'.
func Options(id, base string) harvest.Options {
	return harvest.Options{Blog: blogharvest.Blog{ID: id, URL: base + "/"}, Render: harvest.RenderNever,
		PerHost: 2, MaxMediaPerEntry: -1, Requisites: harvest.RequisitesNone}
}

// Crawl runs a NewCrawl with o and returns its result and what it
// emitted; an error fails the test.
func Crawl(t *testing.T, o harvest.Options) (*harvest.Result, *Output) {
	t.Helper()
	out := &Output{}
	res, err := harvest.NewCrawl(context.Background(), o, out.Emit)
	if err != nil {
		t.Fatalf("NewCrawl: %v", err)
	}
	return res, out
}

// NewestActivity returns the newest date of the fixture blog: a post's
// publication or modification, or a comment.
func NewestActivity(site *fixture.Site) time.Time {
	var last time.Time
	for _, p := range site.Posts() {
		for _, d := range []time.Time{p.Date, p.Modified} {
			if d.After(last) {
				last = d
			}
		}
		for _, c := range p.Comments {
			if c.Date.After(last) {
				last = c.Date
			}
		}
	}
	return last
}
