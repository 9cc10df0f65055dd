package harvest

import (
	"context"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest/comments"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"golang.org/x/net/html"
)

// TestRenderAccount: the budget refuses every render past Options.MaxRenders,
// a guessed reason stops after uselessAfter renders that added nothing,
// a reason the feed gives never does, and the counts reach the Result.
func TestRenderAccount(t *testing.T) {
	a := newRenderAccount(100)
	widget, feedWhy := renderWhy{ReasonAPIWidget, "x"}, renderWhy{ReasonFeedCount, "y"}
	for k := 0; k < uselessAfter; k++ {
		if ok, _, _ := a.allow(widget); !ok {
			t.Fatalf("render %d for %s refused", k+1, widget.key)
		}
		a.result(widget, false)
	}
	if ok, skip, note := a.allow(widget); ok || skip != SkipAddedNothing || !strings.Contains(note, "added nothing") {
		t.Errorf("after %d useless renders: allowed %v, skip %q, note %q; want refused as %s", uselessAfter, ok, skip, note, SkipAddedNothing)
	}
	for k := 0; k < uselessAfter+1; k++ {
		if ok, _, _ := a.allow(feedWhy); !ok {
			t.Fatalf("render %d for %s refused: the feed's word is no guess", k+1, feedWhy.key)
		}
	}
	b := newRenderAccount(2)
	b.allow(widget)
	b.result(widget, true)
	b.allow(feedWhy)
	if ok, skip, _ := b.allow(feedWhy); ok || skip != SkipBudget {
		t.Errorf("third render with a budget of 2: allowed %v, skip %q; want refused as %s", ok, skip, SkipBudget)
	}
	var res Result
	b.fill(&res)
	if res.Renders[ReasonAPIWidget] != 1 || res.Renders[ReasonFeedCount] != 1 || res.NotRendered[SkipBudget] != 1 {
		t.Errorf("counts %v, not rendered %v", res.Renders, res.NotRendered)
	}
}

// TestRenderReasonFeedHoldsAll is issue 27's "rendering only when it
// adds something": a page with a known JavaScript comment system is not
// rendered for its comments when the comment feed holds every comment
// the feed item counts, and still is when it holds fewer.
func TestRenderReasonFeedHoldsAll(t *testing.T) {
	base := mustURL(t, "http://b.ex/p/")
	page := `<html><body><p>text</p><div id="disqus_thread"></div></body></html>`
	j := &pageJob{page: &fetchedPage{html: []byte(page), info: readBytes([]byte(page), base)},
		item: &feed.Item{CommentCount: 2},
		cm:   comments.Post{Comments: []feed.Comment{{ID: "1", Content: "one"}, {ID: "2", Content: "two"}}}}
	ex := learn.Extraction{ContentText: "text"}
	w := &pageWorker{site: &site{}, fetch: testFetching(Options{Render: RenderAuto})}
	if got := w.renderReason(context.Background(), j, false, ex, nil); got.key != "" {
		t.Errorf("the comment feed holds both comments: reason %q, want none", got)
	}
	j.cm.Comments = j.cm.Comments[:1]
	if got := w.renderReason(context.Background(), j, false, ex, nil); got.key != ReasonCommentSystem {
		t.Errorf("the comment feed holds 1 of 2: reason %q, want %s", got, ReasonCommentSystem)
	}
}

// TestWidgetSignal: a script widget drawn from an API into an empty
// element is found whatever it calls itself; an analytics snippet naming
// an API host but no element, a mount the static page already fills, and
// an API the code names with no element are none.
func TestWidgetSignal(t *testing.T) {
	base, _ := url.Parse("http://blog.example/2024/post.html")
	article := `<article><h1>T</h1><p>Text of the post, long enough to be an article of its own.</p></article>`
	for _, tc := range []struct{ name, body, want, src string }{
		{"init with serverURL", `<div id="waline"></div><script src="/assets/waline/waline.umd.js"></script>
<script>Waline.init({ el: '#waline', serverURL: 'http://127.0.0.1:8360' });</script>`, "#waline", "http://127.0.0.1:8360"},
		{"init with server", `<div id="Comments"></div><script>Artalk.init({el: '#Comments', pageKey: '/p', server: 'https://talk.example/', site: 'Blog'})</script>`, "#Comments", "https://talk.example/"},
		{"config object and getElementById", `<section id="xyz-7"></section><script>var conf = {"host": "//svc.example/api", "node": document.getElementById("xyz-7")};</script>`, "#xyz-7", "http://svc.example/api"},
		{"data-attribute", `<script data-isso="//c.example/" src="//c.example/js/embed.min.js"></script><section id="isso-thread"></section>`, "data-isso", "http://c.example/"},
		{"loader alone in its section", `<section class="gh-canvas"><script defer src="https://cdn.example/app.min.js" data-api="http://blog.example/api/content/" data-key="k1" crossorigin="anonymous"></script></section><footer id="foot">© Blog</footer>`, "data-api", "http://blog.example/api/content/"},
		{"loader beside text", `<section class="s"><p>Say hello.</p><script src="https://cdn.example/app.min.js" data-api="http://blog.example/api/"></script></section>`, "", ""},
		{"like box", `<div class="fb-like-box" data-href="http://www.facebook.com/SomePage" data-width="300"></div>`, "", ""},
		{"analytics", `<script>posthog.init('phc_x', {api_host: 'https://eu.posthog.example'})</script>`, "", ""},
		{"mount filled", `<div id="box"><p>Already here, drawn by the server.</p></div><script>Box.init({el: '#box', serverURL: 'https://svc.example'})</script>`, "", ""},
		{"mount elsewhere", `<script>Box.init({el: '#nothere', serverURL: 'https://svc.example'})</script>`, "", ""},
	} {
		root, err := html.Parse(strings.NewReader("<!DOCTYPE html><html><head><title>T</title></head><body>" + article + tc.body + "</body></html>"))
		if err != nil {
			t.Fatal(err)
		}
		got := widgetSignal(root, base)
		switch {
		case tc.want == "" && got.reason != "":
			t.Errorf("%s: signal %q, want none", tc.name, got.reason)
		case tc.want != "" && !strings.Contains(got.reason, tc.want):
			t.Errorf("%s: signal %q, want one naming %q", tc.name, got.reason, tc.want)
		case got.src != tc.src:
			t.Errorf("%s: src %q, want %q", tc.name, got.src, tc.src)
		}
	}
}

