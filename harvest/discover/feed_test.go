package discover_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/discover"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// feedBlog is a blog on loopback whose Atom feed has two pages (rel=next)
// and an ETag as Apache's mod_deflate alters it ("v1-gzip"), matching
// If-None-Match only with the base ETag the application knows ("v1"); a
// comment feed answers with a body that changes on every request. It
// counts the requests for each feed.
type feedBlog struct {
	srv *httptest.Server
	mu  sync.Mutex
	n   map[string]int
}

const feedPage1 = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Blog</title><link rel="alternate" href="%[1]s/"/>
<link rel="next" href="%[1]s/feed.xml?page=2"/><id>%[1]s/</id><updated>2026-12-01T00:00:00Z</updated>
<entry><title>Two</title><link rel="alternate" href="%[1]s/2026/two/"/><id>%[1]s/2026/two/</id><updated>2026-12-01T00:00:00Z</updated></entry>
<entry><title>One</title><link rel="alternate" href="%[1]s/2026/one/"/><id>%[1]s/2026/one/</id><updated>2026-11-01T00:00:00Z</updated></entry>
</feed>`

const feedPage2 = `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>Blog</title><link rel="alternate" href="%[1]s/"/><id>%[1]s/</id><updated>2026-12-01T00:00:00Z</updated>
<entry><title>Zero</title><link rel="alternate" href="%[1]s/2025/zero/"/><id>%[1]s/2025/zero/</id><updated>2025-11-01T00:00:00Z</updated></entry>
</feed>`

func newFeedBlog(t *testing.T) *feedBlog {
	b := &feedBlog{n: map[string]int{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/feed.xml", func(w http.ResponseWriter, r *http.Request) {
		b.count(r.URL.RequestURI())
		w.Header().Set("Content-Type", "application/atom+xml")
		if r.URL.Query().Get("page") == "2" {
			fmt.Fprintf(w, feedPage2, b.srv.URL)
			return
		}
		w.Header().Set("ETag", `"v1-gzip"`)
		if r.Header.Get("If-None-Match") == `"v1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		fmt.Fprintf(w, feedPage1, b.srv.URL)
	})
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		b.count(r.URL.RequestURI())
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, homePage(b.srv.URL))
	})
	mux.HandleFunc("/comments/feed/", func(w http.ResponseWriter, r *http.Request) {
		n := b.count(r.URL.RequestURI())
		w.Header().Set("Content-Type", "application/atom+xml")
		fmt.Fprintf(w, `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Comments %d</title><id>%s/c</id></feed>`, n, b.srv.URL)
	})
	b.srv = httptest.NewServer(mux)
	t.Cleanup(b.srv.Close)
	return b
}

func (b *feedBlog) count(uri string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.n[uri]++
	return b.n[uri]
}

func (b *feedBlog) requests(uri string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.n[uri]
}

