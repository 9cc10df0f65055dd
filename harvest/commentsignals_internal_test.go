package harvest

import (
	"math/rand"
	"net/url"
	"strings"
	"testing"
	"unicode"

	"github.com/blogharvest/blogharvest/harvest/comments"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/render"
	"golang.org/x/net/html"
)

// TestDetectCommentSignal checks each sign of a comment system in no
// table, and the look-alikes that are none: a reply form, a comment
// count link, a closed-comments notice, a recent-comments widget,
// WordPress's comment-reply script, a JSON-LD count of zero.
func TestDetectCommentSignal(t *testing.T) {
	base, _ := url.Parse("http://blog.example/2024/post.html")
	article := `<article><h1>T</h1><p>Text of the post, long enough to be an article of its own.</p></article>`
	for _, tc := range []struct{ name, body, want, src string }{
		{"empty host", `<div id="talkbox-thread"></div><script src="http://svc.example:8081/talkbox/embed.js"></script>`, "#talkbox-thread", ""},
		{"placeholder", `<section class="kommentare"><h2>Kommentare</h2><div class="loading">Lädt…</div></section>`, ".kommentare", ""},
		{"custom element", `<comment-thread post="42"></comment-thread>`, "<comment-thread>", ""},
		{"iframe area", `<section class="discussion"><h2>Join in</h2><iframe src="http://svc.example/p/42"></iframe></section>`, ".discussion", ""},
		{"aria", `<div aria-label="Commentaires"><span>…</span></div>`, "Commentaires", ""},
		{"script src", `<script src="/static/commentaires.js"></script>`, "a script", "http://blog.example/static/commentaires.js"},
		{"iframe src", `<iframe src="https://svc.example/embed/thread/42"></iframe>`, "an iframe", "https://svc.example/embed/thread/42"},
		{"inline loader", `<script>fetch("/api/v1/comments?post=42").then(r => r.json())</script>`, "inline script", ""},
		{"noscript", `<noscript>Please enable JavaScript to view the comments.</noscript>`, "noscript", ""},
		{"json-ld", `<script type="application/ld+json">{"@type":"BlogPosting","commentCount":"3"}</script>`, "counts 3", ""},
		{"reply form", `<div id="respond"><h3>Leave a reply</h3><form><textarea name="comment"></textarea></form></div>`, "", ""},
		{"count link", `<a class="comments-link" href="#c">3 comments</a><span class="comment-count">3</span>`, "", ""},
		{"closed", `<p class="comments-closed">Comments are closed.</p><div class="comments-closed"></div>`, "", ""},
		{"closed area", `<div id="comments" class="comments-area"><p class="nocomments">Comments on this page are closed.</p></div>`, "", ""},
		{"closed area, German", `<section class="kommentare"><p>Die Kommentare sind geschlossen.</p></section>`, "", ""},
		{"no comments yet", `<div id="comments"><h2>Comments</h2><p>No comments yet.</p></div>`, "", ""},
		{"widget", `<aside><div class="recent-comments"></div></aside><div class="widget"><div id="comments-box"></div></div>`, "", ""},
		{"comment-reply", `<script src="/wp-includes/js/comment-reply.min.js"></script>`, "", ""},
		{"json-ld zero", `<script type="application/ld+json">{"@type":"BlogPosting","commentCount":0}</script>`, "", ""},
		{"one comment's parts", `<li id="comment-42"><span class="comment-author vcard"></span><div class="dsq-comment-message"></div><div class="reply"></div></li>`, "", ""},
		{"static thread", `<div id="comments"><div class="c"><b>Ann</b> <p>A comment already in the page, long enough to count as one.</p></div></div>`, "", ""},
		{"nothing", ``, "", ""},
	} {
		page := "<!DOCTYPE html><html><head><title>T</title></head><body>" + article + tc.body + "</body></html>"
		root, err := html.Parse(strings.NewReader(page))
		if err != nil {
			t.Fatal(err)
		}
		got := detectCommentSignal(root, base)
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

// TestRenderedCommentsAgainstFeed keeps what the generic detector finds
// in a rendered page and its frames where there is no comment feed, or
// where it agrees with the feed, and drops it where it does not.
func TestRenderedCommentsAgainstFeed(t *testing.T) {
	card := func(who, when, text string) string {
		return `<div class="tb-card"><span class="tb-nick">` + who + `</span><span class="tb-when">` + when + `</span><div class="tb-msg"><p>` + text + `</p></div></div>`
	}
	res := &render.Result{URL: "http://blog.example/p.html",
		HTML: []byte(`<html><body><div id="talkbox-thread">` + card("Ann Lee", "2 Jan 2024", "The tide came in over the wall at noon.") +
			card("Bob Ray", "3 Jan 2024", "We counted eleven boats in the harbour.") + `</div></body></html>`),
		Frames: []render.Frame{{URL: "http://svc.example/t/1", HTML: []byte(`<html><body><div class="s">` +
			`<div class="i"><h4>Cy Moor</h4><span title="4 Jan 2024 10:00">a while ago</span><p>The lamp on the pier was lit again.</p></div>` +
			`<div class="i"><h4>Di Vane</h4><span title="5 Jan 2024 11:00">a while ago</span><p>Nets were mended before the storm came.</p></div>` +
			`</div></body></html>`)}}}
	agree := []feed.Comment{{Content: "<p>The tide came in over the wall at noon.</p>"}, {Content: "We counted eleven boats in the harbour."},
		{Content: "The lamp on the pier was lit again."}}
	other := []feed.Comment{{Content: "Something else entirely, said by someone else."}}
	for name, tc := range map[string]struct {
		truth []feed.Comment
		want  int
	}{"no feed": {nil, 4}, "agreeing feed": {agree, 4}, "other feed": {other, 0}} {
		var ex learn.Extraction
		note := renderedComments(&ex, res, "en", tc.truth, []byte(`<html><body><div id="talkbox-thread"></div></body></html>`), &commentShapes{}, comments.More{}, 0)
		if len(ex.Comments) != tc.want || (tc.want == 0) != (note != "") {
			t.Errorf("%s: %d comments, note %q; want %d", name, len(ex.Comments), note, tc.want)
		}
	}
	var ex learn.Extraction
	if renderedComments(&ex, res, "en", nil, res.HTML, &commentShapes{}, comments.More{}, 0); len(ex.Comments) != 2 {
		t.Errorf("static page showing the cards: %d comments kept, want the frame's 2", len(ex.Comments))
	}
}

// TestToLowerIdempotent checks, over every rune, what namesLowerComments
// relies on: lower-casing a lower-cased value changes nothing.
func TestToLowerIdempotent(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if l := unicode.ToLower(r); unicode.ToLower(l) != l {
			t.Fatalf("ToLower(%U) = %U, lower-cased again %U", r, l, unicode.ToLower(l))
		}
	}
	if s := strings.ToLower("Ab\xc3 \xa9Ç"); strings.ToLower(s) != s {
		t.Fatalf("ToLower of %q changes it again", s)
	}
}

// TestLowerNoSpaces checks lowerNoSpaces against what it stands for, on
// ASCII, other scripts, and bytes that are no UTF-8 (a space between the
// halves of a character).
func TestLowerNoSpaces(t *testing.T) {
	for _, s := range []string{"", " ", "Fetch( '/API/Comments' )", "Kommentäre LADEN", "КОММЕНТ ы", "\xc3 \xa9 A", "İ Ω ẞ x", "\xff\xfe AB"} {
		if got, want := string(lowerNoSpaces(s)), strings.ToLower(strings.ReplaceAll(s, " ", "")); got != want {
			t.Errorf("lowerNoSpaces(%q) = %q, want %q", s, got, want)
		}
	}
	r := rand.New(rand.NewSource(1))
	for range 5000 {
		b := make([]byte, r.Intn(20))
		for i := range b {
			b[i] = " aZ@[`{\xc3\xa9\xd0\x9a\xff"[r.Intn(12)]
		}
		if got, want := string(lowerNoSpaces(string(b))), strings.ToLower(strings.ReplaceAll(string(b), " ", "")); got != want {
			t.Fatalf("lowerNoSpaces(%q) = %q, want %q", b, got, want)
		}
	}
}
