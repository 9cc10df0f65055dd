package learn

import (
	"math/rand"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/net/html"
)

// refNodeText is nodeText as first written: all text, then collapsed.
func refNodeText(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			b.WriteString(n.Data)
			return
		case html.CommentNode:
			return
		case html.ElementNode:
			if skipped(n) {
				return
			}
			if n.Data == "br" || blockTags[n.Data] {
				b.WriteByte(' ')
				defer b.WriteByte(' ')
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// TestNodeTextMatchesReference checks the streaming nodeText against
// collapsing the whole text, on every element of random documents.
func TestNodeTextMatchesReference(t *testing.T) {
	parts := []string{"a", "b c", " ", "\u00a0", "é", "<p>", "</p>", "<br>", "<span>", "</span>", "<div>", "</div>", "<!-- x -->", "<script>s</script>", "\n", "<em>", "</em>", "<li>"}
	rng := rand.New(rand.NewSource(3))
	for range 3000 {
		b := randomMix(rng, parts, 20)
		root, err := html.Parse(strings.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		var check func(*html.Node)
		check = func(n *html.Node) {
			if got, want := nodeText(n), refNodeText(n); got != want {
				t.Fatalf("nodeText of %q in %q = %q, want %q", n.Data, b, got, want)
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				check(c)
			}
		}
		check(root)
	}
}

// refDateTokens is dateTokens as first written, rune by rune.
func refDateTokens(s string) []dateToken {
	var toks []dateToken
	var cur []rune
	flush := func(sep rune) {
		if len(cur) == 0 {
			return
		}
		w := string(cur)
		n, err := strconv.Atoi(w)
		if err != nil {
			n = -1
			w = strings.TrimRight(w, "0123456789")
			w = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(w, "st"), "nd"), "rd"), "th")
			if d, err := strconv.Atoi(w); err == nil {
				n = d
			} else {
				w = string(cur)
			}
		}
		b := byte(' ')
		if sep < 128 {
			b = byte(sep)
		}
		toks = append(toks, dateToken{word: strings.ToLower(w), num: n, sep: b})
		cur = cur[:0]
	}
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			cur = append(cur, unicode.ToLower(r))
			continue
		}
		flush(r)
	}
	flush(' ')
	return toks
}

// TestDateTokensMatchesReference checks dateTokens against the rune by
// rune version on random dates, words and separators.
func TestDateTokensMatchesReference(t *testing.T) {
	parts := []string{"28", "28th", "1st", "2ND", "Août", "MARCH", "mars", " ", "-", "/", ".", ",", "à", "٣", "Ä", "10:44", "am", "\u00a0", "x1", "ß", "İ"}
	rng := rand.New(rand.NewSource(6))
	for range 20000 {
		s := randomMix(rng, parts, 8)
		if got, want := dateTokens(s), refDateTokens(s); !reflect.DeepEqual(got, want) && (len(got) > 0 || len(want) > 0) {
			t.Fatalf("dateTokens(%q) = %v, want %v", s, got, want)
		}
	}
}

// randomMix joins up to max-1 parts drawn at random, for tests that
// compare a fast function with a plain one on random input.
func randomMix(rng *rand.Rand, parts []string, max int) string {
	var b strings.Builder
	for range rng.Intn(max) {
		b.WriteString(parts[rng.Intn(len(parts))])
	}
	return b.String()
}
