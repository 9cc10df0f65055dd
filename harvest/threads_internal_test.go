package harvest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/render"
)

// TestPollThreads: of three watched comment thread APIs, one answering
// as before (304 to its ETag), one whose thread got a comment, and one
// whose JSON changes on every request (a counter), only the second marks
// its post changed; the third is asked twice and no longer watched, the
// others stay watched with what they answered now.
func TestPollThreads(t *testing.T) {
	var hits atomic.Int64
	comments := `{"data":[{"id":1,"nick":"Ann","comment":"First."}]}`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/same":
			w.Header().Set("ETag", `"s1"`)
			if r.Header.Get("If-None-Match") == `"s1"` {
				w.WriteHeader(http.StatusNotModified)
				return
			}
			fmt.Fprint(w, comments)
		case "/commented":
			fmt.Fprint(w, `{"data":[{"id":1,"nick":"Ann","comment":"First."},{"id":2,"nick":"Bob","comment":"Second."}]}`)
		case "/counter":
			fmt.Fprintf(w, `{"views":%d}`, hits.Add(1))
		}
	}))
	defer srv.Close()
	// An internal service on another loopback port: a watch list read
	// from a tampered archive or state may name it; it is never asked
	// (the fetch client's address guard, the one the browser's proxy
	// applies too).
	var internal atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { internal.Add(1) }))
	defer other.Close()
	old := digestOf([]byte(comments))
	st := State{CrawlState: blogharvest.CrawlState{Threads: map[string][]blogharvest.Validators{
		srv.URL + "/a/": {{URL: srv.URL + "/same", ETag: `"s1"`, Digest: old}},
		srv.URL + "/b/": {{URL: srv.URL + "/commented", Digest: old}},
		srv.URL + "/c/": {{URL: srv.URL + "/counter", Digest: digestOf([]byte(`{"views":0}`))}},
		srv.URL + "/d/": {{URL: other.URL + "/admin.json", Digest: old}},
	}}}
	o := Options{Blog: blogharvest.Blog{ID: "t", URL: srv.URL + "/"}, State: st}.withDefaults()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	c := newCrawl(o, updatePolicy(o, now.Add(-time.Hour), now), now, nil)
	if err := c.newClient(); err != nil {
		t.Fatal(err)
	}
	if !c.threads.poll(context.Background(), c.client) {
		t.Fatal("no thread changed")
	}
	if len(c.threads.changedPosts) != 1 || !c.threads.changedPosts[srv.URL+"/b/"] {
		t.Errorf("changed %v, want only %s/b/", c.threads.changedPosts, srv.URL)
	}
	if n := hits.Load(); n != 2 {
		t.Errorf("the counter was asked %d times, want 2", n)
	}
	if n := internal.Load(); n != 0 {
		t.Errorf("a watched URL on a non-public address other than the blog's was asked %d times", n)
	}
	next := c.threads.state(c.site.feed)
	if len(next[srv.URL+"/a/"]) != 1 || len(next[srv.URL+"/b/"]) != 1 || len(next[srv.URL+"/c/"]) != 0 {
		t.Errorf("next watch %v: want /a/ and /b/ (not rendered again: asked again next time), not /c/", next)
	}
	if next[srv.URL+"/b/"][0].Digest != old {
		t.Errorf("a changed thread whose post was not rendered again keeps its old digest, got %v", next[srv.URL+"/b/"])
	}
}

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
	holding, cands := threadWatch(res, "en")
	if len(holding) != 1 || holding[0].URL != api+"comments/post/p1/?limit=20" || holding[0].ETag != `"t1"` || holding[0].Digest != digestOf([]byte(thread)) || cands != nil {
		t.Errorf("watch %v, candidates %v: want the thread only, with its validators", holding, cands)
	}

	// No comment yet: the thread is an empty list, nothing holds comments.
	empty := &render.Result{URL: "https://blog.example.org/winter-proofing/", HTML: []byte(`<html><body><article><h1>Winter</h1></article></body></html>`),
		API: append([]render.APIResponse{{URL: api + "comments/post/p3/?limit=20", Method: "GET", Status: 200, Body: []byte(`{"comments":[]}`)}}, other...)}
	holding, cands = threadWatch(empty, "en")
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
		return blogharvest.Validators{URL: u, Digest: digestOf([]byte(u))}
	}
	counts, settings := v(api+"comments/counts/?ids=x"), v(api+"settings/")
	newCrawlWith := func(items int, last map[string][]blogharvest.Validators) *crawl {
		o := Options{Blog: blogharvest.Blog{ID: "t", URL: blog}, State: State{CrawlState: blogharvest.CrawlState{Threads: last}}}.withDefaults()
		now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		c := newCrawl(o, updatePolicy(o, now.Add(-time.Hour), now), now, nil)
		c.site.feed = &feed.Feed{FirstPage: 10}
		for i := range items {
			c.site.feed.Items = append(c.site.feed.Items, feed.Item{Link: fmt.Sprintf("%spost-%02d/", blog, i)})
		}
		return c
	}
	post := func(i int) string { return fmt.Sprintf("%spost-%02d/", blog, i) }
	thread := func(i int) blogharvest.Validators { return v(fmt.Sprintf("%scomments/post/%d/?limit=20", api, 1000+i)) }
	note := func(c *crawl, i int, threads, cands []blogharvest.Validators) {
		c.threads.note(&pageJob{t: task{url: post(i)}, threads: threads, threadCands: cands})
	}

	// Post 0 shows comments; post 12, on the feed's second page, shows
	// none: its thread has the shape of post 0's.
	c := newCrawlWith(20, nil)
	note(c, 0, []blogharvest.Validators{thread(0)}, nil)
	note(c, 12, nil, []blogharvest.Validators{counts, thread(12), settings})
	note(c, 13, nil, []blogharvest.Validators{counts, settings})
	st := c.threads.state(c.site.feed)
	if !slices.Equal(st[post(0)], []blogharvest.Validators{thread(0)}) || !slices.Equal(st[post(12)], []blogharvest.Validators{thread(12)}) || len(st) != 2 {
		t.Errorf("watch %v: want the thread of post 0 and of post 12 (second feed page, no comment yet), nothing of post 13", st)
	}

	// No post shows comments, and no watch before: nothing is watched.
	c = newCrawlWith(3, nil)
	note(c, 1, nil, []blogharvest.Validators{counts, thread(1), settings})
	if st := c.threads.state(c.site.feed); st != nil {
		t.Errorf("no thread held comments: watch %v, want none", st)
	}
	// The shape from the last watch (a post this crawl did not render,
	// beyond the feed pages it read: kept).
	c = newCrawlWith(3, map[string][]blogharvest.Validators{post(40): {thread(40)}})
	note(c, 1, nil, []blogharvest.Validators{counts, thread(1), settings})
	st = c.threads.state(c.site.feed)
	if !slices.Equal(st[post(1)], []blogharvest.Validators{thread(1)}) || !slices.Equal(st[post(40)], []blogharvest.Validators{thread(40)}) || len(st) != 2 {
		t.Errorf("watch %v: want post 1's thread (the last watch's shape) and post 40's, kept", st)
	}

	// More threads than maxThreadPolls: the newest posts'.
	c = newCrawlWith(maxThreadPolls+10, nil)
	for i := range maxThreadPolls + 10 {
		note(c, i, []blogharvest.Validators{thread(i)}, nil)
	}
	st = c.threads.state(c.site.feed)
	if len(st) != maxThreadPolls || st[post(0)] == nil || st[post(maxThreadPolls-1)] == nil || st[post(maxThreadPolls)] != nil {
		t.Errorf("%d posts watched, want the first %d of the feed", len(st), maxThreadPolls)
	}
}

