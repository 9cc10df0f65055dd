package learn

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// asciiBigrams is the number of bigram ids reserved for pairs of ASCII
// characters: such a pair's id is r1<<7 | r2, with no lookup.
const asciiBigrams = 128 * 128

// coder gives dense int32 ids to character bigrams. ASCII pairs have fixed
// ids; other pairs get ids from asciiBigrams up, in order of appearance. A
// coder is used by one goroutine.
type coder struct {
	other map[uint64]int32
}

func newCoder() *coder { return &coder{other: make(map[uint64]int32)} }

// size returns one more than the largest id given so far.
func (c *coder) size() int { return asciiBigrams + len(c.other) }

// id returns the id of the bigram (a, b).
func (c *coder) id(a, b rune) int32 {
	if a < 128 && b < 128 {
		return a<<7 | b
	}
	k := uint64(a)<<32 | uint64(uint32(b))
	if v, ok := c.other[k]; ok {
		return v
	}
	v := int32(c.size())
	c.other[k] = v
	return v
}

// appendText appends the bigram ids of s, normalised (case-folded,
// whitespace runs collapsed to one space, trimmed), to dst.
func (c *coder) appendText(dst []int32, s string) []int32 {
	prev := rune(-1)
	space := false
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		i += n
		r = fold(r)
		if r == ' ' {
			space = prev >= 0
			continue
		}
		if space {
			dst = append(dst, c.id(prev, ' '))
			prev = ' '
			space = false
		}
		if prev >= 0 {
			dst = append(dst, c.id(prev, r))
		}
		prev = r
	}
	return dst
}

// fold lower-cases r and maps every white space to ' '.
func fold(r rune) rune {
	switch {
	case r >= 'A' && r <= 'Z':
		return r + 'a' - 'A'
	case r < 128:
		if r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v' {
			return ' '
		}
		return r
	case unicode.IsSpace(r):
		return ' '
	}
	return unicode.ToLower(r)
}

// skipped reports whether an element's content is not text a reader sees.
func skipped(n *html.Node) bool {
	switch n.Data {
	case "script", "style", "noscript", "template", "iframe", "svg", "object":
		return n.Namespace == "" || n.Data == "svg"
	}
	return false
}

// NormalizeText returns s case-folded with white space collapsed and trimmed:
// the form texts are compared in.
func NormalizeText(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		r = fold(r)
		if r == ' ' {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String()
}

// collapse returns s with white space runs collapsed to one space and
// trimmed, case kept.
func collapse(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// nodeText returns the visible text under n, text nodes separated by spaces
// where the markup separates blocks, white space collapsed.
func nodeText(n *html.Node) string {
	var b strings.Builder
	writeText(&b, n)
	return collapse(b.String())
}

func writeText(b *strings.Builder, n *html.Node) {
	switch n.Type {
	case html.TextNode:
		b.WriteString(n.Data)
		return
	case html.ElementNode:
		if skipped(n) {
			return
		}
		if n.Data == "br" || blockTags[n.Data] {
			b.WriteByte(' ')
			defer b.WriteByte(' ')
		}
	case html.CommentNode:
		return
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		writeText(b, c)
	}
}

// blockTags are the elements that start a new line of text.
var blockTags = map[string]bool{
	"p": true, "div": true, "li": true, "ul": true, "ol": true, "h1": true, "h2": true, "h3": true,
	"h4": true, "h5": true, "h6": true, "blockquote": true, "pre": true, "table": true, "tr": true,
	"td": true, "th": true, "section": true, "article": true, "header": true, "footer": true,
	"figure": true, "figcaption": true, "dd": true, "dt": true, "dl": true, "hr": true, "main": true,
	"aside": true, "nav": true, "form": true, "title": true, "address": true,
}
