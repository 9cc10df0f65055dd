package learn

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestContainsFold checks containsFold against EqualFold on every window,
// with runes that fold to ASCII letters (the Kelvin sign, long s) and
// bytes that are not UTF-8.
func TestContainsFold(t *testing.T) {
	slow := func(s, sub string) bool {
		for i := 0; i+len(sub) <= len(s); i++ {
			if strings.EqualFold(s[i:i+len(sub)], sub) {
				return true
			}
		}
		return false
	}
	subs := []string{"publish", "created", "modified", "updated", "edited", "lastmod", "last-edit", "k", "s"}
	texts := []string{"", "post-Modified", "UPDATED", "entry-date published", "\u212a", "\u017f", "Last-Edit",
		"date-updat", "\xffmodified", "mod\u0130fied", "cREATED", "publi\u017fh", "lastMOD x"}
	for _, s := range texts {
		for _, sub := range subs {
			if got, want := containsFold(s, sub), slow(s, sub); got != want {
				t.Errorf("containsFold(%q, %q) = %v, want %v", s, sub, got, want)
			}
		}
	}
}

// TestIsCommentBox checks isCommentBox against its first version, which
// lower-cased id and class (only U+0130 and the Kelvin sign lower-case
// to ASCII letters, and "comment" holds neither i nor k).
func TestIsCommentBox(t *testing.T) {
	naive := func(n *html.Node) bool {
		id, class := strings.ToLower(attr(n, "id")), strings.ToLower(attr(n, "class"))
		return strings.Contains(id, "comment") || strings.Contains(class, "comment")
	}
	for _, v := range []string{"", "comments", "COMMENT-42", "x Comment_list", "c\u0130mment", "comm\u212aent", "\xc3comment",
		"com ment", "commen", "recentcomments", "\u212acomment", "CoMmEnT"} {
		for _, key := range []string{"id", "class", "title"} {
			n := &html.Node{Type: html.ElementNode, Data: "div", Attr: []html.Attribute{{Key: key, Val: v}}}
			if got, want := isCommentBox(n), naive(n); got != want {
				t.Errorf("isCommentBox(%s=%q) = %v, want %v", key, v, got, want)
			}
		}
	}
}
