package comments

import (
	"net/url"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestStatedCountsInWords: a count of comments written in words, in a
// link to the page's own comment area or a heading inside it, is a stated
// count as digits are, in several languages; "No comments" states none, and
// a number word deeper in a title ("Comments on “Two bridges”") or outside
// the comment area is no count.
func TestStatedCountsInWords(t *testing.T) {
	self, _ := url.Parse("https://b.example/2024/05/bridges/")
	area := func(h string) string {
		return `<div id="comments" class="comments-area"><h2 class="comments-title">` + h + `</h2></div>`
	}
	link := func(s string) string { return `<p class="meta"><a href="#comments">` + s + `</a></p>` }
	for _, tc := range []struct {
		body string
		want int
	}{
		{link("Three comments"), 3},
		{link("Only one comment"), 1},
		{link("No comments"), 0},
		{link("Leave a comment"), 0},
		{area("One response to &ldquo;Two bridges&rdquo;"), 1},
		{area("Eine Antwort auf &bdquo;Zwei Br&uuml;cken&ldquo;"), 1},
		{area("Deux commentaires"), 2},
		{area("Doce comentarios"), 12},
		{area("Twee reacties op &ldquo;Bruggen&rdquo;"), 2},
		{area("Comments on &ldquo;Two bridges&rdquo;"), 0},
		{area("5 thoughts on &ldquo;Ten bridges&rdquo;"), 5},
		{`<div class="entry-content"><h2>Three bridges</h2></div>`, 0},
	} {
		doc, err := html.Parse(strings.NewReader("<html><body>" + tc.body + "</body></html>"))
		if err != nil {
			t.Fatal(err)
		}
		if _, got := pageCommentCounts(doc, self); got != tc.want {
			t.Errorf("%s: stated %d, want %d", tc.body, got, tc.want)
		}
	}
}