// nookComment writes one comment as an app styled with utility classes
// draws it (no comment word, no microdata): the structure only repeated
// comments tell.
func nookComment(b *strings.Builder, id, author, text string) {
	fmt.Fprintf(b, `<div id="%s" class="flex flex-col gap-2 py-3"><div class="flex items-center gap-2">`+
		`<h4 class="text-sm font-semibold text-gray-900">%s</h4><a class="text-xs text-gray-500" href="#nook-comments-%s">Mar 3, 2024</a></div>`+
		`<div class="text-sm leading-6 text-gray-800"><p>%s</p></div><div class="flex items-center gap-4 text-xs"><button>Reply</button></div></div>`,
		id, author, id, text)
}

// TestCommentShapesCarried: the comment structure two rendered pages
// repeated is in the crawl's State (CommentShapes), and an update given
// it reads a thread of one comment of that structure on the one page it
// renders, which a crawl without it does not.
func TestCommentShapesCarried(t *testing.T) {
	page := func(n int, comments ...[3]string) learn.Page {
		var b strings.Builder
		b.WriteString(`<html><body><article><h1>A post</h1><p>Text.</p></article><div class="mx-auto max-w-2xl"><div class="divide-y">`)
		for _, c := range comments {
			nookComment(&b, c[0], c[1], c[2])
		}
		b.WriteString(`</div></div></body></html>`)
		return learn.Page{URL: fmt.Sprintf("https://blog.example.org/p%d/", n), HTML: []byte(b.String()), Lang: "en"}
	}
	first := &commentShapes{}
	for n := range 2 {
		if cs := first.read(page(n, [3]string{fmt.Sprintf("a%d1b2c3d4e5", n), "Ann Lee", "The rye version came out denser but richer than the wheat one."},
			[3]string{fmt.Sprintf("b%d1b2c3d4e5", n), "Bob Ray", "Rye needs about ten percent more water in my experience."})); len(cs) != 2 {
			t.Fatalf("page %d: %d comments read, want 2", n, len(cs))
		}
	}
	shapes := first.kept()
	if len(shapes) != 1 {
		t.Fatalf("shapes kept %q, want the one two pages repeated", shapes)
	}
	one := page(9, [3]string{"c91b2c3d4e5", "Eve Stone", "The photos of the scoring pattern were really helpful, thanks."})
	if cs := (&commentShapes{}).read(one); len(cs) != 0 {
		t.Errorf("a thread of one comment, no shape known: %d comments, want 0", len(cs))
	}
	o := Options{Blog: blogharvest.Blog{ID: "t", URL: "https://blog.example.org/"}, State: State{CrawlState: blogharvest.CrawlState{CommentShapes: shapes}}}.withDefaults()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	c := newCrawl(o, updatePolicy(o, now.Add(-time.Hour), now), now, nil)
	if cs := c.w.shapes.read(one); len(cs) != 1 || cs[0].Author != "Eve Stone" {
		t.Errorf("an update given the shapes: %+v, want Eve Stone's comment", cs)
	}
	if got := c.w.shapes.kept(); !slices.Equal(got, shapes) {
		t.Errorf("the update keeps shapes %q, want %q", got, shapes)
	}
}
