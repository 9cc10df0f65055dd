package browser_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// checkUpdateSeesCommentAddedToScriptThread takes res, the crawl of the
// jscomments blog at base made with o (render: auto, the crawl's own
// browser, log recording the blog's requests; comments drawn by a script
// from a JSON file per post, no comment feed, a feed without comment
// counts), adds a comment to a post of the feed's first page the way its
// service would (the JSON changes, no feed item does), and checks that
// the next UpdateCrawl, given the State of the crawl before, archives the
// post again with the new comment: the JSON API its rendered page called
// is asked for conditionally, and only the post whose thread changed is
// read and rendered again. An unchanged blog costs the feed plus one
// request per watched thread and emits nothing, before the comment and
// after it. (It was TestUpdateCrawlSeesCommentAddedToScriptThread, whose
// first crawl was the same as TestNewCrawlArchivesJavaScriptComments'.)
func checkUpdateSeesCommentAddedToScriptThread(t *testing.T, site *fixture.Site, base string, log *requestLog, o harvest.Options, res *harvest.Result) {
	first := o.Now()
	var post *fixture.Post
	truth := site.Truth(base)
	for _, p := range site.Posts() {
		if p.Kind == "post" && !p.Scripted && !p.IframeThread && len(p.Comments) > 0 && inFeed(truth, base+p.Path) {
			post = &p
			break
		}
	}
	if post == nil {
		t.Fatal("no post of the feed's first page with a JSON thread")
	}
	url := base + post.Path
	watched := 0
	for _, vs := range res.State.Threads {
		watched += len(vs)
	}
	if len(res.State.Threads[url]) == 0 {
		t.Fatalf("State.Threads holds no thread API of %s: %v", url, res.State.Threads)
	}

	update := func(at time.Time) (*harvest.Result, *output, []string) {
		t.Helper()
		log.Reset()
		o.Now = func() time.Time { return at }
		out := &output{}
		r, err := harvest.UpdateCrawl(context.Background(), o, res.Watermark, out.Emit)
		if err != nil {
			t.Fatal(err)
		}
		return r, out, log.All()
	}
	o.State = res.State
	res2, out, reqs := update(first.Add(time.Hour))
	t.Logf("unchanged blog with %d watched threads: %d requests", watched, len(reqs))
	if !res2.Unchanged || len(out.Order) != 0 || len(reqs) > 1+watched {
		t.Errorf("unchanged blog: %d requests %q (unchanged %v), %d records emitted; want at most %d and nothing emitted",
			len(reqs), reqs, res2.Unchanged, len(out.Order), 1+watched)
	}

	added := site.AddComment(post.Slug, fixture.CommentSpec{Author: "Wren Okafor",
		Text: "Posted through the comment service after the first crawl, asking about the lantern paper.", Date: first.Add(90 * time.Minute)})
	o.State = res2.State
	res3, out, reqs := update(first.Add(2 * time.Hour))
	e := out.ByURL(t)[url]
	switch {
	case e == nil:
		t.Errorf("the post whose thread got a comment is not archived again (requests %q, emitted %d)", reqs, len(out.Order))
	default:
		found := false
		for _, c := range e.Comments {
			found = found || c.Author == added.Author && strings.Contains(c.Content, "lantern paper")
		}
		if !found || len(e.Comments) != len(post.Comments)+1 {
			t.Errorf("%s archived with %d comments, want %d with the new one (found %v)", url, len(e.Comments), len(post.Comments)+1, found)
		}
	}
	if len(out.Order) != 1 || len(res3.Renders) != 1 {
		t.Errorf("after one new comment: %d records emitted, renders %v; want 1 record and 1 render", len(out.Order), res3.Renders)
	}
	t.Logf("after the comment: %d requests, renders %v", len(reqs), res3.Renders)

	o.State = res3.State
	res4, out, reqs := update(first.Add(3 * time.Hour))
	if len(out.Order) != 0 || len(res4.Renders) != 0 || len(reqs) > 1+watched {
		t.Errorf("unchanged again: %d requests %q, %d records emitted, renders %v; want nothing emitted or rendered",
			len(reqs), reqs, len(out.Order), res4.Renders)
	}
}

// inFeed reports whether the truth lists url on the feed's first page.
func inFeed(truth fixture.Truth, url string) bool {
	for _, p := range truth.Posts {
		if p.URL == url {
			return p.InFeed
		}
	}
	return false
}
