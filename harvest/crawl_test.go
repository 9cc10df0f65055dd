package harvest_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// output is what a crawl emitted.
type output struct {
	blogs   []*blogharvest.Blog
	entries []*blogharvest.Entry
	order   []string // "blog" / "entry", in emission order
}

func (o *output) emit(r harvest.Record) error {
	switch {
	case r.Blog != nil:
		o.blogs = append(o.blogs, r.Blog)
		o.order = append(o.order, "blog")
	case r.Entry != nil:
		o.entries = append(o.entries, r.Entry)
		o.order = append(o.order, "entry")
	}
	return nil
}

// byURL indexes the entries by URL and reports duplicates.
func (o *output) byURL(t *testing.T) map[string]*blogharvest.Entry {
	t.Helper()
	m := map[string]*blogharvest.Entry{}
	for _, e := range o.entries {
		if _, dup := m[e.URL]; dup {
			t.Errorf("entry %s emitted twice", e.URL)
		}
		m[e.URL] = e
	}
	return m
}

// requestLog records the paths a server was asked for.
type requestLog struct {
	mu    sync.Mutex
	paths []string
}

func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.paths = append(l.paths, r.URL.RequestURI())
		l.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (l *requestLog) count(pred func(string) bool) int {
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

// serve starts a fixture blog on loopback.
func serve(t testing.TB, name string, wrap func(http.Handler) http.Handler) (*fixture.Site, *httptest.Server) {
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

// options returns crawl options for a blog at base, fast and quiet.
func options(id, base string) harvest.Options {
	return harvest.Options{Blog: blogharvest.Blog{ID: id, URL: base + "/"}, Render: harvest.RenderNever,
		PerHost: 2, MaxMediaPerEntry: -1}
}

func crawl(t *testing.T, o harvest.Options) (*harvest.Result, *output) {
	t.Helper()
	out := &output{}
	res, err := harvest.NewCrawl(context.Background(), o, out.emit)
	if err != nil {
		t.Fatalf("NewCrawl: %v", err)
	}
	return res, out
}

func TestNewCrawlFindsEveryFixturePost(t *testing.T) {
	for _, name := range []string{"wordpress", "blogger", "static"} {
		t.Run(name, func(t *testing.T) {
			site, srv := serve(t, name, nil)
			res, out := crawl(t, options(name, srv.URL))
			truth := site.Truth(srv.URL)
			checkBlogFirst(t, out)
			got := out.byURL(t)
			found := 0
			for _, p := range truth.Posts {
				e, ok := got[p.URL]
				if !ok {
					t.Errorf("post %s (in feed: %v) not found", p.URL, p.InFeed)
					continue
				}
				found++
				checkPost(t, e, p)
			}
			for _, p := range truth.Pages {
				if e, ok := got[p.URL]; !ok || e.Kind != blogharvest.KindPage {
					t.Errorf("page %s: found %v, kind %v; want kind page", p.URL, ok, kindOf(e))
				}
			}
			for _, e := range out.entries {
				if err := e.Validate(); err != nil {
					t.Errorf("entry %s invalid: %v", e.URL, err)
				}
			}
			t.Logf("%s: recall %d/%d, %d entries, %d pages fetched, pattern %s, fetches %v, warnings %q",
				name, found, len(truth.Posts), res.Entries, res.Pages, res.Pattern, res.Fetches, res.Warnings)
		})
	}
}

func kindOf(e *blogharvest.Entry) blogharvest.Kind {
	if e == nil {
		return ""
	}
	return e.Kind
}

func checkBlogFirst(t *testing.T, out *output) {
	t.Helper()
	if len(out.order) == 0 || out.order[0] != "blog" || len(out.blogs) != 1 {
		t.Fatalf("emission order %v: want exactly one Blog, first", out.order[:min(len(out.order), 3)])
	}
	if err := out.blogs[0].Validate(); err != nil {
		t.Errorf("blog record invalid: %v", err)
	}
}

// checkPost compares the fields of a harvested post with the truth.
func checkPost(t *testing.T, e *blogharvest.Entry, p fixture.PostTruth) {
	t.Helper()
	if e.Title != p.Title {
		t.Errorf("%s: title %q, want %q", p.URL, e.Title, p.Title)
	}
	if want, _ := time.Parse(time.RFC3339, p.Date); !e.Created.Equal(want) && !sameDay(e.Created, want) {
		t.Errorf("%s: created %v, want %v", p.URL, e.Created, want)
	}
	if len(e.Comments) < len(p.Comments) {
		t.Errorf("%s: %d comments, want %d", p.URL, len(e.Comments), len(p.Comments))
	}
	if e.Content == "" {
		t.Errorf("%s: no content (problems %q)", p.URL, e.Problems)
	}
}

func sameDay(a, b time.Time) bool {
	return a.UTC().Format("2006-01-02") == b.UTC().Format("2006-01-02")
}

func TestNewCrawlNoDuplicatesThroughShortLinksAndReplyLinks(t *testing.T) {
	log := &requestLog{}
	site, srv := serve(t, "wordpress", log.wrap)
	_, out := crawl(t, options("wp", srv.URL))
	got := out.byURL(t) // fails on duplicates
	for u := range got {
		if strings.Contains(u, "?") {
			t.Errorf("entry URL with a query: %s", u)
		}
	}
	if n := log.count(func(p string) bool { return strings.Contains(p, "replytocom=") }); n > 0 {
		t.Errorf("%d ?replytocom= URLs fetched", n)
	}
	if len(got) < len(site.Truth(srv.URL).Posts) {
		t.Errorf("%d entries, want at least %d", len(got), len(site.Truth(srv.URL).Posts))
	}
}

func TestNewCrawlHonoursRobots(t *testing.T) {
	site, _ := serve(t, "wordpress", nil)
	posts := site.Truth("").Posts
	blocked := posts[len(posts)-1].URL[:len("/2013/03/")] // the oldest month
	log := &requestLog{}
	h := log.wrap(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			w.Write([]byte("User-agent: *\nDisallow: " + blocked + "\n"))
			return
		}
		site.Handler().ServeHTTP(w, r)
	}))
	srv := httptest.NewServer(h)
	defer srv.Close()
	res, out := crawl(t, options("wp", srv.URL))
	if n := log.count(func(p string) bool { return strings.HasPrefix(p, blocked) }); n > 0 {
		t.Errorf("%d requests under disallowed %s", n, blocked)
	}
	for _, e := range out.entries {
		if strings.HasPrefix(strings.TrimPrefix(e.URL, srv.URL), blocked) && e.StatusCode != 0 {
			t.Errorf("entry %s captured despite robots.txt", e.URL)
		}
	}
	if res.Skipped == 0 {
		t.Error("no URL counted as skipped")
	}
}

