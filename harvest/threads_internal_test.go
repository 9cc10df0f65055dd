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
	"github.com/blogharvest/blogharvest/harvest/learn"
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
	old := blogharvest.DigestOf([]byte(comments))
	st := State{CrawlState: blogharvest.CrawlState{Threads: map[string][]blogharvest.Validators{
		srv.URL + "/a/": {{URL: srv.URL + "/same", ETag: `"s1"`, Digest: old}},
		srv.URL + "/b/": {{URL: srv.URL + "/commented", Digest: old}},
		srv.URL + "/c/": {{URL: srv.URL + "/counter", Digest: blogharvest.DigestOf([]byte(`{"views":0}`))}},
		srv.URL + "/d/": {{URL: other.URL + "/admin.json", Digest: old}},
	}}}
	o := Options{Blog: blogharvest.Blog{ID: "t", URL: srv.URL + "/"}, State: st}.withDefaults()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	c := newCrawl(o, updatePolicy(o, now.Add(-time.Hour), now), now, nil)
	if err := c.newClient(); err != nil {
		t.Fatal(err)
	}
	if !c.threads.Poll(context.Background()) {
		t.Fatal("no thread changed")
	}
	if got := c.threads.ChangedPosts(); len(got) != 1 || got[0] != srv.URL+"/b/" {
		t.Errorf("changed %v, want only %s/b/", got, srv.URL)
	}
	if n := hits.Load(); n != 2 {
		t.Errorf("the counter was asked %d times, want 2", n)
	}
	if n := internal.Load(); n != 0 {
		t.Errorf("a watched URL on a non-public address other than the blog's was asked %d times", n)
	}
	next := c.threads.State(itemKeys(c.site.feed))
	if len(next[srv.URL+"/a/"]) != 1 || len(next[srv.URL+"/b/"]) != 1 || len(next[srv.URL+"/c/"]) != 0 {
		t.Errorf("next watch %v: want /a/ and /b/ (not rendered again: asked again next time), not /c/", next)
	}
	if next[srv.URL+"/b/"][0].Digest != old {
		t.Errorf("a changed thread whose post was not rendered again keeps its old digest, got %v", next[srv.URL+"/b/"])
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
