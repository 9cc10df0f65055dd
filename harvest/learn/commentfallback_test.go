package learn_test

import (
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/textsim"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// fallbackPage wraps a comment section in a post page with an article,
// a sidebar of recent comments and a related-posts list, which must not
// be taken for comments.
func fallbackPage(comments string) []byte {
	return []byte(`<!DOCTYPE html><html><head><title>A post</title></head><body>
<article class="post"><h1>A post</h1><p class="meta">By <span class="author">Ada</span> on <time datetime="2021-03-01">1 March 2021</time></p>
<div class="entry-content"><p>The article says something long enough to be an article, and then some more.</p></div>
<div class="related"><h3>Related</h3><ul><li><a href="/a">Another post</a> <span class="author">Ada</span> <span class="date">2 March 2021</span> <p>A summary of it.</p></li>
<li><a href="/b">A third post</a> <span class="author">Ada</span> <span class="date">3 March 2021</span> <p>A summary of that.</p></li></ul></div>
</article>` + comments + `
<div id="sidebar" class="widget-area"><div class="widget RecentComments"><ul>
<li><span class="author">Bob</span> on <a href="/a">Another post</a> <span class="date">4 March 2021</span></li>
<li><span class="author">Cy</span> on <a href="/b">A third post</a> <span class="date">5 March 2021</span></li></ul></div></div>
</body></html>`)
}

// wantComment is what a test expects of one comment: "author|text|parent
// index" (-1: top level).
type wantComment struct {
	author, text string
	parent       int
}

func TestCommentFallback(t *testing.T) {
	cases := []struct {
		name, html string
		want       []wantComment
	}{
		{"wordpress", `<div id="comments"><ol class="commentlist">
<li id="li-comment-4" class="comment even depth-1"><article id="div-comment-4" class="comment-body"><footer class="comment-meta"><div class="comment-author vcard"><img class="avatar" src="/a.png"><b class="fn">Ann Lee</b> <span class="says">says:</span></div>
<div class="comment-metadata"><a href="#comment-4"><time datetime="2021-03-02T10:00:00+00:00">2 March 2021 at 10:00</time></a></div></footer>
<div class="comment-content"><p>First!</p></div><div class="reply"><a class="comment-reply-link">Reply</a></div></article>
<ol class="children"><li id="li-comment-5" class="comment odd depth-2"><article id="div-comment-5" class="comment-body"><footer class="comment-meta"><div class="comment-author vcard"><b class="fn">Ben Ray</b> <span class="says">says:</span></div>
<div class="comment-metadata"><a href="#comment-5"><time datetime="2021-03-02T11:00:00+00:00">2 March 2021 at 11:00</time></a></div></footer>
<div class="comment-content"><p>A reply to Ann.</p></div></article></li></ol></li>
<li id="li-comment-6" class="comment even depth-1"><article id="div-comment-6" class="comment-body"><footer class="comment-meta"><div class="comment-author vcard"><b class="fn">Cleo</b></div></footer>
<div class="comment-content"><p>Third comment.</p></div></article></li></ol>
<div id="respond" class="comment-respond"><form id="commentform" class="comment-form"><textarea name="comment"></textarea></form></div></div>`,
			[]wantComment{{"Ann Lee", "First!", -1}, {"Ben Ray", "A reply to Ann.", 0}, {"Cleo", "Third comment.", -1}}},
		{"blogger", `<div class="comments" id="comments"><div class="comment-thread"><ol>
<li class="comment" id="c101"><div class="avatar-image-container"><img src="/b.png"></div><div class="comment-block"><div class="comment-header"><cite class="user"><a href="/p/1">Dora</a></cite>
<span class="datetime secondary-text"><a rel="nofollow" href="#c101">March 2, 2021 at 9:15 AM</a></span></div><p class="comment-content">Lovely colours.</p>
<span class="comment-actions secondary-text"><a>Reply</a><a>Delete</a></span></div>
<div class="comment-replies"><div class="comment-thread inline-thread"><ol><li class="comment" id="c102"><div class="comment-block"><div class="comment-header"><cite class="user">Eli</cite>
<span class="datetime secondary-text"><a href="#c102">March 3, 2021 at 8:00 AM</a></span></div><p class="comment-content">Agreed.</p></div></li></ol></div></div></li>
</ol></div></div>`,
			[]wantComment{{"Dora", "Lovely colours.", -1}, {"Eli", "Agreed.", 0}}},
		{"microformats", `<section class="responses"><div class="p-comment h-entry"><a class="p-author h-card" href="https://f.example/">Fay</a>
<time class="dt-published" datetime="2021-03-04T08:00:00Z">4 March</time><div class="e-content">Nice write-up.</div></div>
<div class="p-comment h-cite"><span class="p-author h-card"><span class="p-name">Gus</span></span> <time class="dt-published" datetime="2021-03-05">5 March</time><p class="p-content">Me too.</p></div></section>`,
			[]wantComment{{"Fay", "Nice write-up.", -1}, {"Gus", "Me too.", -1}}},
		{"microdata", `<div class="talk"><div itemprop="comment" itemscope itemtype="https://schema.org/Comment"><span itemprop="author">Hal</span>
<meta itemprop="dateCreated" content="2021-03-06"><div itemprop="text">Thanks for this.</div></div></div>`,
			[]wantComment{{"Hal", "Thanks for this.", -1}}},
		{"disqus", `<div id="dsq-content"><ul id="dsq-comments"><li class="post" id="dsq-comment-77"><div id="dsq-comment-body-77" class="dsq-comment-body"><div class="dsq-comment-header"><cite><span class="dsq-commenter-name">Ivy</span></cite></div>
<div class="dsq-comment-message"><p>Great tips here.</p></div></div></li></ul></div>`,
			[]wantComment{{"Ivy", "Great tips here.", -1}}},
		{"structural", `<div class="feedback"><div class="note"><span class="nick">Jo</span> <span class="when">7 March 2021</span><p>I built one too, it works.</p>
<div class="note"><span class="nick">Kim</span> <span class="when">8 March 2021</span><p>Mine took a week to build.</p></div></div>
<div class="note"><span class="nick">Lu</span> <span class="when">9 March 2021</span><p>Where did you buy the wood?</p></div></div>`,
			[]wantComment{{"Jo", "I built one too, it works.", -1}, {"Kim", "Mine took a week to build.", 0}, {"Lu", "Where did you buy the wood?", -1}}},
		{"json-ld", `<script type="application/ld+json">{"@context":"https://schema.org","@type":"BlogPosting","headline":"A post",
"comment":[{"@type":"Comment","@id":"#c1","author":{"@type":"Person","name":"Max"},"dateCreated":"2021-03-10T10:00:00Z","text":"Clear and useful.",
"comment":[{"@type":"Comment","@id":"#c2","author":"Ned","text":"Indeed it is."}]}]}</script>`,
			[]wantComment{{"Max", "Clear and useful.", -1}, {"Ned", "Indeed it is.", 0}}},
		{"none", `<div id="comments"><h3>Leave a comment</h3><div class="comment">Comments are closed.</div>
<div id="respond" class="comment-respond"><form class="comment-form"><p class="comment-form-author"><label>Name</label><input name="author"></p><textarea name="comment"></textarea></form></div></div>`, nil},
		{"index", `<main><article class="post"><h2><a href="/x">Post X</a></h2><span class="author">Ada</span> <time datetime="2021-01-01">1 Jan 2021</time><p>Summary of post X, a few words.</p></article>
<article class="post"><h2><a href="/y">Post Y</a></h2><span class="author">Ada</span> <time datetime="2021-01-02">2 Jan 2021</time><p>Summary of post Y, a few words.</p></article></main>`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x, err := learn.ExtractWithoutRules(learn.Page{URL: "https://blog.example/p/", HTML: fallbackPage(c.html)})
			if err != nil {
				t.Fatal(err)
			}
			checkComments(t, x, c.want)
		})
	}
}