// TestRenderReasonClosedCommentArea is issue 24's cost finding: a post
// whose comment area says it is closed or has no comments yet (and a
// comment form waiting for the first one) gives the whole render decision
// no reason, whether or not the feed counts comments, in the words of
// several platforms and languages.
func TestRenderReasonClosedCommentArea(t *testing.T) {
	base := mustURL(t, "http://b.ex/2024/p/")
	article := `<article><h1>T</h1><p>The text of the post, long enough to read as an article.</p></article>`
	for _, tc := range []struct{ name, area string }{
		{"closed, WordPress", `<div id="comments" class="comments-area"><p class="no-comments">Comments on this page are closed.</p></div>`},
		{"closed, plain", `<section class="comments"><h2>Comments</h2><p>Comments are closed.</p></section>`},
		{"disabled", `<div id="comments"><p>Comments are disabled for this post.</p></div>`},
		{"none yet", `<section id="comments"><h3>0 Comments</h3><p>No comments yet. Be the first!</p></section>`},
		{"no responses", `<div id="comments" class="comments-area"><h2 class="comments-title">No responses yet</h2></div>`},
		{"form only", `<div id="comments" class="comments-area"><div id="respond" class="comment-respond"><h3 id="reply-title">Leave a Reply</h3>
<form action="/wp-comments-post.php" method="post" id="commentform"><textarea id="comment" name="comment"></textarea><input type="submit" value="Post Comment"></form></div></div>`},
		{"closed, German", `<section id="kommentare" class="kommentare"><p>Die Kommentare sind geschlossen.</p></section>`},
		{"closed, French", `<div id="comments"><p>Les commentaires sont fermés.</p></div>`},
	} {
		for _, count := range []int{-1, 0} {
			page := `<html><body>` + article + tc.area + `</body></html>`
			doc, _ := html.Parse(strings.NewReader(page))
			j := &pageJob{page: &fetchedPage{html: []byte(page), doc: doc, url: base, info: readBytes([]byte(page), base)},
				item: &feed.Item{CommentCount: count}}
			ex := learn.Extraction{ContentText: "The text of the post, long enough to read as an article."}
			w := &pageWorker{site: &site{}, read: &reading{}, fetch: testFetching(Options{Render: RenderAuto})}
			if got := w.renderReason(context.Background(), j, true, ex, nil); got.key != "" {
				t.Errorf("%s (feed count %d): render reason %q, want none", tc.name, count, got)
			}
		}
	}
}

// TestRenderTimeoutReachesBrowser: Options.RenderTimeout is the page
// budget of the browser a crawl starts (render.Options.Timeout); unset,
// DefaultRenderTimeout.
func TestRenderTimeoutReachesBrowser(t *testing.T) {
	p, err := fetch.NewBrowserProxy(fetch.BrowserGate{
		Check: func(context.Context, string, string) error { return nil },
		Dial:  (&net.Dialer{}).DialContext,
	}, fetch.BrowserProxyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	for _, tc := range []struct{ set, want time.Duration }{{0, DefaultRenderTimeout}, {2 * time.Minute, 2 * time.Minute}} {
		o := Options{RenderTimeout: tc.set, Transport: http.DefaultTransport}.withDefaults()
		w := &pageWorker{site: &site{}, fetch: testFetching(o)}
		if got := w.renderOptions(p).Timeout; got != tc.want {
			t.Errorf("RenderTimeout %v: the browser's page timeout is %v, want %v", tc.set, got, tc.want)
		}
	}
}
