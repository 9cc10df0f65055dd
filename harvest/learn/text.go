package learn

import (
	"bytes"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blogharvest/blogharvest/harvest/textsim"
	"golang.org/x/net/html"
)

// skipped reports whether an element's content is not text a reader sees.
func skipped(n *html.Node) bool {
	switch n.Data {
	case "script", "style", "noscript", "template", "iframe", "svg", "object":
		return n.Namespace == "" || n.Data == "svg"
	}
	return false
}

// nodeText returns the visible text under n, text nodes separated by spaces
// where the markup separates blocks, white space collapsed.
func nodeText(n *html.Node) string {
	if n.Type == html.TextNode {
		return textsim.Collapse(n.Data)
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
// surrounding white space. It renders into a buffer kept between calls
// (renderBuffers) and copies out only the trimmed result: a fresh buffer
// per article grew by doubling from nothing, each step allocated and
// zeroed (html.Render into it was the most sampled source of
// bytes.Buffer growth, itself 10.7 % of the bytes two crawls allocated;
// issue 43). A collection may empty the pool, so this saves growth
// between collections only.
func innerHTML(n *html.Node) string {
	b := renderBuffers.Get().(*bytes.Buffer)
	b.Reset()
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		_ = html.Render(b, c)
	}
	s := string(bytes.TrimSpace(b.Bytes()))
	if b.Cap() <= maxPooledRender {
		renderBuffers.Put(b)
	}
	return s
}

// renderBuffers holds innerHTML's buffers between calls; sync.Pool lets
// idle ones go at collections, and one over maxPooledRender is not kept.
var renderBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledRender is the largest buffer innerHTML keeps for the next call.
const maxPooledRender = 4 << 20
