package learn

import (
	"bytes"
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
	var w spaceWriter
	writeText(&w, n)
	return string(w.b)
}

// spaceWriter collapses white space as it is written: what it holds is
// collapse of all it was given, without building that string first.
type spaceWriter struct {
	b     []byte
	space bool // white space seen since the last word
}

// writeString appends s. Words and the single spaces between them are
// copied in runs, found 8 bytes at a time where the text is plain ASCII
// (plainBlock), else byte by byte (textClass): only the lead bytes of the
// few multi-byte runes that may be white space are decoded.
func (w *spaceWriter) writeString(s string) {
	start := -1 // the start of the run being copied; -1 between runs
	for i := w.joinSplitSpace(s); i < len(s); {
		if i+8 <= len(s) && plainBlock(load64(s, i), start >= 0) {
			if start < 0 {
				start = w.startRun(i)
			}
			i += 8
			continue
		}
		n := 1 // the width of the white space at i
		switch textClass[s[i]] {
		case textWord:
			if start < 0 {
				start = w.startRun(i)
			}
			for i++; i < len(s) && textClass[s[i]] == textWord; i++ {
			}
			continue
		case textSpace:
			if start >= 0 && i+1 < len(s) && textClass[s[i+1]] == textWord {
				i++ // a single space inside the run
				continue
			}
		case textMaybeSpace:
			r, size := utf8.DecodeRuneInString(s[i:])
			if !unicode.IsSpace(r) {
				if start < 0 {
					start = w.startRun(i)
				}
				i++ // the rune's other bytes are word bytes
				continue
			}
			n = size
		}
		if start >= 0 {
			w.b = append(w.b, s[start:i]...)
			start = -1
		}
		w.space = true
		i += n
	}
	if start >= 0 {
		w.b = append(w.b, s[start:]...)
	}
}

// joinSplitSpace handles a white space rune split across writes: when w
// ends in the first bytes of one (nothing written since) and s starts with
// the rest, those first bytes are taken back and w.space set, as if the
// rune had come whole. It returns how many bytes of s it took.
func (w *spaceWriter) joinSplitSpace(s string) int {
	if w.space || len(s) == 0 || utf8.RuneStart(s[0]) {
		return 0
	}
	from := max(len(w.b)-3, 0)
	lead := len(w.b) - 1
	for ; lead >= from && !utf8.RuneStart(w.b[lead]); lead-- {
	}
	if lead < from || textClass[w.b[lead]] != textMaybeSpace {
		return 0
	}
	have := len(w.b) - lead
	need := 3
	if w.b[lead] == 0xC2 {
		need = 2
	}
	if have >= need || len(s) < need-have {
		return 0 // complete already, or still incomplete: bytes as written
	}
	var rb [4]byte
	n := copy(rb[:], w.b[lead:])
	n += copy(rb[n:], s[:need-have])
	if r, size := utf8.DecodeRune(rb[:n]); size != n || !unicode.IsSpace(r) {
		return 0
	}
	w.b = w.b[:lead]
	if len(w.b) > 0 && w.b[len(w.b)-1] == ' ' {
		w.b = w.b[:len(w.b)-1] // the separator startRun wrote before the rune
	}
	w.space = true
	return need - have
}

// startRun separates the run of words starting at i from what w holds
// and returns i.
func (w *spaceWriter) startRun(i int) int {
	if w.space && len(w.b) > 0 {
		w.b = append(w.b, ' ')
	}
	w.space = false
	return i
}

// plainBlock reports whether the 8 bytes of x (little-endian: the first
// is the lowest) go into a run of words as they are: ASCII word bytes and
// single spaces, no space last (what follows is not known) and, unless a
// run is open, none first. The bytes' high bits carry the tests: a byte
// is at least 0x21 when adding 0x5F to it sets its high bit, and is a
// space when adding 0x7F to it xor 0x20 does not; no byte carries into
// the next, all being below 0x80.
func plainBlock(x uint64, open bool) bool {
	const ones, high, low7 = 0x0101010101010101, 0x8080808080808080, 0x7f7f7f7f7f7f7f7f
	if x&high != 0 {
		return false
	}
	word := (x + (0x80-0x21)*ones) & high
	space := ^((x ^ 0x20*ones) + low7) & high
	edges := uint64(0x80) << 56
	if !open {
		edges |= 0x80
	}
	return word|space == high && space&(space>>8) == 0 && space&edges == 0
}

// load64 returns the 8 bytes of s at i as a little-endian number.
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// Byte classes of textClass.
const (
	textWord       = iota // a byte of a word: not white space
	textSpace             // ' '
	textOtherSpace        // other ASCII white space
	textMaybeSpace        // the lead byte of U+0085, U+00A0, U+1680, U+2000–U+200A, U+2028, U+2029, U+202F, U+205F or U+3000
)

// textClass classifies the bytes of text for spaceWriter: the non-ASCII
// white space runes (unicode.IsSpace) all start with 0xC2, 0xE1, 0xE2 or
// 0xE3; other bytes, UTF-8 continuation bytes and invalid bytes included,
// are word bytes.
var textClass = [256]uint8{
	' ': textSpace, '\t': textOtherSpace, '\n': textOtherSpace, '\v': textOtherSpace, '\f': textOtherSpace, '\r': textOtherSpace,
	0xC2: textMaybeSpace, 0xE1: textMaybeSpace, 0xE2: textMaybeSpace, 0xE3: textMaybeSpace,
}

// writeText writes the visible text under n.
func writeText(b *spaceWriter, n *html.Node) { writeTextWithout(b, n, nil) }

// writeTextWithout is writeText leaving out the subtrees under n for
// which skip (when not nil) is true.
func writeTextWithout(b *spaceWriter, n *html.Node, skip func(*html.Node) bool) {
	block := false
	switch n.Type {
	case html.TextNode:
		b.writeString(n.Data)
		return
	case html.ElementNode:
		if skipped(n) {
			return
		}
		block = n.Data == "br" || blockTags[n.Data]
	case html.CommentNode:
		return
	}
	b.space = b.space || block
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if skip == nil || !skip(c) {
			writeTextWithout(b, c, skip)
		}
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

// innerHTML renders n's children as html.Render does, trimmed of
// surrounding white space.
func innerHTML(n *html.Node) string {
	var b bytes.Buffer
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		_ = html.Render(&b, c)
	}
	return string(bytes.TrimSpace(b.Bytes()))
}
