package discover_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/discover"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// suspected has m suspect a move (Suspect: the feed moved) and returns
// it.
func suspected(t *testing.T, m *discover.Moves) *discover.Moves {
	t.Helper()
	if !m.Suspect(&feed.Feed{}, true).Moving || !m.Moving() {
		t.Fatalf("the feed moved, and no move suspected")
	}
	return m
}

// movedBlog is a blog on loopback that moved: /a.html redirects to
// /2021/a/, /b.html is gone (404), every other path a page.
func movedBlog(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/a.html", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/2021/a/", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/b.html", http.NotFound)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<p>here</p>")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestMovesProbeArchive: a suspected move (Suspect, kept by the stage:
// Moving) has the stage read the
// archive's posts and ask a real server for the archived URLs the feed
// does not list (one redirected, one gone); Identify then names the
// archived post each emitted post continues (by the redirect found, by
// the last crawl's State.Moved first), none for a post archived under
// its URL already, for a new post, or for a post matched already, and
// Moved keeps the last crawl's moves with this crawl's. No move
// suspected, no posts (Learn), or posts that cannot be read (a warning)
// ask for nothing and match by State.Moved alone; a crawl not from the
// last crawl's state matches nothing.
func TestMovesProbeArchive(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := movedBlog(t)
	u := func(p string) string { return srv.URL + p }
	day := time.Date(2021, 3, 4, 10, 0, 0, 0, time.UTC)
	posts := []discover.ArchivedPost{
		{URL: u("/a.html"), Title: "Alder", Created: day},
		{URL: u("/b.html"), Title: "Birch", Created: day},
		{URL: u("/c.html"), Title: "Cedar", Created: day},
	}
	reads := 0
	read := func() ([]discover.ArchivedPost, error) { reads++; return posts, nil }
	var w warns
	var st steps
	cfg := discover.MoveConfig{UseState: true, Moved: map[string]string{u("/2020/z/"): u("/z.html")}}
	deps := discover.MoveDeps{Posts: read, Fetch: testClient(t), Canon: scope{}, Stub: stub{}, Progress: &st, Warn: &w, Log: slog.New(slog.DiscardHandler)}

	var none *discover.Moves // no client yet: no stage
	if none.Moving() {
		t.Errorf("a nil stage suspects a move")
	}
	m := discover.NewMoves(cfg, deps)
	if p := m.ProbeArchive(ctx, nil); p.Asked != 0 || reads != 0 || m.Moving() {
		t.Errorf("no move suspected: %+v, %d reads of the archive, want nothing", p, reads)
	}
	if m.Suspect(&feed.Feed{Items: []feed.Item{{Link: u("/c.html")}}, FirstPage: 1}, false); m.Moving() || m.ProbeArchive(ctx, nil).Asked != 0 || reads != 0 {
		t.Errorf("a feed that did not move: a move suspected, or the archive read (%d)", reads)
	}
	p := suspected(t, m).ProbeArchive(ctx, map[string]bool{u("/c.html"): true})
	if reads != 1 || p.Asked != 2 || p.Pages != 1 || len(p.Lines) != 2 || fmt.Sprint(p.Redirects) != fmt.Sprint([]discover.Redirect{{Post: 0, Target: u("/2021/a/")}}) {
		t.Fatalf("a move suspected: %+v (%d reads), want a.html redirected, b.html failed, c.html listed", p, reads)
	}
	if p.Lines[0].Fate != discover.FateRedirect || p.Lines[1].Fate != discover.FateFailed {
		t.Errorf("ledger lines %+v, want redirect then failed", p.Lines)
	}

	entry := func(path, title string) *blogharvest.Entry {
		return &blogharvest.Entry{URL: u(path), Title: title, Created: day.AddDate(1, 0, 0), Content: "<p>nothing alike</p>"}
	}
	for _, tc := range []struct {
		name      string
		e         *blogharvest.Entry
		from, how string
	}{
		{"by the redirect", entry("/2021/a/", "Alder renamed"), u("/a.html"), "redirect"},
		{"matched already", entry("/2021/a/", "Alder renamed"), "", ""},
		{"State.Moved", entry("/2020/z/", "Zelkova"), u("/z.html"), ""},
		{"archived already", entry("/c.html", "Cedar"), "", ""},
		{"a new post", entry("/2021/fir/", "Fir"), "", ""},
	} {
		got := m.Identify(tc.e)
		if got.From != tc.from || !strings.Contains(got.How, tc.how) || tc.how == "" && got.How != "" {
			t.Errorf("%s: %+v, want from %q by %q", tc.name, got, tc.from, tc.how)
		}
		if len(tc.e.Aliases) != 0 {
			t.Errorf("%s: the entry was changed: aliases %q", tc.name, tc.e.Aliases)
		}
	}
	want := map[string]string{u("/2020/z/"): u("/z.html"), u("/2021/a/"): u("/a.html")}
	if got := m.Moved(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Moved %v, want %v", got, want)
	}
	if cfg.Moved[u("/2021/a/")] != "" {
		t.Errorf("the config's State.Moved was written")
	}
	if len(w) != 0 {
		t.Errorf("warnings %q, want none", w)
	}

	for name, d := range map[string]discover.MoveDeps{
		"no posts":   {Fetch: deps.Fetch, Canon: scope{}, Stub: stub{}, Progress: &st, Warn: &w, Log: deps.Log},
		"read fails": {Posts: func() ([]discover.ArchivedPost, error) { return nil, errors.New("disk on fire") }, Fetch: deps.Fetch, Canon: scope{}, Stub: stub{}, Progress: &st, Warn: &w, Log: deps.Log},
	} {
		m := suspected(t, discover.NewMoves(cfg, d))
		if p := m.ProbeArchive(ctx, nil); p.Asked != 0 {
			t.Errorf("%s: %+v, want nothing asked", name, p)
		}
		if got := m.Identify(entry("/2021/a/", "Alder")); got.From != "" {
			t.Errorf("%s: matched %+v without the archive's posts", name, got)
		}
		if got := m.Identify(entry("/2020/z/", "Zelkova")); got.From != u("/z.html") || got.How != "" {
			t.Errorf("%s: %+v, want State.Moved's", name, got)
		}
	}
	if len(w) != 1 || !strings.Contains(w[0], "disk on fire") {
		t.Errorf("warnings %q, want one of the archive's posts unread", w)
	}

	off := discover.NewMoves(discover.MoveConfig{Moved: cfg.Moved}, deps)
	if got := off.Identify(entry("/2020/z/", "Zelkova")); got.From != "" {
		t.Errorf("not from the last crawl's state: %+v, want nothing", got)
	}
	if got := discover.NewMoves(discover.MoveConfig{UseState: true}, deps).Moved(); got != nil {
		t.Errorf("no moves: Moved %v, want nil", got)
	}
}

// TestMovesCheckIdentity: after a suspected move whose archived URLs a
// real server answers with a 404 or a page of its own, feed items that
// are none of the archived posts are a stranger's, with three lines of
// evidence naming the feed (and the archived one it replaced); an item
// found again, an archived URL redirecting, AcceptIdentity, no move
// suspected, no posts read or no feed are no stranger.
func TestMovesCheckIdentity(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	srv := movedBlog(t)
	u := func(p string) string { return srv.URL + p }
	day := time.Date(2021, 3, 4, 10, 0, 0, 0, time.UTC)
	posts := []discover.ArchivedPost{
		{URL: u("/b.html"), Title: "Birch", Created: day, Text: strings.Join(words("w", 20), " ")},
		{URL: u("/c.html"), Title: "Cedar", Created: day, Text: "cedar smells of pencils"},
	}
	deps := func() discover.MoveDeps {
		return discover.MoveDeps{Posts: func() ([]discover.ArchivedPost, error) { return posts, nil }, Fetch: testClient(t), Canon: scope{},
			Stub: stub{}, Progress: &steps{}, Warn: &warns{}, Log: slog.New(slog.DiscardHandler)}
	}
	stranger := &feed.Feed{Items: []feed.Item{
		{Link: u("/2024/casino/"), Title: "Best casino", Published: day.AddDate(3, 0, 0), Content: "<p>" + sharing(5) + "</p>"},
		{Link: u("/2024/loans/"), Title: "Cheap loans", Published: day.AddDate(3, 0, 0)},
	}}
	unsuspected := discover.NewMoves(discover.MoveConfig{UseState: true}, deps())
	unsuspected.ProbeArchive(ctx, nil)
	if ev := unsuspected.CheckIdentity(stranger, u("/feed"), ""); ev != nil {
		t.Errorf("no move suspected: %q", ev)
	}
	m := suspected(t, discover.NewMoves(discover.MoveConfig{UseState: true}, deps()))
	if ev := m.CheckIdentity(stranger, u("/feed"), ""); ev != nil {
		t.Errorf("before the archive's posts were read: %q, want none", ev)
	}
	m.ProbeArchive(ctx, nil)
	ev := m.CheckIdentity(stranger, u("/feed"), u("/old.xml"))
	if len(ev) != 3 || !strings.Contains(ev[0], "the feed "+u("/feed")+" (the archived feed "+u("/old.xml")+" is gone) lists 2 items") ||
		!strings.Contains(ev[0], "of the 2 archived posts") || !strings.Contains(ev[2], "under 0.50") {
		t.Errorf("a stranger's feed: evidence %q", ev)
	}
	if ev := m.CheckIdentity(nil, u("/feed"), ""); ev != nil {
		t.Errorf("no feed: %q", ev)
	}
	found := &feed.Feed{Items: append(stranger.Items, feed.Item{Link: u("/2021/birch/"), Title: "Birch", Published: day})}
	if ev := m.CheckIdentity(found, u("/feed"), ""); ev != nil {
		t.Errorf("an item found again: %q", ev)
	}
	accept := suspected(t, discover.NewMoves(discover.MoveConfig{UseState: true, AcceptIdentity: true}, deps()))
	accept.ProbeArchive(ctx, nil)
	if ev := accept.CheckIdentity(stranger, u("/feed"), ""); ev != nil {
		t.Errorf("AcceptIdentity: %q", ev)
	}
	posts = append(posts, discover.ArchivedPost{URL: u("/a.html"), Title: "Alder"}) // redirects to a page of the site
	moved := suspected(t, discover.NewMoves(discover.MoveConfig{UseState: true}, deps()))
	moved.ProbeArchive(ctx, nil)
	if ev := moved.CheckIdentity(stranger, u("/feed"), ""); ev != nil {
		t.Errorf("an archived URL redirecting: %q", ev)
	}
}

// TestMovesNoFeed: a blog whose feed is gone and not found again, on a
// real server: when its address answered (no feed there) and none of
// the newest archived posts is at its URL, a stranger, with the ledger
// lines of the posts asked for and three lines of evidence; a post still
// there is no stranger; an address that did not answer (a 503), no
// posts, AcceptIdentity or a crawl not from the last crawl's state ask
// for nothing.
func TestMovesNoFeed(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	text := strings.Join(words("p", 30), " ")
	mux := http.NewServeMux()
	mux.HandleFunc("/still.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprintf(w, "<html><body><p>%s</p></body></html>", text)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body><p>This domain is for sale.</p></body></html>")
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	u := func(p string) string { return srv.URL + p }
	day := time.Date(2021, 3, 4, 10, 0, 0, 0, time.UTC)
	posts := []discover.ArchivedPost{{URL: u("/a.html"), Created: day, Text: text}, {URL: u("/b.html"), Created: day.AddDate(0, 0, -1), Text: text}}
	cl := testClient(t)
	moves := func(cfg discover.MoveConfig, posts []discover.ArchivedPost) *discover.Moves {
		return discover.NewMoves(cfg, discover.MoveDeps{Posts: func() ([]discover.ArchivedPost, error) { return posts, nil }, Fetch: cl, Canon: scope{},
			Stub: stub{}, Progress: &steps{}, Warn: &warns{}, Log: slog.New(slog.DiscardHandler)})
	}
	cause := &fetch.StatusError{Code: 404}
	noFeed := fmt.Errorf("discover: %w", feed.ErrNotFeed)
	on := discover.MoveConfig{UseState: true}

	a, ev := moves(on, posts).NoFeed(ctx, u("/feed"), u("/"), cause, noFeed)
	if a.Asked != 2 || a.Pages != 2 || len(a.Lines) != 2 || len(ev) != 3 || !strings.Contains(ev[0], "the archived feed "+u("/feed")+" answered") ||
		!strings.Contains(ev[1], "no feed found again from "+u("/")) || !strings.Contains(ev[2], "none of the 2 newest archived posts") {
		t.Errorf("a parked address: %+v, evidence %q", a, ev)
	}
	still := append(posts[:1:1], discover.ArchivedPost{URL: u("/still.html"), Created: day.AddDate(0, 0, -2), Text: text})
	if a, ev := moves(on, still).NoFeed(ctx, u("/feed"), u("/"), cause, noFeed); ev != nil || a.Still != u("/still.html") || len(a.Lines) != 1 {
		t.Errorf("a post still at its URL: %+v, evidence %q", a, ev)
	}
	for name, tc := range map[string]struct {
		cfg   discover.MoveConfig
		posts []discover.ArchivedPost
		found error
	}{
		"address down":        {on, posts, &fetch.StatusError{Code: 503}},
		"no posts":            {on, nil, noFeed},
		"AcceptIdentity":      {discover.MoveConfig{UseState: true, AcceptIdentity: true}, posts, noFeed},
		"not from last state": {discover.MoveConfig{}, posts, noFeed},
	} {
		if a, ev := moves(tc.cfg, tc.posts).NoFeed(ctx, u("/feed"), u("/"), cause, tc.found); a.Asked != 0 || ev != nil {
			t.Errorf("%s: %+v, evidence %q, want nothing asked", name, a, ev)
		}
	}
}

// TestAnswered: a 4xx or a page without a feed is an answer of the
// address (a stranger may be there); a 5xx, a 408 or 429, or a
// connection error is a blog down, never a stranger.
func TestAnswered(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&fetch.StatusError{Code: 404}, true},
		{&fetch.StatusError{Code: 403}, true},
		{fmt.Errorf("discover: %w", blogharvest.ErrNotBlog), true},
		{feed.ErrNotFeed, true},
		{&fetch.StatusError{Code: 503}, false},
		{&fetch.StatusError{Code: 429}, false},
		{errors.New("dial tcp: connection refused"), false},
	} {
		if got := discover.Answered(tc.err); got != tc.want {
			t.Errorf("Answered(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