// checkComments compares extracted comments with the wanted ones.
func checkComments(t *testing.T, x learn.Extraction, want []wantComment) {
	t.Helper()
	if len(x.Comments) != len(want) {
		t.Fatalf("%d comments %s, want %d", len(x.Comments), describe(x.Comments), len(want))
	}
	if len(want) > 0 && x.Methods[learn.FieldComments] != blogharvest.MethodHeuristic {
		t.Errorf("method %q, want heuristic", x.Methods[learn.FieldComments])
	}
	for k, w := range want {
		g := x.Comments[k]
		parent := ""
		if w.parent >= 0 {
			parent = x.Comments[w.parent].ID
		}
		if g.Author != w.author || g.ContentText != w.text || g.ParentID != parent || g.ID == "" {
			t.Errorf("comment %d: %q %q parent %q id %q; want %q %q parent %q", k, g.Author, g.ContentText, g.ParentID, g.ID, w.author, w.text, parent)
		}
	}
}

// describe lists comments briefly for failure messages.
func describe(cs []learn.Comment) string {
	var b strings.Builder
	for _, c := range cs {
		fmt.Fprintf(&b, "[%s: %.40q] ", c.Author, c.ContentText)
	}
	return b.String()
}

// TestCommentFallbackOnFixtures extracts, without rules, every post page
// of the fixture blogs: comments found must be the truth's (a blog with
// comments) and none where the blog has none; the iframe documents of the
// jscomments blog hold their posts' whole threads.
func TestCommentFallbackOnFixtures(t *testing.T) {
	for _, name := range fixture.Names() {
		t.Run(name, func(t *testing.T) {
			site := fixture.MustNew(name)
			srv := httptest.NewServer(site.Handler())
			defer srv.Close()
			truth := site.Truth(srv.URL)
			invented, frames := 0, 0
			for _, p := range truth.Posts {
				x, _ := learn.ExtractWithoutRules(learn.Page{URL: p.URL, HTML: get(t, p.URL), Lang: truth.Blog.Language})
				invented += unknownComments(x.Comments, p.Comments)
				if name == "jscomments" && len(p.Comments) > 0 && !p.Scripted {
					frames += checkFrame(t, srv.URL, p)
				}
			}
			t.Logf("%s: %d comments not in the truth; %d iframe threads checked", name, invented, frames)
			if invented > 0 {
				t.Errorf("%d comments extracted that the blog does not have", invented)
			}
		})
	}
}

