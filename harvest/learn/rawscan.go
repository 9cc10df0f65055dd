package learn

import (
	"bytes"
	"strings"

	"golang.org/x/net/html/atom"

	"golang.org/x/net/html"
)

// This file reads raw HTML bytes without a tokenizer, for the fast path:
// the spans that hold no elements (comments and raw-text elements), the
// extent of an element, and a start tag's attributes. Each follows what
// golang.org/x/net/html's tokenizer does on ordinary markup and reports
// false where markup is unusual, so that the caller can parse instead.

// hiddenTextTags are the elements whose content the tokenizer reads as text
// (html.Parse enables scripting, so noscript is one of them).
var hiddenTextTags = []string{"script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript", "plaintext"}

// hiddenSpans returns the byte ranges of a lower-cased page that are
// comments or raw-text elements, in order, in one pass over its tags.
func hiddenSpans(lower []byte) [][2]int {
	out := [][2]int{}
	for i := 0; ; {
		j := bytes.IndexByte(lower[i:], '<')
		if j < 0 {
			return out
		}
		from := i + j
		end := hiddenEnd(lower, from)
		if end < 0 {
			i = from + 1
			continue
		}
		out = append(out, [2]int{from, end})
		i = end
	}
}

// hiddenEnd returns the end of the comment or raw-text element that starts
// at lower[from] ('<'), or -1 when none starts there.
func hiddenEnd(lower []byte, from int) int {
	rest := lower[from+1:]
	if bytes.HasPrefix(rest, []byte("!--")) {
		return spanEnd(lower, from+4, []byte("-->"))
	}
	if len(rest) == 0 || rest[0] < 'i' || rest[0] > 'x' {
		return -1
	}
	for _, t := range hiddenTextTags {
		if len(rest) > len(t) && rest[0] == t[0] && bytes.HasPrefix(rest, []byte(t)) && tagDelim(rest[len(t)]) {
			return spanEnd(lower, from+1+len(t), []byte("</"+t))
		}
	}
	return -1
}

// spanEnd returns the offset just past the first closer at or after
// from, or len(lower) when there is none.
func spanEnd(lower []byte, from int, closer []byte) int {
	if k := bytes.Index(lower[from:], closer); k >= 0 {
		return from + k + len(closer)
	}
	return len(lower)
}

