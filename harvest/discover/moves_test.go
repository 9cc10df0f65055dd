package discover_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest/discover"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// testClient is a fetch client for loopback servers.
func testClient(t *testing.T) *fetch.Client {
	cl, err := fetch.New(fetch.Options{UserAgent: "blogharvest-test", AllowHosts: []string{"127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cl.Close() })
	return cl
}

// statusServer answers /status/N with HTTP N, and any other path with
// an HTML page (no feed).
func statusServer(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/status/{code}", func(w http.ResponseWriter, r *http.Request) {
		code, _ := strconv.Atoi(r.PathValue("code"))
		http.Error(w, "status", code)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<!doctype html><title>A page</title><p>No feed here.</p>")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestFeedMayHaveMoved: the errors of reading the known feed, from a
// real server, that send an UpdateCrawl looking for it again (404, 410,
// 403, 401, a page that is no feed) and those that do not (a 5xx, a
// connection refused: the blog is down); a configured feed, or a crawl
// not from the last crawl's state, never looks.
func TestFeedMayHaveMoved(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := statusServer(t)
	cl := testClient(t)
	f := discover.NewFeeds(discover.FeedConfig{}, cl, slog.New(slog.DiscardHandler))
	readErr := func(path string) error {
		r := f.Read(ctx, srv.URL+path, nil)
		if r.Feed != nil || r.Err == nil {
			t.Fatalf("%s read as a feed: %+v", path, r)
		}
		return r.Err
	}
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close()
	deadErr := f.Read(ctx, deadURL+"/feed.xml", nil).Err

	update := discover.NewMoves(discover.MoveConfig{UseState: true}, discover.MoveDeps{})
	given := discover.NewMoves(discover.MoveConfig{UseState: true, FeedGiven: true}, discover.MoveDeps{})
	fresh := discover.NewMoves(discover.MoveConfig{}, discover.MoveDeps{})
	for _, tc := range []struct {
		name string
		err  error
		want bool
	}{
		{"404", readErr("/status/404"), true},
		{"410", readErr("/status/410"), true},
		{"403", readErr("/status/403"), true},
		{"401", readErr("/status/401"), true},
		{"no feed", readErr("/page/"), true},
		{"500", readErr("/status/500"), false},
		{"400", readErr("/status/400"), false},
		{"connection refused", deadErr, false},
		{"no error", nil, false},
	} {
		if got := update.FeedMayHaveMoved(tc.err); got != tc.want {
			t.Errorf("%s (%v): may have moved %v, want %v", tc.name, tc.err, got, tc.want)
		}
		if given.FeedMayHaveMoved(tc.err) || fresh.FeedMayHaveMoved(tc.err) {
			t.Errorf("%s: a configured feed or a crawl not from the last state looks for the feed again", tc.name)
		}
	}
}

// TestFeedsFindMoved: a known feed gone (404) is found again at the
// blog's URL (the home page declares /feed.xml): the move names both
// feeds, the old one's ledger line is a forced redirect to the new one,
// the home page read to find it is returned when asked for, and the new
// feed's first page is not fetched again by Read. A feed found again at
// its known URL is no move; a blog whose URL names no feed returns why.
func TestFeedsFindMoved(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	b := newFeedBlog(t)
	home, old, feedURL := b.srv.URL+"/", b.srv.URL+"/rss/", b.srv.URL+"/feed.xml"
	var w warns

	f := b.feeds(t, discover.FeedConfig{})
	mv := f.FindMoved(ctx, home, old, fmt.Errorf("HTTP 404"), true, scope{}, &w)
	if !mv.Moved || mv.From != old || mv.To != feedURL || mv.Err != nil {
		t.Fatalf("moved %+v, want from %s to %s", mv, old, feedURL)
	}
	want := discover.LedgerLine{URL: old, Fate: discover.FateRedirect, Detail: feedURL + " (the posts feed moved: found again from the home page)", Via: "feed", Force: true}
	if len(mv.Lines) != 1 || mv.Lines[0] != want {
		t.Errorf("ledger lines %+v, want %+v", mv.Lines, want)
	}
	if mv.Home == nil || mv.Home.URL != home || mv.Home.Status != http.StatusOK || mv.Home.Resp == nil {
		t.Errorf("home page %+v, want %s's capture", mv.Home, home)
	}
	if len(w) != 1 {
		t.Errorf("warnings %q, want the move's", w)
	}
	if r := f.Read(ctx, feedURL, nil); r.Feed == nil || b.requests("/feed.xml") != 1 {
		t.Errorf("the new feed read %+v after %d requests of it, want read once", r, b.requests("/feed.xml"))
	}

	if mv := f.FindMoved(ctx, home, old, fmt.Errorf("HTTP 404"), false, scope{}, &w); !mv.Moved || mv.Home != nil {
		t.Errorf("a crawl that read the home page: %+v, want the move without the home page", mv)
	}
	if mv := f.FindMoved(ctx, home, feedURL, fmt.Errorf("HTTP 403"), true, scope{}, &w); mv.Moved || mv.Err != nil || len(mv.Lines) != 0 {
		t.Errorf("the feed found again at its known URL: %+v, want no move", mv)
	}
	w = nil
	if mv := f.FindMoved(ctx, b.srv.URL+"/gone/", old, fmt.Errorf("HTTP 404"), true, scope{}, &w); mv.Moved || mv.Err == nil || len(w) != 1 {
		t.Errorf("no feed at the blog's URL: %+v, warnings %q; want why, and a warning", mv, w)
	}
}

// key is an item's link as its State.Items key.
type key struct{}

func (key) Key(it *feed.Item) string { return it.Link }

// TestMovesSuspect: a move is suspected when the feed moved, or when
// most of the first page's items (two at least) are at URLs the last
// crawl did not list while most of those it listed are gone; items
// published since the last crawl are new posts, no evidence; a crawl not
// from the last crawl's state, or without a feed, suspects nothing.
func TestMovesSuspect(t *testing.T) {
	t.Parallel()
	since := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	old, recent := since.AddDate(0, -2, 0), since.AddDate(0, 0, 5)
	last := map[string]string{"http://b.test/a.html": "", "http://b.test/b.html": "", "http://b.test/c.html": ""}
	page := func(published time.Time, links ...string) *feed.Feed {
		f := &feed.Feed{FirstPage: len(links)}
		for _, l := range links {
			f.Items = append(f.Items, feed.Item{Link: l, Published: published})
		}
		return f
	}
	stage := func(useState bool) *discover.Moves {
		return discover.NewMoves(discover.MoveConfig{UseState: useState, Since: since, Last: last},
			discover.MoveDeps{Key: key{}, Log: slog.New(slog.DiscardHandler)})
	}
	moved := page(old, "http://b.test/2021/a/", "http://b.test/2021/b/", "http://b.test/2021/c/")
	for _, tc := range []struct {
		name      string
		f         *feed.Feed
		feedMoved bool
		useState  bool
		want      bool
	}{
		{"old posts at new URLs", moved, false, true, true},
		{"the feed moved", page(old, "http://b.test/a.html"), true, true, true},
		{"the same URLs", page(old, "http://b.test/a.html", "http://b.test/b.html", "http://b.test/c.html"), false, true, false},
		{"new posts pushed the old ones off", page(recent, "http://b.test/d.html", "http://b.test/e.html", "http://b.test/f.html"), false, true, false},
		{"one item at a new URL", page(old, "http://b.test/2021/a/"), false, true, false},
		{"half the items listed before", page(old, "http://b.test/a.html", "http://b.test/b.html", "http://b.test/2021/c/", "http://b.test/2021/d/"), false, true, false},
		{"one of two items listed before, most listed gone", page(old, "http://b.test/a.html", "http://b.test/2021/x/"), false, true, false},
		{"not from the last state", moved, true, false, false},
		{"no feed", nil, true, true, false},
	} {
		if got := stage(tc.useState).Suspect(tc.f, tc.feedMoved); got.Moving != tc.want {
			t.Errorf("%s: suspected %+v, want moving %v", tc.name, got, tc.want)
		}
	}
}

// stub reads a page whose body is "stub:URL" as a redirect stub to URL.
type stub struct{}

func (stub) Stub(resp *fetch.Response) string {
	if b := string(resp.Body); len(b) > 5 && b[:5] == "stub:" {
		return b[5:]
	}
	return ""
}

// steps counts the progress steps.
type steps struct{ n int }

func (s *steps) Step(string) { s.n++ }

// TestMovesProbe: the archived URLs the feed no longer lists are asked
// for, of a real server: one redirected (a Redirect to its target, the
// ledger line redirect), one a redirect stub (the same, to the stub's
// target), one gone (the line failed), one answering (met); a URL the
// feed lists, or none, is not asked for; with NoProbes nothing is.
func TestMovesProbe(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	mux := http.NewServeMux()
	mux.HandleFunc("/a.html", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/2021/a/", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/b.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "stub:"+"http://"+r.Host+"/2021/b/")
	})
	mux.HandleFunc("/c.html", http.NotFound)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<p>here</p>")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	u := func(p string) string { return srv.URL + p }

	var w warns
	var st steps
	deps := discover.MoveDeps{Fetch: testClient(t), Canon: scope{}, Stub: stub{}, Progress: &st, Warn: &w, Log: slog.New(slog.DiscardHandler)}
	archived := []string{u("/a.html"), "", u("/b.html"), u("/c.html"), u("/d.html"), u("/e.html")}
	listed := map[string]bool{u("/e.html"): true}
	p := discover.NewMoves(discover.MoveConfig{UseState: true}, deps).Probe(ctx, archived, listed)

	wantRedirects := []discover.Redirect{{Post: 0, Target: u("/2021/a/")}, {Post: 2, Target: u("/2021/b/")}}
	if fmt.Sprint(p.Redirects) != fmt.Sprint(wantRedirects) {
		t.Errorf("redirects %+v, want %+v", p.Redirects, wantRedirects)
	}
	if p.Asked != 4 || p.Pages != 3 || st.n != 4 {
		t.Errorf("asked %d, pages %d, steps %d; want 4 asked, 3 pages (the 404 is none), 4 steps", p.Asked, p.Pages, st.n)
	}
	if len(p.Lines) != 4 {
		t.Fatalf("ledger lines %+v, want 4", p.Lines)
	}
	for i, want := range []struct{ url, fate, detail string }{
		{u("/a.html"), discover.FateRedirect, u("/2021/a/")},
		{u("/b.html"), discover.FateRedirect, u("/2021/b/")},
		{u("/c.html"), discover.FateFailed, ""},
		{u("/d.html"), "", ""},
	} {
		l := p.Lines[i]
		if l.URL != want.url || l.Fate != want.fate || l.Via != "archived" || l.Force || want.detail != "" && l.Detail != want.detail {
			t.Errorf("line %d: %+v, want %s %q %s", i, l, want.url, want.fate, want.detail)
		}
	}
	if len(w) != 0 {
		t.Errorf("warnings %q, want none", w)
	}

	st.n = 0
	if p := discover.NewMoves(discover.MoveConfig{UseState: true, NoProbes: true}, deps).Probe(ctx, archived, listed); p.Asked != 0 || len(p.Lines) != 0 || st.n != 0 {
		t.Errorf("NoProbes: %+v, want nothing asked", p)
	}
}
