package comments

import (
	"fmt"
	"slices"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/render"
)

// TestThreadWatchSelection: of what a post's scripts fetched while it
// rendered, the watch is the JSON answers that held the comments the page
// shows, not the comment app's other calls (counts, settings, the
// member), a POST or a failed request; a page that shows no comment
// gives its GET answers as candidates only.
func TestThreadWatchSelection(t *testing.T) {
	const api = "https://comments.example.org/api/"
	thread := `{"comments":[{"id":"c1","member":{"name":"Ann Lee"},"html":"<p>The crumb came out denser but richer with rye.</p>","created_at":"2025-03-10T09:00:00Z"},` +
		`{"id":"c2","member":{"name":"Bob Ray"},"html":"<p>Rye needs about ten percent more water.</p>","created_at":"2025-03-10T10:00:00Z","parent_id":"c1"}]}`
	other := []render.APIResponse{
		{URL: api + "comments/counts/?ids=p1", Method: "GET", Status: 200, Body: []byte(`{"p1":2}`)},
		{URL: api + "settings/", Method: "GET", Status: 200, Body: []byte(`{"settings":{"title":"Crumb notes","comments_enabled":"all"}}`)},
		{URL: api + "member/", Method: "GET", Status: 204},
		{URL: api + "tiers/", Method: "GET", Status: 200, Body: []byte(`{"tiers":[{"name":"Free","description":"Read every post"}]}`)},
		{URL: api + "comments/", Method: "POST", Status: 200, Body: []byte(thread)},
	}
	page := `<html><body><article><h1>Rye bread</h1><p>A post.</p></article><section>` +
		`<div class="c"><b>Ann Lee</b><p>The crumb came out denser but richer with rye.</p></div>` +
		`<div class="c"><b>Bob Ray</b><p>Rye needs about ten percent more water.</p></div></section></body></html>`
	res := &render.Result{URL: "https://blog.example.org/rye-bread/", HTML: []byte(page),
		API: append([]render.APIResponse{{URL: api + "comments/post/p1/?limit=20", Method: "GET", Status: 200, ETag: `"t1"`, Body: []byte(thread)}}, other...)}
	holding, cands := ThreadWatch(res, "en")
	if len(holding) != 1 || holding[0].URL != api+"comments/post/p1/?limit=20" || holding[0].ETag != `"t1"` || holding[0].Digest != blogharvest.DigestOf([]byte(thread)) || cands != nil {
		t.Errorf("watch %v, candidates %v: want the thread only, with its validators", holding, cands)
	}

	// No comment yet: the thread is an empty list, nothing holds comments.
	empty := &render.Result{URL: "https://blog.example.org/winter-proofing/", HTML: []byte(`<html><body><article><h1>Winter</h1></article></body></html>`),
		API: append([]render.APIResponse{{URL: api + "comments/post/p3/?limit=20", Method: "GET", Status: 200, Body: []byte(`{"comments":[]}`)}}, other...)}
	holding, cands = ThreadWatch(empty, "en")
	var urls []string
	for _, v := range cands {
		urls = append(urls, v.URL)
	}
	want := []string{api + "comments/post/p3/?limit=20", api + "comments/counts/?ids=p1", api + "settings/", api + "tiers/"}
	if holding != nil || !slices.Equal(urls, want) {
		t.Errorf("a page without comments: watch %v, candidates %q; want no watch and the GET answers %q", holding, urls, want)
	}
}

// TestThreadShape: the thread APIs of two posts of one service have one
// shape (the segments and query values naming the post aside); the
// service's other calls, another service and another query have others.
func TestThreadShape(t *testing.T) {
	same := [][2]string{
		{"https://ghost.example.org/members/api/comments/post/6751a0c2e4b0f1001a2b3c4d/?limit=20&order=created_at%20DESC",
			"https://ghost.example.org/members/api/comments/post/6751a0c2e4b0f1001a2b3c99/?order=created_at%20DESC&limit=20"},
		{"https://waline.example.org/api/comment?path=%2Fposts%2Frye-bread%2F&page=1&pageSize=10&sortBy=insertedAt_desc&lang=en-US",
			"https://waline.example.org/api/comment?path=%2Fposts%2Fwinter-proofing%2F&page=1&pageSize=10&sortBy=insertedAt_desc&lang=en-US"},
		{"https://blog.example.org/comments/rye-bread.json", "https://blog.example.org/comments/winter-proofing.json"},
		{"https://talk.example.org/api/threads/rye-bread/comments", "https://talk.example.org/api/threads/sourdough-starter/comments"},
	}
	for _, p := range same {
		if a, b := threadShape(p[0]), threadShape(p[1]); a == "" || a != b {
			t.Errorf("%s and %s: shapes %q and %q, want one", p[0], p[1], a, b)
		}
	}
	differ := [][2]string{
		{"https://ghost.example.org/members/api/comments/post/6751a0c2e4b0f1001a2b3c4d/?limit=20", "https://ghost.example.org/members/api/comments/counts/?ids=6751a0c2e4b0f1001a2b3c4d"},
		{"https://ghost.example.org/members/api/comments/post/6751a0c2e4b0f1001a2b3c4d/?limit=20", "https://ghost.example.org/members/api/member/"},
		{"https://waline.example.org/api/comment?path=%2Fposts%2Frye-bread%2F&page=1", "https://waline.example.org/api/comment?type=count&url=%2Fposts%2Frye-bread%2F"},
		{"https://waline.example.org/api/comment?path=%2Fa%2F", "https://other.example.org/api/comment?path=%2Fa%2F"},
	}
	for _, p := range differ {
		if a, b := threadShape(p[0]), threadShape(p[1]); a == b {
			t.Errorf("%s and %s: one shape %q, want two", p[0], p[1], a)
		}
	}
}

