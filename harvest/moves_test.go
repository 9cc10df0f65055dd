package harvest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/harvest/textsim"
)

// switchSite serves one miniSite at a time from one address: the blog
// as one engine builds it, then as another.
type switchSite struct{ cur atomic.Pointer[miniSite] }

func (s *switchSite) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.cur.Load().ServeHTTP(w, r) }

// movePost is one post of the moving blog.
type movePost struct {
	slug, title, body string
	date              time.Time
}

// oldEngine builds the blog as its first engine does: posts at
// /posts/<slug>.html, an RSS feed at /feed.xml with tag: guids.
func oldEngine(posts []movePost) *miniSite {
	s := newMiniSite()
	var items []miniItem
	links := ""
	for i, p := range posts {
		path := "/posts/" + p.slug + ".html"
		items = append(items, miniItem{path: path, title: p.title, body: p.body, date: p.date,
			guid: fmt.Sprintf("tag:old.example,2019:%d", i), comments: -1})
		s.docs[path] = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>` + p.title + ` | Weir</title>
<link rel="alternate" type="application/rss+xml" href="{{base}}/feed.xml"></head><body><div id="banner"><a href="{{base}}/">Weir</a></div>
<section id="content"><article><header><h1 class="entry-title">` + p.title + `</h1><abbr class="published" title="` +
			p.date.Format(time.RFC3339) + `">` + p.date.Format("Mon 02 January 2006") + `</abbr></header><div class="entry-content">` +
			p.body + `</div></article></section></body></html>`
		links += `<li><a href="{{base}}` + path + `">` + p.title + `</a></li>`
	}
	s.docs["/feed.xml"] = rss("Weir", "en", items)
	s.docs["/"] = `<!DOCTYPE html><html lang="en"><head><title>Weir</title><link rel="alternate" type="application/rss+xml" href="{{base}}/feed.xml"></head>
<body><ul>` + links + `</ul></body></html>`
	return s
}

// How the new engine answers the archived URLs of the posts it moved.
const (
	oldURLsGone      = ""         // 404
	oldURLsRedirect  = "redirect" // an HTTP 301 to the new URL
	oldURLsAliasStub = "stub"     // a page that only sends the reader on, as Hugo's aliases make
)

// newEngine builds the same posts as another engine does: at
// /<yyyy>/<mm>/<slug>/, an RSS feed at feedPath (/index.xml, or the old
// /feed.xml) whose guids are the links, another theme; oldURLs says how
// each old URL answers (oldURLsGone, oldURLsRedirect, oldURLsAliasStub).
func newEngine(posts []movePost, oldURLs string, feedPath string) *miniSite {
	s := newMiniSite()
	var items []miniItem
	links := ""
	for _, p := range posts {
		path := p.date.Format("/2006/01/") + p.slug + "/"
		items = append(items, miniItem{path: path, title: p.title, body: p.body, date: p.date, comments: -1})
		s.docs[path] = `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>` + p.title + ` – Weir</title>
<link rel="alternate" type="application/rss+xml" href="{{base}}` + feedPath + `"></head><body><nav><a href="{{base}}/">Home</a></nav>
<main><h2 class="post-title">` + p.title + `</h2><time datetime="` + p.date.Format(time.RFC3339) + `">` + p.date.Format("2 Jan 2006") +
			`</time><div class="post-body">` + p.body + `</div></main><footer>Built with another engine</footer></body></html>`
		links += `<p><a href="{{base}}` + path + `">` + p.title + `</a></p>`
		switch oldURLs {
		case oldURLsRedirect:
			s.redirects["/posts/"+p.slug+".html"] = path
		case oldURLsAliasStub:
			s.docs["/posts/"+p.slug+".html"] = `<!DOCTYPE html><html lang="en-us"><head><title>{{base}}` + path + `</title><link rel="canonical" href="{{base}}` + path +
				`"><meta name="robots" content="noindex"><meta charset="utf-8"><meta http-equiv="refresh" content="0; url={{base}}` + path + `"></head></html>`
		}
	}
	s.docs[feedPath] = rss("Weir", "en", items)
	s.docs["/"] = `<!DOCTYPE html><html lang="en"><head><title>Weir</title><link rel="alternate" type="application/rss+xml" href="{{base}}` + feedPath + `"></head>
<body>` + links + `</body></html>`
	return s
}