// tagDelim reports whether c may follow a tag name.
func tagDelim(c byte) bool {
	return c == ' ' || c == '>' || c == '/' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// hiddenCursor walks a page's hidden spans forwards.
type hiddenCursor struct {
	spans [][2]int
	k     int
}

// skip returns the end of the hidden span holding offset i, or i when it
// lies in none; offsets must not decrease between calls.
func (h *hiddenCursor) skip(i int) int {
	for h.k < len(h.spans) && h.spans[h.k][1] <= i {
		h.k++
	}
	if h.k < len(h.spans) && h.spans[h.k][0] <= i {
		return h.spans[h.k][1]
	}
	return i
}

// closeAt returns the offset just past the end tag that closes the element
// tag whose start tag ends at from, counting nested elements of the same
// name and skipping hidden spans; false when the page ends first.
func (sc *scanner) closeAt(tag string, from int) (int, bool) {
	if voidTags[tag] {
		return from, true
	}
	sc.hidden(0)
	h := hiddenCursor{spans: sc.hiddenSpans}
	lower := sc.lowered()
	lt, ok := matchingEnd(lower, tag, 1, from, h.skip)
	if !ok {
		return 0, false
	}
	gt := bytes.IndexByte(lower[lt:], '>')
	if gt < 0 {
		return 0, false
	}
	return lt + gt + 1, true
}

// matchingEnd returns the offset of the '<' of the end tag that closes
// depth open elements named name, reading lower from offset from: start
// and end tags of that name are counted; hidden(lt) returns the end of the
// comment or raw text at or around the '<' at lt, or a value not past lt
// when there is none. It reports false when the page ends first.
func matchingEnd(lower []byte, name string, depth, from int, hidden func(lt int) int) (int, bool) {
	n := []byte(name)
	for i := from; ; {
		j := bytes.IndexByte(lower[i:], '<')
		if j < 0 {
			return 0, false
		}
		lt := i + j
		if e := hidden(lt); e > lt {
			i = e
			continue
		}
		i = lt + 1
		rest := lower[lt+1:]
		closing := len(rest) > 0 && rest[0] == '/'
		if closing {
			rest = rest[1:]
		}
		if len(rest) <= len(n) || !bytes.HasPrefix(rest, n) || !tagDelim(rest[len(n)]) {
			continue
		}
		if !closing {
			depth++
		} else if depth--; depth == 0 {
			return lt, true
		}
	}
}

// startTagAt reads the start tag at page[lt] ('<') as the tokenizer
// does: the element (name and attributes, keys lower-cased, values
// unescaped) and the offset just past its '>'. It reports false for
// anything unusual (a NUL byte, an uncommon character reference or a
// carriage return in a value, the page ending inside the tag).
func startTagAt(page []byte, lt int) (*html.Node, int, bool) {
	name, attrs, end, ok := tagAt(page, lt)
	if !ok {
		return nil, 0, false
	}
	return &html.Node{Type: html.ElementNode, Data: name, Attr: attrs}, end, true
}

// tagAt is startTagAt returning the name and attributes.
func tagAt(page []byte, lt int) (string, []html.Attribute, int, bool) {
	nameEnd, ok := tagNameEnd(page, lt)
	if !ok {
		return "", nil, 0, false
	}
	attrs, end, ok := attrsAt(page, nameEnd)
	if !ok {
		return "", nil, 0, false
	}
	return lowerString(page[lt+1 : nameEnd]), attrs, end, true
}

// tagNameEnd returns the end of the name of the start tag at page[lt],
// false when it is not an ordinary name.
func tagNameEnd(page []byte, lt int) (int, bool) {
	i := lt + 1
	nameEnd := i
	for nameEnd < len(page) && !tagDelim(page[nameEnd]) && page[nameEnd] != 0 {
		nameEnd++
	}
	return nameEnd, nameEnd > i && nameEnd < len(page) && isASCIILetter(page[i])
}

// attrsAt reads the attributes of a start tag from i, just past its name,
// to its '>'.
func attrsAt(page []byte, i int) ([]html.Attribute, int, bool) {
	var buf [8]html.Attribute
	attrs := buf[:0]
	for {
		i = skipSpace(page, i)
		if i >= len(page) || page[i] == 0 {
			return nil, 0, false
		}
		switch {
		case page[i] == '>':
			if len(attrs) == 0 {
				return nil, i + 1, true
			}
			return append([]html.Attribute(nil), attrs...), i + 1, true
		case page[i] == '/':
			i++
			continue
		}
		a, next, ok := attrAt(page, i)
		if !ok {
			return nil, 0, false
		}
		attrs = append(attrs, a)
		i = next
	}
}

// attrAt reads one attribute starting at page[i].
func attrAt(page []byte, i int) (html.Attribute, int, bool) {
	start := i
	for i < len(page) && (i == start || page[i] != '=') && !tagDelim(page[i]) && page[i] != 0 {
		i++
	}
	a := html.Attribute{Key: lowerString(page[start:i])}
	j := skipSpace(page, i)
	if j >= len(page) || page[j] != '=' {
		return a, i, true
	}
	j = skipSpace(page, j+1)
	if j >= len(page) {
		return a, 0, false
	}
	var val []byte
	switch q := page[j]; q {
	case '"', '\'':
		k := bytes.IndexByte(page[j+1:], q)
		if k < 0 {
			return a, 0, false
		}
		val, i = page[j+1:j+1+k], j+k+2
	default:
		i = j
		for i < len(page) && page[i] != '>' && !isHTMLSpace(page[i]) {
			i++
		}
		val = page[j:i]
	}
	if bytes.IndexByte(val, 0) >= 0 || bytes.IndexByte(val, '\r') >= 0 {
		return a, 0, false
	}
	a.Val = string(val)
	if bytes.IndexByte(val, '&') >= 0 {
		if !plainRefs(val) {
			return a, 0, false // the tokenizer's unescaping in attributes has its own rules
		}
		a.Val = html.UnescapeString(a.Val)
	}
	return a, i, true
}

// plainRefs reports whether every & of an attribute value starts a whole
// reference ending in ';' (a known name or a number), which the
// tokenizer replaces in attributes as html.UnescapeString does.
func plainRefs(v []byte) bool {
	for {
		i := bytes.IndexByte(v, '&')
		if i < 0 {
			return true
		}
		v = v[i+1:]
		j := bytes.IndexByte(v, ';')
		if j < 0 || !plainRef(v[:j]) {
			return false
		}
		v = v[j+1:]
	}
}

// plainRef reports whether name (between & and ;) is a reference the
// tokenizer replaces whole: a known name, or a number.
func plainRef(name []byte) bool {
	switch string(name) {
	case "amp", "lt", "gt", "quot", "apos", "nbsp":
		return true
	}
	if len(name) == 0 {
		return false
	}
	if name[0] != '#' {
		r := html.UnescapeString("&" + string(name) + ";")
		return !strings.ContainsAny(r, "&;")
	}
	if len(name) < 2 {
		return false
	}
	digits := name[1:]
	hex := digits[0] == 'x' || digits[0] == 'X'
	if hex {
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 6 {
		return false
	}
	for _, c := range digits {
		if !(c >= '0' && c <= '9' || hex && (c|0x20 >= 'a' && c|0x20 <= 'f')) {
			return false
		}
	}
	return true
}

// skipSpace returns the offset of the first non-space byte at or after i.
func skipSpace(b []byte, i int) int {
	for i < len(b) && isHTMLSpace(b[i]) {
		i++
	}
	return i
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// lowerString returns b as a string with ASCII letters lower-cased,
// without allocating for the names the atom package knows.
func lowerString(b []byte) string {
	var buf [32]byte
	if len(b) <= len(buf) {
		l := asciiLowerInto(buf[:len(b)], b)
		if a := lookupAtom(l); a != 0 {
			return a.String()
		}
		return string(l)
	}
	return string(asciiLower(b))
}

// subtree returns the element at span s as html.ParseFragment would in a
// body: built directly (plain text, or markup the outline follows), else
// parsed.
func (sc *scanner) subtree(s span) (*html.Node, bool) {
	if n, ok := textElement(sc.page, s); ok {
		return n, true
	}
	var arena *nodeArena
	if sc.buf != nil {
		arena = &sc.buf.arena
	}
	if n, ok := buildElementIn(sc.page[s.from:s.to], arena); ok {
		return n, true
	}
	return parseSubtree(sc.page[s.from:s.to])
}

// textElement builds the element at span s when it holds only text (no
// markup, character references allowed) and is an ordinary element of a
// body; false otherwise.
func textElement(page []byte, s span) (*html.Node, bool) {
	endTag := s.tagEnd
	if s.to > s.tagEnd {
		endTag = s.tagEnd + bytes.LastIndexByte(page[s.tagEnd:s.to], '<')
		if endTag < s.tagEnd {
			return nil, false
		}
	}
	text := page[s.tagEnd:endTag]
	if bytes.IndexByte(text, '<') >= 0 || bytes.IndexByte(text, 0) >= 0 || bytes.IndexByte(text, '\r') >= 0 {
		return nil, false
	}
	n, _, ok := startTagAt(page, s.from)
	if !ok {
		if n, _, ok = tokenizeStartTag(page, s.from); !ok {
			return nil, false
		}
	}
	a := atom.Lookup([]byte(n.Data))
	if a == 0 || notPlain[n.Data] || tagFlagMap[n.Data]&(fHidden|fTablePart) != 0 || voidTags[n.Data] != (s.to == s.tagEnd) {
		return nil, false
	}
	n.DataAtom, n.Data = a, a.String()
	if len(text) > 0 {
		n.AppendChild(&html.Node{Type: html.TextNode, Data: html.UnescapeString(string(text))})
	}
	return n, true
}

// notPlain are the elements a body's parser treats specially, which
// textElement leaves to it.
var notPlain = map[string]bool{
	"pre": true, "listing": true, "td": true, "th": true, "caption": true, "col": true, "colgroup": true, "select": true,
	"option": true, "optgroup": true, "svg": true, "math": true, "html": true, "head": true, "body": true, "frame": true,
	"frameset": true, "image": true, "template": true, "isindex": true, "nobr": true,
}

// lowerByte lower-cases c when it is an ASCII letter.
func lowerByte(c byte) byte {
	if c-'A' < 26 {
		c += 'a' - 'A'
	}
	return c
}

// hasPrefixFold reports whether b starts with s (lower-case), ASCII
// letters compared whatever their case, as the tokenizer compares names.
func hasPrefixFold(b []byte, s string) bool {
	if len(b) < len(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if lowerByte(b[i]) != s[i] {
			return false
		}
	}
	return true
}

// equalFold reports whether b is s (lower-case), ASCII letters compared
// whatever their case; other bytes, UTF-8 included, must be equal.
func equalFold(b []byte, s string) bool { return len(b) == len(s) && hasPrefixFold(b, s) }

// hasUpper reports whether b holds an ASCII upper-case letter.
func hasUpper(b []byte) bool {
	for _, c := range b {
		if c-'A' < 26 {
			return true
		}
	}
	return false
}
