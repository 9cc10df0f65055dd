package discover_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/discover"
)

// statusBlog answers each path with its status (200, with a page, for
// any path not named), counting the requests and keeping the
// If-None-Match each came with.
type statusBlog struct {
	srv    *httptest.Server
	status map[string]int
	mu     sync.Mutex
	n      map[string]int
	etag   map[string]string
}

func newStatusBlog(t *testing.T, status map[string]int) *statusBlog {
	b := &statusBlog{status: status, n: map[string]int{}, etag: map[string]string{}}
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.mu.Lock()
		b.n[r.URL.Path]++
		b.etag[r.URL.Path] = r.Header.Get("If-None-Match")
		b.mu.Unlock()
		if code := b.status[r.URL.Path]; code != 0 && code != http.StatusOK {
			http.Error(w, "status", code)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<p>a post</p>"))
	}))
	t.Cleanup(b.srv.Close)
	return b
}

func (b *statusBlog) requests(path string) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.n[path]
}

// TestGoneAskGone: the posts of the last State.Gone that are due are
// asked, of a real server, with their last validators: a suspected post
// answering 404 is confirmed withdrawn (an event, a forced ledger line
// withdrawn, a warning), one answering a page is cleared; a withdrawn
// post still gone waits twice as long, one answering is restored (an
// event, a line restored); a 503 is no evidence (asked again next
// time); a withdrawn post not due is not asked. A crawl not from the last
// crawl's state asks nothing.
func TestGoneAskGone(t *testing.T) {
	t.Parallel()
	b := newStatusBlog(t, map[string]int{"/s1": 404, "/w1": 410, "/s3": 503, "/w3": 404})
	u := func(p string) string { return b.srv.URL + p }
	start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	first := start.AddDate(0, 0, -1)
	confirmed := start.AddDate(0, 0, -20)
	last := map[string]blogharvest.GonePost{
		u("/s1"): {First: first, FirstStatus: 404, Status: 404, Asked: first},
		u("/s2"): {First: first, FirstStatus: 404, Status: 404, Asked: first},
		u("/s3"): {First: first, FirstStatus: 404, Status: 404, Asked: first},
		u("/w1"): {First: confirmed, FirstStatus: 410, Confirmed: confirmed, Status: 410, Asked: confirmed, Next: confirmed.AddDate(0, 0, 7)},
		u("/w2"): {First: confirmed, FirstStatus: 404, Confirmed: confirmed, Status: 404, Asked: confirmed, Next: confirmed.AddDate(0, 0, 7)},
		u("/w3"): {First: confirmed, FirstStatus: 404, Confirmed: confirmed, Status: 404, Asked: start.AddDate(0, 0, -1), Next: start.AddDate(0, 0, 6)},
	}
	var w warns
	deps := discover.GoneDeps{Fetch: testClient(t), Warn: &w, Log: slog.New(slog.DiscardHandler)}
	cfg := discover.GoneConfig{UseState: true, Start: start, Gone: last, Pages: map[string]blogharvest.Validators{u("/s2"): {ETag: `"e2"`}}}
	g := discover.NewGone(cfg, deps).AskGone(context.Background())

	if g.Events != 2 {
		t.Errorf("%d events, want 2 (s1 withdrawn, w2 restored)", g.Events)
	}
	if p, ok := g.Posts[u("/s1")]; !ok || !p.Confirmed.Equal(start) || !p.Next.Equal(start.AddDate(0, 0, 7)) {
		t.Errorf("s1: %+v, want confirmed at the start, asked again in 7 days", p)
	}
	if _, ok := g.Posts[u("/s2")]; ok {
		t.Error("s2 answers, but is still suspected")
	}
	if p := g.Posts[u("/s3")]; !p.Asked.Equal(start) || !p.Confirmed.IsZero() {
		t.Errorf("s3 (503): %+v, want asked now, still only suspected", p)
	}
	if p := g.Posts[u("/w1")]; !p.Asked.Equal(start) || !p.Next.Equal(start.AddDate(0, 0, 14)) {
		t.Errorf("w1 still gone: %+v, want asked now, next in 14 days", p)
	}
	if _, ok := g.Posts[u("/w2")]; ok {
		t.Error("w2 answers, but is still withdrawn")
	}
	if p := g.Posts[u("/w3")]; p != last[u("/w3")] || b.requests("/w3") != 0 {
		t.Errorf("w3, not due: %+v after %d requests, want untouched, not asked", p, b.requests("/w3"))
	}
	if b.etag["/s2"] != `"e2"` {
		t.Errorf("s2 asked with If-None-Match %q, want its last validator", b.etag["/s2"])
	}
	var fates []string
	for _, l := range g.Lines {
		if !l.Force || l.Via != "archived" {
			t.Errorf("line %+v, want forced, via archived", l)
		}
		fates = append(fates, strings.TrimPrefix(l.URL, b.srv.URL)+" "+l.Fate)
	}
	if got := strings.Join(fates, ", "); got != "/s1 withdrawn, /w2 restored" && got != "/w2 restored, /s1 withdrawn" {
		t.Errorf("ledger lines %s, want s1 withdrawn and w2 restored", got)
	}
	if len(w) != 2 {
		t.Errorf("warnings %q, want the withdrawal's and the restoration's", w)
	}
	if last[u("/s1")].Confirmed.IsZero() != true {
		t.Error("the last crawl's State.Gone was written")
	}

	before := b.requests("/s1")
	if g := discover.NewGone(discover.GoneConfig{Start: start, Gone: last}, deps).AskGone(context.Background()); g.Posts != nil || b.requests("/s1") != before {
		t.Errorf("not from the last state: %+v, want nothing asked", g)
	}
}