// unknownComments counts comments whose text is not one of the truth's.
func unknownComments(got []learn.Comment, want []fixture.CommentTruth) int {
	known := map[string]bool{}
	for _, w := range want {
		known[textsim.NormalizeText(w.Text)] = true
	}
	n := 0
	for _, g := range got {
		if !known[textsim.NormalizeText(g.ContentText)] {
			n++
		}
	}
	return n
}

// checkFrame extracts the iframe document of a jscomments post, when it
// has one, and compares its comments with the truth; it returns 1 when it
// checked one.
func checkFrame(t *testing.T, base string, p fixture.PostTruth) int {
	id := p.ID
	page := get(t, base+"/embed/comments/"+id+".html")
	if page == nil || !strings.Contains(string(page), "comment-") {
		return 0
	}
	x, _ := learn.ExtractWithoutRules(learn.Page{URL: base + "/embed/comments/" + id + ".html", HTML: page})
	byID := map[string]learn.Comment{}
	for _, c := range x.Comments {
		byID[c.ID] = c
	}
	for _, w := range p.Comments {
		g, ok := byID[w.ID]
		if !ok || g.Author != w.Author || textsim.NormalizeText(g.ContentText) != textsim.NormalizeText(w.Text) || g.ParentID != w.ParentID {
			t.Errorf("%s: comment %s: got %+v, want %+v", p.URL, w.ID, g, w)
		}
	}
	if len(x.Comments) != len(p.Comments) {
		t.Errorf("%s: %d comments in the frame, want %d", p.URL, len(x.Comments), len(p.Comments))
	}
	return 1
}
