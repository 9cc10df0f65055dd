package learn_test

import (
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/learn"
)

// TestCommentFallbackWordPress61 reads the comment markup of WordPress 6.1's
// twentytwentyone theme, as the live WordPress serves it: the anchor
// (#comment-N) is on the <li>, the body on <article id="div-comment-N">,
// and one comment holds headings, lists and a table that its author wrote.
func TestCommentFallbackWordPress61(t *testing.T) {
	comment := func(id, author, body string) string {
		return `<li id="comment-` + id + `" class="comment even thread-even depth-1"><article id="div-comment-` + id + `" class="comment-body">
<footer class="comment-meta"><div class="comment-author vcard"><b class="fn">` + author + `</b> <span class="says">says:</span></div>
<div class="comment-metadata"><a href="https://b.example/post/#comment-` + id + `"><time datetime="2012-09-03T10:18:04+00:00">September 3, 2012 at 10:18 am</time></a></div></footer>
<div class="comment-content">` + body + `</div>
<div class="reply"><a rel="nofollow" class="comment-reply-link" href="?replytocom=` + id + `#respond">Reply</a></div></article></li>`
	}
	page := fallbackPage(`<div id="comments" class="comments-area"><h2 class="comments-title">2 comments</h2><ol class="comment-list">` +
		comment("881", "John Doe", `<p><strong>Headings</strong></p><h1>Header one</h1><h2>Header two</h2><h3>Header three</h3>
<ul><li>a list</li></ul><table><tr><td>a table</td></tr></table><p>And a paragraph.</p>`) +
		comment("899", "Anonymous User", `<p>This user is trying to be anonymous.</p>`) +
		`</ol><div id="respond"><form><textarea name="comment"></textarea></form></div></div>`)
	x, err := (*learn.Rules)(nil).Extract(learn.Page{URL: "https://b.example/post/", HTML: page})
	if err != nil {
		t.Fatal(err)
	}
	if len(x.Comments) != 2 {
		t.Fatalf("%d comments, want 2 (the one with headings too): %+v", len(x.Comments), x.Comments)
	}
	for i, want := range []struct{ id, author string }{{"comment-881", "John Doe"}, {"comment-899", "Anonymous User"}} {
		c := x.Comments[i]
		if c.ID != want.id || c.Author != want.author || c.URL != "https://b.example/post/#"+want.id {
			t.Errorf("comment %d: id %q author %q url %q; want %q, %q and the #%s anchor", i, c.ID, c.Author, c.URL, want.id, want.author, want.id)
		}
	}
	if got := x.Comments[0].ContentText; !strings.Contains(got, "Header two") || !strings.Contains(got, "a table") {
		t.Errorf("comment 881 text %q lacks what its author wrote", got)
	}
}