// TestThreadState: State.Threads holds the comment threads of the posts
// rendered, those of a post without comments that have a thread's shape
// (learned from another post, or from the last watch), not the app's
// other calls; posts of every feed page read, then those the last watch
// held, newest first, at most maxThreadPolls URLs.
func TestThreadState(t *testing.T) {
	const blog, api = "https://blog.example.org/", "https://comments.example.org/api/"
	v := func(u string) blogharvest.Validators {
		return blogharvest.Validators{URL: u, Digest: blogharvest.DigestOf([]byte(u))}
	}
	counts, settings := v(api+"comments/counts/?ids=x"), v(api+"settings/")
	type crawl struct {
		threads *Watcher
		items   []string // the keys of the feed's items
	}
	newCrawlWith := func(items int, last map[string][]blogharvest.Validators) *crawl {
		c := &crawl{threads: NewWatcher(last, true, nil)}
		for i := range items {
			c.items = append(c.items, fmt.Sprintf("%spost-%02d/", blog, i))
		}
		return c
	}
	post := func(i int) string { return fmt.Sprintf("%spost-%02d/", blog, i) }
	thread := func(i int) blogharvest.Validators { return v(fmt.Sprintf("%scomments/post/%d/?limit=20", api, 1000+i)) }
	note := func(c *crawl, i int, threads, cands []blogharvest.Validators) {
		c.threads.Note(post(i), threads, cands)
	}

	// Post 0 shows comments; post 12, on the feed's second page, shows
	// none: its thread has the shape of post 0's.
	c := newCrawlWith(20, nil)
	note(c, 0, []blogharvest.Validators{thread(0)}, nil)
	note(c, 12, nil, []blogharvest.Validators{counts, thread(12), settings})
	note(c, 13, nil, []blogharvest.Validators{counts, settings})
	st := c.threads.State(c.items)
	if !slices.Equal(st[post(0)], []blogharvest.Validators{thread(0)}) || !slices.Equal(st[post(12)], []blogharvest.Validators{thread(12)}) || len(st) != 2 {
		t.Errorf("watch %v: want the thread of post 0 and of post 12 (second feed page, no comment yet), nothing of post 13", st)
	}

	// No post shows comments, and no watch before: nothing is watched.
	c = newCrawlWith(3, nil)
	note(c, 1, nil, []blogharvest.Validators{counts, thread(1), settings})
	if st := c.threads.State(c.items); st != nil {
		t.Errorf("no thread held comments: watch %v, want none", st)
	}
	// The shape from the last watch (a post this crawl did not render,
	// beyond the feed pages it read: kept).
	c = newCrawlWith(3, map[string][]blogharvest.Validators{post(40): {thread(40)}})
	note(c, 1, nil, []blogharvest.Validators{counts, thread(1), settings})
	st = c.threads.State(c.items)
	if !slices.Equal(st[post(1)], []blogharvest.Validators{thread(1)}) || !slices.Equal(st[post(40)], []blogharvest.Validators{thread(40)}) || len(st) != 2 {
		t.Errorf("watch %v: want post 1's thread (the last watch's shape) and post 40's, kept", st)
	}

	// More threads than maxThreadPolls: the newest posts'.
	c = newCrawlWith(maxThreadPolls+10, nil)
	for i := range maxThreadPolls + 10 {
		note(c, i, []blogharvest.Validators{thread(i)}, nil)
	}
	st = c.threads.State(c.items)
	if len(st) != maxThreadPolls || st[post(0)] == nil || st[post(maxThreadPolls-1)] == nil || st[post(maxThreadPolls)] != nil {
		t.Errorf("%d posts watched, want the first %d of the feed", len(st), maxThreadPolls)
	}
}