func TestNewCrawlMaxPages(t *testing.T) {
	log := &requestLog{}
	_, srv := serve(t, "wordpress", log.wrap)
	o := options("wp", srv.URL)
	o.MaxPages = 5
	res, out := crawl(t, o)
	html := log.count(func(p string) bool {
		return !strings.Contains(p, "feed") && !strings.Contains(p, "sitemap") && p != "/robots.txt"
	})
	if res.Pages > 5 || html > 5 {
		t.Errorf("MaxPages 5: result says %d pages, server saw %d page requests", res.Pages, html)
	}
	if len(out.entries) == 0 || res.Skipped == 0 {
		t.Errorf("%d entries, %d skipped: want some of each", len(out.entries), res.Skipped)
	}
}

func TestNewCrawlNotABlog(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte("<html><head><title>Shop</title></head><body><a href='/a'>a</a></body></html>"))
	}))
	defer srv.Close()
	_, err := harvest.NewCrawl(context.Background(), options("shop", srv.URL), (&output{}).emit)
	if !errors.Is(err, blogharvest.ErrNotBlog) || !strings.Contains(err.Error(), srv.URL) {
		t.Fatalf("err = %v, want ErrNotBlog naming %s", err, srv.URL)
	}
}

func TestNewCrawlEmitErrorStops(t *testing.T) {
	_, srv := serve(t, "wordpress", nil)
	stop := errors.New("disk full")
	n := 0
	_, err := harvest.NewCrawl(context.Background(), options("wp", srv.URL), func(r harvest.Record) error {
		if r.Entry != nil {
			n++
			if n == 3 {
				return stop
			}
		}
		return nil
	})
	if !errors.Is(err, stop) || n != 3 {
		t.Fatalf("err %v after %d entries: want the emit error after 3", err, n)
	}
}