// TestGoneAskDropped: the posts the feed's first page no longer lists
// are asked when it lost more than it gained: a 404 or 410 makes one
// suspected (a forced ledger line failed), a page leaves it; a post gone
// already is not asked, and when the feed lists it again it is due
// first thing next run. When as many posts came as went (pushed off the
// page) nothing is asked.
func TestGoneAskDropped(t *testing.T) {
	t.Parallel()
	b := newStatusBlog(t, map[string]int{"/b": 404, "/d": 410})
	u := func(p string) string { return b.srv.URL + p }
	start := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	withdrawn := blogharvest.GonePost{First: start.AddDate(0, -1, 0), FirstStatus: 404, Confirmed: start.AddDate(0, 0, -20), Asked: start.AddDate(0, 0, -2), Next: start.AddDate(0, 0, 5)}
	items := map[string]string{u("/a"): "", u("/b"): "", u("/c"): "", u("/d"): "", u("/e"): ""}
	cfg := discover.GoneConfig{UseState: true, Start: start, Items: items, Gone: map[string]blogharvest.GonePost{u("/e"): withdrawn}}
	gone := discover.NewGone(cfg, discover.GoneDeps{Fetch: testClient(t), Warn: &warns{}, Log: slog.New(slog.DiscardHandler)})

	pushed := map[string]string{u("/a"): "", u("/x"): "", u("/y"): "", u("/z"): ""}
	if g := gone.AskDropped(context.Background(), nil, pushed); len(g.Lines) != 0 || b.requests("/b")+b.requests("/c")+b.requests("/d") != 0 {
		t.Errorf("pushed off the page: %+v, want nothing asked", g)
	}

	now := map[string]string{u("/a"): "", u("/x"): "", u("/e"): ""}
	g := gone.AskDropped(context.Background(), nil, now)
	for _, p := range []string{"/b", "/c", "/d"} {
		if b.requests(p) != 1 {
			t.Errorf("%s asked %d times, want once", p, b.requests(p))
		}
	}
	if b.requests("/e") != 0 || b.requests("/a") != 0 {
		t.Error("a post gone already, or one still listed, was asked")
	}
	want := map[string]int{u("/b"): 404, u("/d"): 410}
	for k, st := range want {
		if p := g.Posts[k]; p.FirstStatus != st || !p.First.Equal(start) || !p.Confirmed.IsZero() {
			t.Errorf("%s: %+v, want suspected with HTTP %d", k, p, st)
		}
	}
	if _, ok := g.Posts[u("/c")]; ok {
		t.Error("c answers, but is suspected")
	}
	if p := g.Posts[u("/e")]; !p.Next.IsZero() {
		t.Errorf("e, withdrawn and listed again: next %v, want due first thing", p.Next)
	}
	if !cfg.Gone[u("/e")].Next.Equal(withdrawn.Next) {
		t.Error("the last crawl's State.Gone was written")
	}
	if len(g.Lines) != 2 || g.Lines[0].URL != u("/b") || g.Lines[1].URL != u("/d") {
		t.Fatalf("ledger lines %+v, want b's and d's", g.Lines)
	}
	for _, l := range g.Lines {
		if l.Fate != discover.FateFailed || !l.Force || l.Via != "archived" {
			t.Errorf("line %+v, want failed, forced, via archived", l)
		}
	}
	if g.Events != 0 {
		t.Errorf("%d events, want none (suspected only)", g.Events)
	}
}
