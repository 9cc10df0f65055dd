package daemon

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/internal/fixturetest"
	"github.com/blogharvest/blogharvest/schedule"
)

// TestStatusPageShowsCommentShortfall: after a run that archived a post
// with fewer comments than its page states, the blog's status page lists
// it in its "Comments short" section with the ledger's note.
func TestStatusPageShowsCommentShortfall(t *testing.T) {
	srv, post, stated := fixturetest.ShortfallBlog(t)
	dir := t.TempDir()
	c, err := ParseConfig("test.yaml", []byte(fmt.Sprintf("archive: %s\nstate: %s\nblogs:\n  - id: sample\n    url: %s/\n    schedule: \"@every 6h\"\n    delay: 1ms\n    render: never\n",
		filepath.Join(dir, "archive"), filepath.Join(dir, "state", "schedule.db"), srv.URL)))
	if err != nil {
		t.Fatal(err)
	}
	d := openTestDaemon(t, c)
	d.plan.blogs, d.plan.sched = map[string]*Blog{"sample": &c.Blogs[0]}, schedule.NewScheduler() // what Open sets, without scheduling
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
