package learn

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest/harvest/htmlnode"
)

// TestHintSets compares the hint sets with strings.Contains on values
// case-folded by strings.ToLower, non-ASCII ones included, and on random
// pieces of their words.
func TestHintSets(t *testing.T) {
	values := []string{"", "sidebar", "SideBar", "widget_recent_entries", "yarpp-related", "post-date", "entry-meta", "TIME",
		"s\u0130debar", "t\u0130me", "\u212Aey", "comment-metadata", "publishedx", "plain", "ti", "me", "recen"}
	for _, set := range []struct {
		h     *hintSet
		words []string
	}{{excludedHintSet(), excludedHints}, {dateHintSet(), []string{"date", "time", "published", "posted", "when", "meta"}},
		{authorHintSet(), authorHints}, {bodyHintSet(), []string{"content", "body", "text", "message"}}} {
		for _, v := range append(values, randomHintValues(set.words)...) {
			want := false
			for _, w := range set.words {
				want = want || strings.Contains(strings.ToLower(v), w)
			}
			if got := set.h.in(v); got != want {
				t.Errorf("in(%q) = %v, want %v", v, got, want)
			}
		}
	}
}

// randomHintValues returns values made of pieces of words, whole words,
// case changes and non-ASCII letters that case-fold to ASCII ones.
func randomHintValues(words []string) []string {
	rng := rand.New(rand.NewSource(3))
	var out []string
	for range 3000 {
		var b strings.Builder
		for range rng.Intn(4) {
			w := words[rng.Intn(len(words))]
			switch rng.Intn(5) {
			case 0:
				w = w[:rng.Intn(len(w)+1)]
			case 1:
				w = strings.ToUpper(w)
			case 2:
				w = strings.Replace(w, "i", "\u0130", 1)
			case 3:
				w = w[rng.Intn(len(w)):]
			}
			b.WriteString(w)
			b.WriteString([]string{"", " ", "-", "K", "\u212A", "é"}[rng.Intn(6)])
		}
		out = append(out, b.String())
	}
	return out
}

// TestAuthorTokenRank compares authorTokenRank with the loop over every
// hint it shortens.
func TestAuthorTokenRank(t *testing.T) {
	slow := func(tok string, best int) int {
		for k, h := range authorHints[:min(best, len(authorHints))] {
			if tok == h || k >= 4 && strings.Contains(tok, h) && !strings.Contains(tok, "avatar") && !strings.Contains(tok, "url") {
				return k
			}
		}
		return best
	}
	toks := append([]string{"", "comment-body", "comment-author", "vcard", "fn", "says", "avatar-32", "user-url", "x-nickname-y", "bywho", "p-name"}, authorHints...)
	for _, tok := range toks {
		for best := 0; best <= len(authorHints)+1; best++ {
			if got, want := authorTokenRank(tok, best), slow(tok, best); got != want {
				t.Errorf("authorTokenRank(%q, %d) = %d, want %d", tok, best, got, want)
			}
		}
	}
}

// commentIDNaive is the comment id rule as first written.
var commentIDNaive = regexp.MustCompile(`^(?:(?:div|li|article|dsq)-)?comment[-_]?\d+$`)

// isCommentMarkerNaive and excludedAreaNaive are isCommentMarker and
// excludedArea as first written, each attribute read with attr.
func isCommentMarkerNaive(n *html.Node) bool {
	if len(n.Attr) == 0 {
		return false
	}
	if id := strings.ToLower(htmlnode.Attr(n, "id")); commentIDNaive.MatchString(id) {
		return true
	}
	if it := strings.ToLower(htmlnode.Attr(n, "itemtype")); strings.Contains(it, "schema.org/comment") || strings.Contains(it, "schema.org/usercomments") {
		return true
	}
	for _, c := range []string{"dsq-comment", "comment-block", "p-comment", "h-cite"} {
		if hasClass(n, c) {
			return true
		}
	}
	return commentTags[n.Data] && (hasClass(n, "comment") || hasClass(n, "Comment"))
}

func excludedAreaNaive(n *html.Node) bool {
	switch n.Data {
	case "aside", "nav", "form", "select", "head":
		return true
	}
	for _, a := range n.Attr {
		if (a.Key == "id" || a.Key == "class") && a.Namespace == "" && a.Val != "" && htmlnode.Attr(n, a.Key) == a.Val && hasExcludedHint(a.Val) {
			return true
		}
	}
	return false
}

// TestMarkersMatchNaive compares isCommentMarker and excludedArea, which
// read the attributes in one pass, with their first versions on random
// elements: repeated and namespaced keys, tokens near the marked ones.
func TestMarkersMatchNaive(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	tags := []string{"div", "li", "span", "article", "aside", "dd", "a", "tr"}
	keys := []string{"id", "class", "itemtype", "title", "ID"}
	vals := []string{"", "comment", "Comment", "comment-42", "div-comment-7", "COMMENT_3", "comment-", "x comment", "comment\tx",
		"dsq-comment", "comment-block", "p-comment", "h-cite", "h-citey", "comments", "http://schema.org/Comment", "SCHEMA.ORG/UserComments",
		"sidebar", "Recent-posts", "widget", "li-comment-9", "comment-\u0130", "commentaire", "é comment"}
	marked, excluded := 0, 0
	for range 20000 {
		n := &html.Node{Type: html.ElementNode, Data: tags[rng.Intn(len(tags))]}
		for range rng.Intn(5) {
			a := html.Attribute{Key: keys[rng.Intn(len(keys))], Val: vals[rng.Intn(len(vals))]}
			if rng.Intn(2) == 0 {
				a.Val += " " + vals[rng.Intn(len(vals))]
			}
			if rng.Intn(8) == 0 {
				a.Namespace = "xlink"
			}
			n.Attr = append(n.Attr, a)
		}
		if got, want := isCommentMarker(n), isCommentMarkerNaive(n); got != want {
			t.Fatalf("isCommentMarker(<%s %v>) = %v, want %v", n.Data, n.Attr, got, want)
		}
		if got, want := excludedArea(n), excludedAreaNaive(n); got != want {
			t.Fatalf("excludedArea(<%s %v>) = %v, want %v", n.Data, n.Attr, got, want)
		}
		if isCommentMarker(n) {
			marked++
		}
		if excludedArea(n) {
			excluded++
		}
	}
	if marked < 1000 || excluded < 1000 {
		t.Fatalf("too few markers (%d) or excluded areas (%d)", marked, excluded)
	}
}
