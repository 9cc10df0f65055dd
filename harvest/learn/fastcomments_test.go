package learn_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/learn"
)

// wpComment is a WordPress 6 comment, its <li> left open.
const wpComment = `<li id="comment-%[1]s" class="comment even depth-1"><article id="div-comment-%[1]s" class="comment-body">
<footer class="comment-meta"><div class="comment-author vcard"><img alt="" src="/a.png" class="avatar"> <b class="fn">Reader %[1]s</b> <span class="says">says:</span></div>
<div class="comment-metadata"><a href="#comment-%[1]s"><time datetime="2024-03-2%[1]sT10:00:00Z">March 2%[1]s, 2024</time></a></div></footer>
<div class="comment-content"><p>Comment %[1]s: the loaves came out well.</p></div>
<div class="reply"><a rel="nofollow" class="comment-reply-link" href="#respond">Reply</a></div></article>`

// wpRespond is WordPress's comment form.
const wpRespond = `<div id="respond" class="comment-respond"><h3 class="comment-reply-title">Leave a Reply</h3>` +
	`<form action="/wp-comments-post.php" id="commentform" class="comment-form"><textarea id="comment" name="comment"></textarea></form></div>`

// wp returns WordPress comment number n.
func wp(n string) string { return fmt.Sprintf(wpComment, n) }

// TestFastCommentsContainer compares the fast path with the slow path on
// comment sections where the subtree the fast path builds starts at the
// markers' common ancestor (a list), must start above it (a single
// comment, a comment holding its reply), or must reach three levels above
// a comment (wrapper ids without their permalink anchor).
func TestFastCommentsContainer(t *testing.T) {
	pairs, page := casePairs(t, "wordpress")
	r, err := learn.Learn(pairs, learn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, section := range map[string]string{
		"threaded": `<div id="comments" class="comments-area"><ol class="comment-list">` + wp("1") + `</li>` + wp("2") +
			`<ol class="children">` + wp("3") + `</li></ol></li>` + wp("4") + `</li></ol>` + wpRespond + `</div>`,
		"single":       `<div id="comments" class="comments-area"><ol class="comment-list">` + wp("1") + `</li></ol>` + wpRespond + `</div>`,
		"single reply": `<div id="comments"><ol class="comment-list">` + wp("1") + `<ol class="children">` + wp("2") + `</li></ol></li></ol></div>`,
		"no anchor": `<div id="comments"><div class="list"><ol><li class="c"><article id="div-comment-5" class="comment-body"><b class="fn">Ann</b> <time datetime="2024-03-20">x</time><div class="comment-content"><p>First words.</p></div></article></li>` +
			`<li class="c"><article id="div-comment-6" class="comment-body"><b class="fn">Bo</b> <time datetime="2024-03-21">x</time><div class="comment-content"><p>Second words.</p></div></article></li></ol></div></div>`,
		"anchor far up": `<div id="comment-x8"><ol><li><article id="div-comment-x8" class="comment"><b class="fn">Ann</b> <time datetime="2024-03-20">x</time><div class="comment-content"><p>Words.</p></div></article></li>` +
			`<li><article id="div-comment-x9" class="comment"><b class="fn">Bo</b> <time datetime="2024-03-21">x</time><div class="comment-content"><p>More.</p></div></article></li></ol></div>`,
		"comment holds reply": `<div id="comments"><div id="comment-1" class="comment"><b class="fn">Ann</b> <time datetime="2024-03-20">x</time> <p>A first comment.</p>` +
			`<div id="comment-2" class="comment"><b class="fn">Bo</b> <time datetime="2024-03-21">x</time> <p>The reply to it.</p></div></div></div>`,
		"entity in id": `<div id="comments"><ol class="comment-list"><li id="comment-1&amp;" class="comment"><article id="div-comment-1&amp;" class="comment-body"><b class="fn">Ann</b> <time datetime="2024-03-20">x</time><div class="comment-content"><p>Words.</p></div></article></li>` +
			wp("2") + `</li></ol></div>`,
	} {
		p := page
		p.HTML = commentSection.ReplaceAll(page.HTML, []byte(section))
		if bytes.Equal(p.HTML, page.HTML) {
			t.Fatal("the case's comment section was not replaced")
		}
		if why := r.FastWhy(p); why != "" {
			t.Errorf("%s: the fast path gave up: %s", name, why)
			continue
		}
		compareFastSlow(t, r, p)
		if x, _ := r.SlowExtract(p); len(x.Comments) == 0 {
			t.Errorf("%s: no comments", name)
		}
	}
}
