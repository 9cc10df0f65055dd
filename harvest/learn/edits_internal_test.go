package learn

import (
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest/harvest/htmlnode"
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
		id, class := strings.ToLower(htmlnode.Attr(n, "id")), strings.ToLower(htmlnode.Attr(n, "class"))
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

// TestEditWordsMatchNaive checks startsWithAny and endsWithAny, which
// test a window's first byte before EqualFold, against EqualFold alone on
// texts around modifiedWords in other cases and scripts.
func TestEditWordsMatchNaive(t *testing.T) {
	for _, w := range modifiedWords {
		if w[0] < 'a' || w[0] > 'z' || w[0] == 'k' || w[0] == 's' {
			t.Fatalf("modified word %q must begin with a lower-case ASCII letter other than k and s", w)
		}
	}
	starts := func(s string) bool {
		for _, w := range modifiedWords {
			if len(s) >= len(w) && strings.EqualFold(s[:len(w)], w) && (len(s) == len(w) || s[len(w)] == ' ' || s[len(w)] == ':') {
				return true
			}
		}
		return false
	}
	ends := func(s string) bool {
		s = strings.TrimSpace(strings.TrimSuffix(s, ":"))
		if len(s) > 3 && strings.EqualFold(s[len(s)-3:], " on") {
			s = s[:len(s)-3]
		}
		for _, w := range modifiedWords {
			if len(s) >= len(w) && strings.EqualFold(s[len(s)-len(w):], w) && (len(s) == len(w) || s[len(s)-len(w)-1] == ' ') {
				return true
			}
		}
		return false
	}
	texts := []string{"", "x", "Updated", "UPDATED: 3 May", "Last Edited on", "MODIFIÉ le", "zuletzt GEÄNDERT:", "\xffpdated",
		"Mis À Jour", "bijgewerkt op", "Aggiornato", "dated", "this was edited", "re-edited", "post \u212adited", "é"}
	for _, s := range texts {
		if got, want := startsWithAny(s, modifiedWords), starts(s); got != want {
			t.Errorf("startsWithAny(%q) = %v, want %v", s, got, want)
		}
		if got, want := endsWithAny(s, modifiedWords), ends(s); got != want {
			t.Errorf("endsWithAny(%q) = %v, want %v", s, got, want)
		}
	}
}