// TestUpdateCrawlFollowsAMove: a blog archived from one engine is rebuilt
// by another at the same address (new URLs, a new feed path, the old
// feed 404), the old URLs gone, 301s to the new ones, or stub pages that
// send the reader on (Hugo's aliases: a meta refresh and a canonical
// link, no content). The update finds
// the feed again (State.Feed is the new one, the old feed's ledger row
// says so), matches every post with its archived entry (by the redirect,
// or by title, day and text) and writes it as a new version of that
// entry: as many entry folders as before, each post's new URL in the
// folder of its old one, the old URL among its aliases and in the
// ledger; an update after that keeps them there (State.Moved). A move
// that keeps the feed's URL (a new URL scheme on the same platform) is
// found by the feed's items, all at new URLs.
func TestUpdateCrawlFollowsAMove(t *testing.T) {
	for _, tc := range []struct {
		oldURLs string
		feed    string
	}{{oldURLsGone, "/index.xml"}, {oldURLsRedirect, "/index.xml"}, {oldURLsAliasStub, "/index.xml"}, {oldURLsGone, "/feed.xml"}} {
		redirects := tc.oldURLs != oldURLsGone
		t.Run(fmt.Sprintf("old=%q,feed=%s", tc.oldURLs, tc.feed), func(t *testing.T) {
			t.Parallel()
			var posts []movePost
			start := time.Date(2019, 5, 1, 9, 30, 0, 0, time.UTC)
			for i, name := range []string{"alder", "birch", "cedar", "dogwood", "elm", "fir"} {
				posts = append(posts, movePost{slug: name + "-notes", title: "Notes on the " + name,
					body: prose(name, 4+i%3), date: start.AddDate(0, 0, 5*i)})
			}
			site := &switchSite{}
			site.cur.Store(oldEngine(posts))
			srv := httptest.NewServer(site)
			t.Cleanup(srv.Close)
			root := t.TempDir()
			w := &aip.Writer{Root: root, Organization: "Test", Software: "blogharvest-test"}
			defer w.Close()
			write := func(out *output) func(harvest.Record) error {
				return func(r harvest.Record) error {
					out.Emit(r)
					if r.Entry != nil {
						_, err := w.WriteEntry(context.Background(), r.Entry)
						return err
					}
					return nil
				}
			}
			first := &output{}
			o := options("moving", srv.URL)
			res, err := harvest.NewCrawl(context.Background(), o, write(first))
			if err != nil {
				t.Fatal(err)
			}
			folders := func() []string {
				all, _ := filepath.Glob(filepath.Join(root, "moving", "entries", "*", "*"))
				return all
			}
			before := len(folders())
			if before != len(posts) {
				t.Fatalf("the first crawl archived %d entries, want %d", before, len(posts))
			}
			var archived []harvest.ArchivedPost
			for _, e := range first.Entries {
				archived = append(archived, harvest.ArchivedPost{URL: e.URL, Aliases: e.Aliases, GUID: e.AltIdentifier,
					Title: e.Title, Created: e.Created, Text: textsim.HTMLText(e.Content)})
			}

			site.cur.Store(newEngine(posts, tc.oldURLs, tc.feed))
			o.State = res.State
			o.ArchivedPosts = func() ([]harvest.ArchivedPost, error) { return archived, nil }
			o.Now = func() time.Time { return time.Now().Add(48 * time.Hour) } // the daily recheck is due
			second := &output{}
			res2, err := harvest.UpdateCrawl(context.Background(), o, res.Watermark, write(second))
			if err != nil {
				t.Fatalf("the update after the move failed: %v", err)
			}
			if got := res2.State.Feed.URL; got != srv.URL+tc.feed {
				t.Errorf("State.Feed.URL = %q, want the feed %s%s", got, srv.URL, tc.feed)
			}
			rows := map[string]harvest.LedgerRow{}
			for _, r := range res2.Ledger {
				rows[r.URL] = r
			}
			if r := rows[srv.URL+"/feed.xml"]; tc.feed != "/feed.xml" && (r.Fate != harvest.FateRedirect || !strings.Contains(r.Detail, tc.feed)) {
				t.Errorf("the old feed's ledger row is %+v, want a redirect to the new feed", r)
			}
			if after := len(folders()); after != before {
				t.Errorf("%d entry folders after the move, want the %d of before (no post archived twice)", after, before)
			}
			if res2.Moved != len(posts) {
				t.Errorf("Result.Moved = %d, want %d", res2.Moved, len(posts))
			}
			how := "title, date and text"
			if redirects {
				how = "redirect from the archived URL"
			}
			for _, p := range posts {
				oldURL, newURL := srv.URL+"/posts/"+p.slug+".html", srv.URL+p.date.Format("/2006/01/")+p.slug+"/"
				if r := rows[oldURL]; r.Fate != harvest.FateRedirect || !strings.HasPrefix(r.Detail, newURL) || !strings.Contains(r.Detail, how) {
					t.Errorf("ledger row of %s: %+v, want a redirect to %s matched by %s", oldURL, r, newURL, how)
				}
				if res2.State.Moved[newURL] != oldURL {
					t.Errorf("State.Moved[%s] = %q, want %s", newURL, res2.State.Moved[newURL], oldURL)
				}
				dir := filepath.Join(root, "moving", "entries", p.date.Format("2006"), blogharvest.EntryKey(oldURL, p.title))
				info, err := os.ReadFile(filepath.Join(dir, "v2", "bag-info.txt"))
				if err != nil {
					t.Errorf("%s: no second version in the folder of %s: %v", newURL, oldURL, err)
					continue
				}
				if !strings.Contains(string(info), "External-Identifier: "+newURL) {
					t.Errorf("%s/v2 does not preserve %s:\n%s", dir, newURL, info)
				}
			}

			// An update after the move: a post edited there goes to its entry too.
			edited := posts
			edited[0].body += "<p>An afterword, added once the blog had moved.</p>"
			site.cur.Store(newEngine(edited, tc.oldURLs, tc.feed))
			o.State = res2.State
			o.Now = func() time.Time { return time.Now().Add(96 * time.Hour) }
			third := &output{}
			if _, err := harvest.UpdateCrawl(context.Background(), o, res2.Watermark, write(third)); err != nil {
				t.Fatal(err)
			}
			if after := len(folders()); after != before {
				t.Errorf("%d entry folders after an update of the moved blog, want %d", after, before)
			}
			for _, e := range third.Entries {
				if want := res2.State.Moved[e.URL]; want == "" || !slicesContains(e.Aliases, want) {
					t.Errorf("entry %s emitted after the move without its archived URL %q among its aliases %q", e.URL, want, e.Aliases)
				}
			}
		})
	}
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// TestUpdateCrawlBusyBlogIsNoMove: a blog that published more posts since
// the last crawl than its feed lists (every item new, every item listed
// before pushed out) has not moved: its new items are dated after the
// last crawl, where a move lists the old posts at new URLs. The update
// archives the new posts as new entries and asks for none of the
// archived URLs (a suspected move asks up to MaxMoveProbes of them, and
// could take the blog for a stranger's).
func TestUpdateCrawlBusyBlogIsNoMove(t *testing.T) {
	t.Parallel()
	names := []string{"alder", "birch", "cedar", "dogwood", "elm", "fir", "gum", "hazel", "ivy", "juniper", "larch", "maple"}
	var posts []movePost
	start := time.Date(2019, 5, 1, 9, 30, 0, 0, time.UTC)
	for i, name := range names[:6] {
		posts = append(posts, movePost{slug: name + "-notes", title: "Notes on the " + name, body: prose(name, 3), date: start.AddDate(0, 0, 5*i)})
	}
	site := &switchSite{}
	site.cur.Store(oldEngine(posts))
	asked := &pathCounts{}
	srv := asked.serve(t, site)
	first := &output{}
	o := options("busy", srv.URL)
	res, err := harvest.NewCrawl(context.Background(), o, first.Emit)
	if err != nil {
		t.Fatal(err)
	}
	var archived []harvest.ArchivedPost
	for _, e := range first.Entries {
		archived = append(archived, harvest.ArchivedPost{URL: e.URL, Aliases: e.Aliases, GUID: e.AltIdentifier,
			Title: e.Title, Created: e.Created, Text: textsim.HTMLText(e.Content)})
	}
	now := time.Now().UTC().Truncate(time.Second)
	for i, name := range names[6:] { // newest first in the feed: oldEngine lists them as given
		posts = append([]movePost{{slug: name + "-notes", title: "Notes on the " + name, body: prose(name, 3),
			date: now.Add(time.Duration(i) * time.Minute)}}, posts...)
	}
	busy := oldEngine(posts)
	var items []miniItem
	for i, p := range posts[:6] { // the feed lists the six new posts only
		items = append(items, miniItem{path: "/posts/" + p.slug + ".html", title: p.title, body: p.body, date: p.date,
			guid: fmt.Sprintf("tag:busy.example,2026:%d", i), comments: -1})
	}
	busy.docs["/feed.xml"] = rss("Weir", "en", items)
	site.cur.Store(busy)
	asked.reset()
	o.State = res.State
	o.ArchivedPosts = func() ([]harvest.ArchivedPost, error) { return archived, nil }
	second := &output{}
	if _, err := harvest.UpdateCrawl(context.Background(), o, res.Watermark, second.Emit); err != nil {
		t.Fatalf("the update of a busy blog failed: %v", err)
	}
	if len(second.Entries) != 6 {
		t.Errorf("the update archived %d entries, want the 6 new posts", len(second.Entries))
	}
	for _, name := range names[:6] {
		if n := asked.of("/posts/" + name + "-notes.html"); n > 0 {
			t.Errorf("the archived post %s was asked for %d times: the busy blog was taken for a moved one", name, n)
		}
	}
}

// pathCounts counts the requests a test server receives, by path.
type pathCounts struct {
	mu sync.Mutex
	n  map[string]int
}

// serve starts a server of h that counts each request's path.
func (p *pathCounts) serve(t *testing.T, h http.Handler) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		if p.n == nil {
			p.n = map[string]int{}
		}
		p.n[r.URL.Path]++
		p.mu.Unlock()
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// reset forgets the counts so far.
func (p *pathCounts) reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	clear(p.n)
}

// of returns the requests for path so far.
func (p *pathCounts) of(path string) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n[path]
}
