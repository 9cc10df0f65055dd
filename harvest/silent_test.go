package harvest_test

import (
	"bytes"
	"log/slog"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/blogharvest/blogharvest/harvest"
)

// syncBuffer is a bytes.Buffer safe for the crawl's concurrent logging.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestPostWithCanonicalElsewhereIsNotDroppedSilently is finding 2 of issue
// 14: a post page answering 200, matching the post pattern, produced no
// entry and no log line. A theme whose rel=canonical names the home page
// gave the post the home page's identity, processed already, and the post
// vanished. Now such a post is archived under its own URL; a post whose
// canonical names another post archived already is a duplicate, said so in
// the log and the ledger.
func TestPostWithCanonicalElsewhereIsNotDroppedSilently(t *testing.T) {
	b := newTinyBlog(25)
	home, dup, orig := 3, 5, 6
	b.canonical = map[int]string{home: "/", dup: b.path(orig)}
	srv := httptest.NewServer(b)
	defer srv.Close()
	logs := &syncBuffer{}
	o := options("tiny", srv.URL)
	o.PerHost = 1 // orig (newer) is reached before dup through the listings
	o.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	res, out := crawl(t, o)
	got := out.ByURL(t)
	rows := map[string]harvest.LedgerRow{}
	for _, r := range res.Ledger {
		rows[r.URL] = r
	}
	hu := srv.URL + b.path(home)
	if e := got[hu]; e == nil || e.Title != b.title(home) || e.Content == "" {
		t.Errorf("post %s, canonical the home page: entry %v, want it archived under its own URL", hu, e != nil)
	}
	if r := rows[hu]; r.Fate != harvest.FateEntry {
		t.Errorf("post %s: ledger %+v, want entry", hu, r)
	}
	du, ou := srv.URL+b.path(dup), srv.URL+b.path(orig)
	if e := got[ou]; e == nil || e.Title != b.title(orig) {
		t.Errorf("post %s not archived with its own title", ou)
	}
	if r := rows[du]; r.Fate != harvest.FateDuplicate || !strings.Contains(r.Detail, ou) {
		t.Errorf("post %s, canonical %s: ledger %+v, want a duplicate of it", du, ou, r)
	}
	if !strings.Contains(logs.String(), du) {
		t.Errorf("no log line names %s, dropped as a duplicate of %s", du, ou)
	}
	if n := len(got); n != b.posts-1 {
		t.Errorf("%d entries, want %d (every post but the duplicate)", n, b.posts-1)
	}
}

// TestEmptyPostPageIsNoEntry crawls a blog one of whose older posts (not
// in the feed) answers an empty document: it yields neither a title nor an
// article, so it is no entry; its ledger fate says why and a warning names it.
func TestEmptyPostPageIsNoEntry(t *testing.T) {
	b := newTinyBlog(25)
	b.empty = map[int]bool{4: true}
	srv := httptest.NewServer(b)
	defer srv.Close()
	res, out := crawl(t, options("tiny", srv.URL))
	u := srv.URL + b.path(4)
	if e := out.ByURL(t)[u]; e != nil {
		t.Errorf("empty page %s archived: title %q, content %q", u, e.Title, e.Content)
	}
	var row harvest.LedgerRow
	for _, r := range res.Ledger {
		if r.URL == u {
			row = r
		}
	}
	if row.Fate != harvest.FateSkipped || !strings.Contains(row.Detail, "neither a title nor an article") {
		t.Errorf("empty page %s: ledger %+v, want skipped with the reason", u, row)
	}
	warned := false
	for _, w := range res.Warnings {
		warned = warned || strings.Contains(w, u)
	}
	if !warned {
		t.Errorf("no warning names %s (warnings %q)", u, res.Warnings)
	}
}
