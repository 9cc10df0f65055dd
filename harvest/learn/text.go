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
	if isCollapsed(s) {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		r, w := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeRuneInString(s[i:])
		}
		if isSpaceRune(r) {
			i += w
			continue
		}
		j := i + w
		for j < len(s) {
			r, w = rune(s[j]), 1
			if r >= utf8.RuneSelf {
				r, w = utf8.DecodeRuneInString(s[j:])
			}
			if isSpaceRune(r) {
				break
			}
			j += w
		}
		if len(b) > 0 {
			b = append(b, ' ')
		}
		b = append(b, s[i:j]...)
		i = j
	}
	return string(b)
}

// isCollapsed reports whether s is ASCII-spaced text that collapse would
// return unchanged: no white space but single inner spaces.
func isCollapsed(s string) bool {
	prev := byte(' ')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= utf8.RuneSelf:
			return false
		case c == ' ':
			if prev == ' ' {
				return false
			}
		case asciiSpace[c]:
			return false
		}
		prev = c
	}
	return prev != ' ' || s == ""
}

// asciiSpace are the ASCII bytes unicode.IsSpace reports as white space.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, '\f': true, '\r': true, ' ': true}

// isSpaceRune reports whether r is white space as strings.Fields sees it.
func isSpaceRune(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiSpace[r]
	}
	return unicode.IsSpace(r)
}

// nodeText returns the visible text under n, text nodes separated by spaces
// where the markup separates blocks, white space collapsed.
func nodeText(n *html.Node) string {
	if n.Type == html.TextNode {
		return collapse(n.Data)
	}
	buf := getText()
	w := spaceWriter{b: (*buf)[:0]}
	writeText(&w, n)
	s := string(w.b)
	putText(buf, w.b)
	return s
}

// spaceWriter collapses white space as it is written: what it holds is
// collapse of all it was given, without building that string first.
type spaceWriter struct {
	b     []byte
	space bool // white space seen since the last word
}

// writeString appends s.
func (w *spaceWriter) writeString(s string) {
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		if isSpaceRune(r) {
			w.space = true
			i += n
			continue
		}
		j := i + n
		for j < len(s) && s[j] < utf8.RuneSelf && !asciiSpace[s[j]] {
			j++
		}
		if w.space && len(w.b) > 0 {
			w.b = append(w.b, ' ')
		}
		w.space = false
		w.b = append(w.b, s[i:j]...)
		i = j
	}
}

// writeText writes the visible text under n.
func writeText(b *spaceWriter, n *html.Node) {
	block := false
	switch n.Type {
	case html.TextNode:
		b.writeString(n.Data)
		return
	case html.ElementNode:
		if skipped(n) {
			return
		}
		block = n.Data == "br" || isBlock(n)
	case html.CommentNode:
		return
	}
	b.space = b.space || block
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		writeText(b, c)
	}
	b.space = b.space || block
}

// blockTags are the elements that start a new line of text.
var blockTags = map[string]bool{
	"p": true, "div": true, "li": true, "ul": true, "ol": true, "h1": true, "h2": true, "h3": true,
	"h4": true, "h5": true, "h6": true, "blockquote": true, "pre": true, "table": true, "tr": true,
	"td": true, "th": true, "section": true, "article": true, "header": true, "footer": true,
	"figure": true, "figcaption": true, "dd": true, "dt": true, "dl": true, "hr": true, "main": true,
	"aside": true, "nav": true, "form": true, "title": true, "address": true,
}
