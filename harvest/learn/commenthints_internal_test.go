package learn

import (
	"regexp"
	"strings"
	"testing"
)

// TestIsCommentID compares isCommentID with the pattern it implements.
func TestIsCommentID(t *testing.T) {
	re := regexp.MustCompile(`^(?:(?:div|li|article|dsq)-)?comment[-_]?\d+$`)
	parts := []string{"", "div-", "li-", "article-", "dsq-", "x-", "comment", "comments", "-", "_", "42", "7", "a", "\n", "٣"}
	var ids []string
	for _, a := range parts {
		for _, b := range parts {
			for _, c := range parts {
				ids = append(ids, a+b+c)
				for _, d := range parts {
					ids = append(ids, a+b+c+d)
				}
			}
		}
	}
	for _, id := range ids {
		if got, want := isCommentID(id), re.MatchString(id); got != want {
			t.Errorf("isCommentID(%q) = %v, want %v", id, got, want)
		}
	}
}

// TestHintSets compares the hint sets with strings.Contains on values
// case-folded by strings.ToLower, non-ASCII ones included.
func TestHintSets(t *testing.T) {
	values := []string{"", "sidebar", "SideBar", "widget_recent_entries", "yarpp-related", "post-date", "entry-meta", "TIME",
		"s\u0130debar", "t\u0130me", "\u212Aey", "comment-metadata", "publishedx", "plain", "ti", "me", "recen"}
	for _, set := range []struct {
		h     *hintSet
		words []string
	}{{excludedHintSet, excludedHints}, {dateHintSet, []string{"date", "time", "published", "posted", "when", "meta"}}} {
		for _, v := range values {
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
