package daemon

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/blogharvest/blogharvest/internal/fixture"
	"github.com/blogharvest/blogharvest/schedule"
)

// ShortfallBlog serves the demo blog with one post whose page states
// (JSON-LD commentCount) three comments more than it and its comment feed
// hold: a shortfall no source can fill. It returns the server, the post's
// URL and the count it states.
func ShortfallBlog(t *testing.T) (srv *httptest.Server, post string, stated int) {
	t.Helper()
	site := fixture.MustNew("wordpress")
	h := site.Handler()
	var target atomic.Value // the post's path, set once the server's URL is known
	target.Store("")
	var count atomic.Int64 // the count the page states, read by the handler: a request may come before it is set
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != target.Load().(string) {
			h.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.Header().Del("Content-Length")
		w.WriteHeader(rec.Code)
		ld := fmt.Sprintf(`<script type="application/ld+json">{"@context":"https://schema.org","@type":"BlogPosting","commentCount":%d}</script></head>`, count.Load())
		fmt.Fprint(w, strings.Replace(rec.Body.String(), "</head>", ld, 1))
	}))
	t.Cleanup(srv.Close)
	for _, p := range site.Truth(srv.URL).Posts {
		if len(p.Comments) > 0 && p.Kind == "post" {
			post, stated = p.URL, len(p.Comments)+3
			count.Store(int64(stated))
			target.Store(strings.TrimPrefix(p.URL, srv.URL))
			break
		}
	}
	return srv, post, stated
}

// TestStatusPageShowsCommentShortfall: after a run that archived a post
// with fewer comments than its page states, the blog's status page lists
// it in its "Comments short" section with the ledger's note.
func TestStatusPageShowsCommentShortfall(t *testing.T) {
	srv, post, stated := ShortfallBlog(t)
	dir := t.TempDir()
	c, err := ParseConfig("test.yaml", []byte(fmt.Sprintf("archive: %s\nstate: %s\nblogs:\n  - id: sample\n    url: %s/\n    schedule: \"@every 6h\"\n    delay: 1ms\n    render: never\n",
		filepath.Join(dir, "archive"), filepath.Join(dir, "state", "schedule.db"), srv.URL)))
	if err != nil {
		t.Fatal(err)
	}
	d := openTestDaemon(t, c)
	d.blogs, d.sched = map[string]Blog{"sample": c.Blogs[0]}, schedule.NewScheduler() // what Open sets, without scheduling
	if _, err := d.runBlog(context.Background(), c.Blogs[0], nil); err != nil {
		t.Fatal(err)
	}
	page := httptest.NewServer(d.Handler())
	defer page.Close()
	resp, err := http.Get(page.URL + "/blog/sample")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := fmt.Sprintf("stated %d (JSON-LD commentCount), archived %d", stated, stated-3)
	i := strings.Index(string(body), `<table id="comment-shortfalls">`)
	if i < 0 || !strings.Contains(string(body[i:]), want) || !strings.Contains(string(body[i:]), post) {
		t.Errorf("status page lacks the shortfall %q of %s:\n%s", want, post, body)
	}
}