func (b *feedBlog) feeds(t *testing.T, cfg discover.FeedConfig) *discover.Feeds {
	cl, err := fetch.New(fetch.Options{UserAgent: "blogharvest-test", AllowHosts: []string{"127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	return discover.NewFeeds(cfg, cl, slog.New(slog.DiscardHandler))
}

// TestFeedsUnchanged: the conditional requests of an UpdateCrawl. The
// stage sends the base ETag (a 304 then), takes a 200 with the body of
// the last crawl as unchanged, with the validators now; a changed feed is
// not unchanged and its first page, received already, is not fetched
// again by Read, which pages on (rel=next) and returns the feed's items,
// its two pages' files and its validators; the comment feed is asked only
// after an unchanged posts feed; a crawl with a recheck due, or not from
// the last crawl's state, asks nothing.
func TestFeedsUnchanged(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	update := discover.FeedConfig{UseState: true, Settled: true}
	b := newFeedBlog(t)
	feedURL, commentURL := b.srv.URL+"/feed.xml", b.srv.URL+"/comments/feed/"
	body := fmt.Sprintf(feedPage1, b.srv.URL)

	for _, cfg := range []discover.FeedConfig{{UseState: true}, {Settled: true}} {
		if u := b.feeds(t, cfg).Unchanged(ctx, blogharvest.Validators{URL: feedURL, ETag: `"v1-gzip"`}, blogharvest.Validators{}); u.Same {
			t.Errorf("%+v: unchanged", cfg)
		}
	}
	if n := b.requests("/feed.xml"); n != 0 {
		t.Fatalf("%d feed requests with a recheck due or no state, want none", n)
	}

	u := b.feeds(t, update).Unchanged(ctx, blogharvest.Validators{URL: feedURL, ETag: `"v1-gzip"`}, blogharvest.Validators{})
	if !u.Same || u.Feed.ETag != `"v1-gzip"` || b.requests("/feed.xml") != 1 {
		t.Errorf("ETag v1-gzip: %+v after %d requests, want unchanged (304 to the base ETag) after 1", u, b.requests("/feed.xml"))
	}

	u = b.feeds(t, update).Unchanged(ctx, blogharvest.Validators{URL: feedURL, ETag: `"v0"`, Digest: blogharvest.DigestOf([]byte(body))}, blogharvest.Validators{})
	if !u.Same || u.Feed.ETag != `"v1-gzip"` || u.Feed.Digest != blogharvest.DigestOf([]byte(body)) {
		t.Errorf("same body: %+v, want unchanged with the new ETag", u)
	}

	s := b.feeds(t, update)
	u = s.Unchanged(ctx, blogharvest.Validators{URL: feedURL, ETag: `"v0"`, Digest: "old"}, blogharvest.Validators{URL: commentURL})
	if u.Same || b.requests("/comments/feed/") != 0 {
		t.Errorf("changed feed: %+v, comment feed asked %d times, want changed and not asked", u, b.requests("/comments/feed/"))
	}
	before := b.requests("/feed.xml")
	r := s.Read(ctx, feedURL, nil)
	if r.Err != nil || r.Feed == nil {
		t.Fatalf("read: %v", r.Err)
	}
	if n := b.requests("/feed.xml") - before; n != 0 {
		t.Errorf("the first page was fetched again (%d requests) after the conditional request received it", n)
	}
	var links []string
	for _, it := range r.Feed.Items {
		links = append(links, strings.TrimPrefix(it.Link, b.srv.URL))
	}
	if !slices.Equal(links, []string{"/2026/two/", "/2026/one/", "/2025/zero/"}) || len(r.Files) != 2 || b.requests("/feed.xml?page=2") != 1 {
		t.Errorf("read %q in %d files, want three items in two pages", links, len(r.Files))
	}
	if want := (blogharvest.Validators{URL: feedURL, ETag: `"v1-gzip"`, Digest: blogharvest.DigestOf([]byte(body))}); r.Validators != want {
		t.Errorf("validators %+v, want %+v", r.Validators, want)
	}
	if r = s.Read(ctx, feedURL, nil); r.Feed == nil || b.requests("/feed.xml")-before != 1 {
		t.Errorf("a second read used the kept page again (%d requests)", b.requests("/feed.xml")-before)
	}

	u = b.feeds(t, update).Unchanged(ctx, blogharvest.Validators{URL: feedURL, ETag: `"v1-gzip"`}, blogharvest.Validators{URL: commentURL, Digest: "old"})
	if u.Same || b.requests("/comments/feed/") != 1 {
		t.Errorf("changed comment feed: %+v after %d requests of it, want changed after 1", u, b.requests("/comments/feed/"))
	}
}

// scope is a blog at https://blog.example/ whose /private/ posts are
// excluded and whose .jpg files are no pages.
type scope struct{}

func (scope) Canonical(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" {
		return "", fmt.Errorf("not a URL: %q", raw)
	}
	return u.String(), nil
}
func (scope) Excluded(u *url.URL) bool { return strings.HasPrefix(u.Path, "/private/") }
func (scope) Page(u *url.URL) bool {
	return u.Host == "blog.example" && !strings.HasSuffix(u.Path, ".jpg")
}

// items records what the stage hands the crawl, in order; Queue refuses
// a page queued already.
type items struct {
	got    []string
	queued map[string]bool
}

func (d *items) Met(u string)                { d.got = append(d.got, "met "+u) }
func (d *items) Excluded(link string)        { d.got = append(d.got, "excluded "+link) }
func (d *items) Elsewhere(link, page string) { d.got = append(d.got, "elsewhere "+link+" "+page) }
func (d *items) Queue(u string, it *feed.Item, rank int) bool {
	if d.queued[u] {
		return false
	}
	d.queued[u] = true
	d.got = append(d.got, fmt.Sprintf("queue %s %s %d", u, it.Title, rank))
	return true
}

// TestSeedFeed: the feed's items, newest first. An excluded link is
// noted, counted and kept as a shape of posts; a link off the blog with a
// guid on it queues the guid's page; a link and guid both off the blog,
// or a link to an image, make a feed-only entry; a page queued already
// for an item is not queued again for another; ranks fall with the
// feed's order.
func TestSeedFeed(t *testing.T) {
	t.Parallel()
	feedItems := []feed.Item{
		{Title: "a", Link: "https://blog.example/2026/a/"},
		{Title: "b", Link: "https://blog.example/private/b/"},
		{Title: "c", Link: "https://elsewhere.example/c", GUID: "https://blog.example/2026/c/"},
		{Title: "d", Link: "https://elsewhere.example/d", GUID: "tag:blog.example,2026:d"},
		{Title: "e", Link: "https://blog.example/2026/a/"},
		{Title: "f", Link: "https://blog.example/f.jpg"},
	}
	d := &items{queued: map[string]bool{}}
	s := discover.SeedFeed(feedItems, scope{}, d)
	want := []string{
		"met https://blog.example/2026/a/", "queue https://blog.example/2026/a/ a 6",
		"excluded https://blog.example/private/b/",
		"met https://blog.example/2026/c/", "elsewhere https://elsewhere.example/c https://blog.example/2026/c/", "queue https://blog.example/2026/c/ c 4",
		"met https://elsewhere.example/d",
		"met https://blog.example/2026/a/",
		"met https://blog.example/f.jpg",
	}
	if !slices.Equal(d.got, want) {
		t.Errorf("handed over\n%q\nwant\n%q", d.got, want)
	}
	str := func(us []*url.URL) (out []string) {
		for _, u := range us {
			out = append(out, u.String())
		}
		return out
	}
	if got := str(s.URLs); !slices.Equal(got, []string{"https://blog.example/2026/a/", "https://blog.example/2026/c/"}) {
		t.Errorf("URLs %q", got)
	}
	if got := str(s.Shapes); !slices.Equal(got, []string{"https://blog.example/2026/a/", "https://blog.example/private/b/", "https://blog.example/2026/c/"}) {
		t.Errorf("shapes %q", got)
	}
	var off []string
	for _, it := range s.Offsite {
		off = append(off, it.Title)
	}
	if !slices.Equal(off, []string{"d", "f"}) || s.Excluded != 1 {
		t.Errorf("offsite %q, %d excluded; want d and f, 1", off, s.Excluded)
	}
}

// commented is the crawl's commentedPost as the stage's discover.Commented:
// a comment's link without its fragment and comment page; nil for an
// image.
type commented struct{}

func (c commented) Post(link string) *url.URL {
	if u := c.Of(link); u != nil && !strings.HasSuffix(u.Path, ".jpg") {
		return u
	}
	return nil
}

func (commented) Of(link string) *url.URL {
	u, err := url.Parse(link)
	if err != nil {
		return nil
	}
	u.Fragment = ""
	if i := strings.Index(u.Path, "comment-page-"); i >= 0 {
		u.Path = u.Path[:i]
	}
	return u
}

// TestSiteComments: the blog-wide comment feed of a blog on loopback, two
// pages (rel=next). An UpdateCrawl reads no more pages than its bound and
// returns the posts commented after since, each once, in the feed's
// order, leaving out older comments and links that are no post; a
// NewCrawl keeps the validators and files but returns no posts; a feed
// that is not there is not read.
func TestSiteComments(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var srv *httptest.Server
	var mu sync.Mutex
	pages := 0
	entry := `<entry><title>c</title><link rel="alternate" href="%s%s"/><id>%[1]s%[2]s</id><published>%s</published><updated>%[3]s</updated></entry>`
	mux := http.NewServeMux()
	mux.HandleFunc("/comments/feed/", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		pages++
		mu.Unlock()
		w.Header().Set("Content-Type", "application/atom+xml")
		w.Header().Set("ETag", `"c1"`)
		var b strings.Builder
		fmt.Fprintf(&b, `<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Comments</title><id>%s/c</id>`, srv.URL)
		if r.URL.Query().Get("page") == "2" {
			fmt.Fprintf(&b, entry, srv.URL, "/2026/late/#comment-9", "2026-12-01T00:00:00Z")
		} else {
			fmt.Fprintf(&b, `<link rel="next" href="%s/comments/feed/?page=2"/>`, srv.URL)
			for _, e := range [][2]string{
				{"/2026/a/#comment-3", "2026-12-03T00:00:00Z"},
				{"/2026/b/#comment-2", "2026-12-02T00:00:00Z"},
				{"/2026/a/comment-page-2/#comment-1", "2026-12-01T00:00:00Z"},
				{"/pic.jpg#comment-0", "2026-12-01T00:00:00Z"},
				{"/2025/old/#comment-7", "2025-01-01T00:00:00Z"},
			} {
				fmt.Fprintf(&b, entry, srv.URL, e[0], e[1])
			}
		}
		b.WriteString(`</feed>`)
		fmt.Fprint(w, b.String())
	})
	srv = httptest.NewServer(mux)
	defer srv.Close()
	since := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	cf := srv.URL + "/comments/feed/"

	requests := func() int {
		mu.Lock()
		defer mu.Unlock()
		return pages
	}
	b := &feedBlog{srv: srv}
	sc := b.feeds(t, discover.FeedConfig{Since: since, ChangedOnly: true, SiteCommentPages: 1}).SiteComments(ctx, cf, commented{})
	var got []string
	for _, p := range sc.Posts {
		got = append(got, strings.TrimPrefix(p.String(), srv.URL))
	}
	if !sc.Read || !slices.Equal(got, []string{"/2026/a/", "/2026/b/"}) || len(sc.Files) != 1 || requests() != 1 {
		t.Errorf("update: read %v, posts %q, %d files in %d requests; want /2026/a/ and /2026/b/ from one page", sc.Read, got, len(sc.Files), requests())
	}
	byPost := map[string]int{}
	for p, cs := range sc.ByPost {
		byPost[strings.TrimPrefix(p, srv.URL)] = len(cs)
	}
	if len(sc.Parsed) != 1 || len(sc.Parsed[0]) != 5 || len(byPost) != 4 || byPost["/2026/a/"] != 2 || byPost["/pic.jpg"] != 1 {
		t.Errorf("update: parsed %d pages, comments by post %v; want one page of 5, /2026/a/ twice, /pic.jpg and the rest once", len(sc.Parsed), byPost)
	}
	if sc.Validators.URL != cf || sc.Validators.ETag != `"c1"` || sc.Validators.Digest != blogharvest.DigestOf(sc.Files[0].Body) {
		t.Errorf("validators %+v", sc.Validators)
	}
	sc = b.feeds(t, discover.FeedConfig{SiteCommentPages: 1}).SiteComments(ctx, cf, commented{})
	if !sc.Read || sc.Posts != nil || len(sc.Files) != 1 || sc.Parsed != nil || sc.ByPost != nil {
		t.Errorf("new crawl: read %v, posts %v, %d files; want read, no posts, one file", sc.Read, sc.Posts, len(sc.Files))
	}
	if sc = b.feeds(t, discover.FeedConfig{SiteCommentPages: 1}).SiteComments(ctx, srv.URL+"/nothing/", commented{}); sc.Read {
		t.Errorf("a missing feed read: %+v", sc)
	}
}

// TestSiteCommentFeed: the blog-wide comment feed is the last crawl's
// when the home page is not read, else the first the home page declares
// or links to at a platform's path (declared feeds first), none when the
// home page was not read or names none.
func TestSiteCommentFeed(t *testing.T) {
	t.Parallel()
	const last = "https://blog.example/comments/feed/"
	links := []discover.Link{{URL: "https://blog.example/about/", Nav: true}, {URL: "https://blog.example/feeds/comments/default"}}
	for _, tc := range []struct {
		name string
		site discover.CommentFeedSite
		want string
	}{
		{"home page not due", discover.CommentFeedSite{Last: last, HomeRead: true, Links: links}, last},
		{"home page not read", discover.CommentFeedSite{HomeDue: true, Last: last}, ""},
		{"declared first", discover.CommentFeedSite{HomeDue: true, Last: last, HomeRead: true,
			Feeds: []string{"https://blog.example/feed/", "https://blog.example/comments/feed/"}, Links: links},
			"https://blog.example/comments/feed/"},
		{"linked", discover.CommentFeedSite{HomeDue: true, HomeRead: true, Feeds: []string{"https://blog.example/feed/"}, Links: links},
			"https://blog.example/feeds/comments/default"},
		{"none", discover.CommentFeedSite{HomeDue: true, Last: last, HomeRead: true, Feeds: []string{"https://blog.example/feed/"}}, ""},
	} {
		if got := discover.SiteCommentFeed(tc.site); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
