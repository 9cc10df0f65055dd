package learn

import (
	"bytes"
	"encoding/binary"
	"sort"
	"strings"

	"github.com/blogharvest/blogharvest"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// This file is Extract's fast path. Most learned rules start with one step
// — an id, a class token or a tag — whose element can be found by
// searching the raw bytes for the id, token or tag name and checking the
// enclosing start tag with the tokenizer; only that element is then
// parsed, and the rule's other steps, which go down from it, are applied
// to it. It avoids parsing the whole page, which is most of the cost of
// Extract. Whenever a rule has another shape, a value is missing or
// anything looks unusual, the fast path gives up and Extract parses the page.

// fastExtract extracts p with raw scans, or reports false.
// It answers only when the article, title, author and date all have
// trusted rules, there is no comment rule and the page shows no comment
// markup, since the fallbacks and the comment rules need the whole tree.
func (r *Rules) fastExtract(p Page) (Extraction, bool) {
	if r == nil || !r.Article.usable() || !r.Title.usable() || !r.Author.usable() || !r.Date.usable() ||
		r.Comments != nil && r.Comments.Node.usable() {
		return Extraction{}, false
	}
	sc := &scanner{page: p.HTML, lower: asciiLower(p.HTML)}
	var x Extraction
	if mayHoldComments(sc.lower) {
		return x, false
	}
	root, ok := sc.node(r.Article)
	if !ok || nodeText(root) == "" {
		return x, false
	}
	for _, f := range []struct {
		rule *Rule
		set  func(*html.Node) bool
	}{
		{r.Title, func(n *html.Node) bool { x.Title = nodeText(n); return x.Title != "" }},
		{r.Author, func(n *html.Node) bool { x.Author = authorOf(r.Author, nodeText(n)); return x.Author != "" }},
		{r.Date, func(n *html.Node) bool { return fastDate(n, r.Date, p.Lang, r.Lang, &x) }},
	} {
		n, ok := sc.node(f.rule)
		if !ok || !f.set(n) {
			return x, false
		}
	}
	for _, f := range []string{FieldContent, FieldTitle, FieldAuthor, FieldDate} {
		x.Methods.Set(f, blogharvest.MethodRule)
	}
	base := parseBase(p.URL)
	cleanNode(root, base)
	x.ContentHTML = innerHTML(root)
	x.ContentText = nodeText(root)
	x.Score = articleScore(r.Article, len(x.ContentText))
	return x, true
}

// asciiLower returns a copy of b with ASCII letters lower-cased; other
// bytes, UTF-8 included, are kept, so offsets do not move.
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	i := 0
	for ; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(out[i:], lowerWord(binary.LittleEndian.Uint64(b[i:])))
	}
	for ; i < len(b); i++ {
		c := b[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

// lowerWord lower-cases the ASCII letters among the 8 bytes of x at once:
// a byte is an upper-case letter when its low 7 bits are at least 'A' and
// at most 'Z' and its high bit is clear; adding 0x20 to it is setting
// bit 5.
func lowerWord(x uint64) uint64 {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	low7 := x &^ high
	geA := low7 + (0x80-'A')*ones
	gtZ := low7 + (0x80-'Z'-1)*ones
	upper := geA &^ gtZ &^ x & high
	return x | upper>>2
}

// span is an element's bytes in the page: [from, to) from its start tag to
// the end of its end tag; tagEnd is the end of the start tag.
type span struct{ from, tagEnd, to int }

// scanner searches one page.
type scanner struct {
	page, lower []byte
	hiddenSpans [][2]int // comments and raw-text elements, in order; nil until needed
}

// node returns the first element rule r selects, parsing only the
// element its first step finds: the rule's first step must be a lookup by
// id, class token or tag, and its other steps stay inside that element.
func (sc *scanner) node(r *Rule) (*html.Node, bool) {
	s, ok := sc.find(r)
	if !ok {
		return nil, false
	}
	root, ok := parseSubtree(sc.page[s.from:s.to])
	rest := r.sel.steps[1:]
	if !ok || len(rest) == 0 {
		return root, ok
	}
	// Another element of the first step inside this one could hold a
	// match earlier in document order than this one's.
	if _, nested := sc.findIn(&r.sel.steps[0], s.tagEnd, s.to); nested {
		return nil, false
	}
	ns := (&selector{rel: true, steps: rest}).eval(root, true, nil)
	if len(ns) == 0 {
		return nil, false
	}
	return ns[0], true
}

// find locates the first element the first step of rule r selects, when
// r is a rule from the document whose later steps go down from it.
func (sc *scanner) find(r *Rule) (span, bool) {
	if r.compile() != nil || r.sel == nil || r.sel.rel || len(r.sel.steps) > 1 && r.sel.steps[1].sibling != 0 {
		return span{}, false
	}
	st := &r.sel.steps[0]
	if !st.desc || st.pos != 0 || st.sibling != 0 || implicitEnd[st.tag] {
		return span{}, false
	}
	return sc.findIn(st, 0, len(sc.lower))
}

// findIn locates the first element passing step st whose start tag holds
// the step's needle within lower[from:to].
func (sc *scanner) findIn(st *selStep, from, to int) (span, bool) {
	needle := []byte(needleOf(st))
	if len(needle) == 0 {
		return span{}, false
	}
	for {
		i := bytes.Index(sc.lower[from:to], needle)
		if i < 0 {
			return span{}, false
		}
		pos := from + i
		from = pos + 1
		if !delimited(sc.lower, pos, len(needle), st) {
			continue
		}
		if s, ok := sc.elementAt(pos, st); ok {
			return s, true
		}
	}
}

// delimited reports whether the needle found at pos stands alone: a whole
// attribute value or class token, or a whole tag name.
func delimited(b []byte, pos, n int, st *selStep) bool {
	after := byte('>')
	if pos+n < len(b) {
		after = b[pos+n]
	}
	if st.attrKey == "" && st.classTok == "" {
		return after == ' ' || after == '>' || after == '/' || after == '\t' || after == '\n' || after == '\r'
	}
	if pos == 0 {
		return false
	}
	before := b[pos-1]
	return strings.IndexByte("\"' \t\n\r\f=", before) >= 0 && strings.IndexByte("\"' \t\n\r\f>", after) >= 0
}

// implicitEnd are elements whose end tag may be omitted: their extent
// cannot be found by counting tags.
var implicitEnd = map[string]bool{
	"p": true, "li": true, "dt": true, "dd": true, "option": true, "tr": true, "td": true, "th": true,
	"html": true, "body": true, "head": true, "tbody": true, "thead": true, "colgroup": true, "rt": true, "rp": true,
}

// needleOf returns the lower-cased bytes to search for a step.
func needleOf(st *selStep) string {
	switch {
	case st.attrKey != "":
		return strings.ToLower(st.attrVal)
	case st.classTok != "":
		return strings.ToLower(st.classTok)
	}
	return "<" + st.tag
}

// elementAt checks that pos lies in the start tag of an element that passes
// st, outside comments and raw-text elements, and returns its extent.
func (sc *scanner) elementAt(pos int, st *selStep) (span, bool) {
	lt := bytes.LastIndexByte(sc.page[:pos+1], '<')
	if lt < 0 || bytes.IndexByte(sc.page[lt:pos], '>') >= 0 || sc.hidden(lt) {
		return span{}, false
	}
	z := html.NewTokenizer(bytes.NewReader(sc.page[lt:]))
	if z.Next() != html.StartTagToken {
		return span{}, false
	}
	tok := z.Token()
	n := &html.Node{Type: html.ElementNode, Data: tok.Data, Attr: tok.Attr}
	if !st.matches(n) || implicitEnd[tok.Data] {
		return span{}, false
	}
	tagEnd := lt + len(z.Raw())
	end, ok := closeOf(z, tok.Data)
	return span{lt, tagEnd, tagEnd + end}, ok
}

// hidden reports whether offset i lies inside a comment or a script, style
// or textarea element.
func (sc *scanner) hidden(i int) bool {
	if sc.hiddenSpans == nil {
		sc.hiddenSpans = hiddenSpans(sc.lower)
	}
	k := sort.Search(len(sc.hiddenSpans), func(k int) bool { return sc.hiddenSpans[k][1] > i })
	return k < len(sc.hiddenSpans) && sc.hiddenSpans[k][0] < i
}

// hiddenOpeners are the starts of comments and raw-text elements with
// their ends.
var hiddenOpeners = [][2]string{{"<!--", "-->"}, {"<script", "</script"}, {"<style", "</style"}, {"<textarea", "</textarea"}}

// hiddenSpans returns the byte ranges of a lower-cased page that are
// comments or raw-text elements, in order; a range that starts inside an
// earlier one (a "<script" in a comment) is dropped.
func hiddenSpans(lower []byte) [][2]int {
	var all [][2]int
	for _, o := range hiddenOpeners {
		for i := 0; ; {
			j := bytes.Index(lower[i:], []byte(o[0]))
			if j < 0 {
				break
			}
			from := i + j
			end := len(lower)
			if k := bytes.Index(lower[from+len(o[0]):], []byte(o[1])); k >= 0 {
				end = from + len(o[0]) + k + len(o[1])
			}
			all = append(all, [2]int{from, end})
			i = end
		}
	}
	sort.Slice(all, func(a, b int) bool { return all[a][0] < all[b][0] })
	out := [][2]int{}
	for _, sp := range all {
		if len(out) == 0 || sp[0] >= out[len(out)-1][1] {
			out = append(out, sp)
		}
	}
	return out
}

// closeOf reads tokens after a start tag of tag until its matching end tag
// and returns the offset, relative to the end of the start tag, just past
// that end tag.
func closeOf(z *html.Tokenizer, tag string) (int, bool) {
	if voidTags[tag] {
		return 0, true
	}
	depth, off := 1, 0
	for {
		tt := z.Next()
		off += len(z.Raw())
		switch tt {
		case html.ErrorToken:
			return 0, false
		case html.StartTagToken, html.EndTagToken:
			name, _ := z.TagName()
			if string(name) != tag {
				continue
			}
			if tt == html.StartTagToken {
				depth++
			} else if depth--; depth == 0 {
				return off, true
			}
		}
	}
}

// voidTags have no content and no end tag.
var voidTags = map[string]bool{
	"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true, "img": true,
	"input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true,
}

// parseSubtree parses an element's bytes as a fragment of a body and
// returns the element.
func parseSubtree(b []byte) (*html.Node, bool) {
	ctx := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := html.ParseFragment(bytes.NewReader(b), ctx)
	if err != nil || len(nodes) == 0 || nodes[0].Type != html.ElementNode {
		return nil, false
	}
	return nodes[0], true
}

// fastDate reads the date of element n into x.
func fastDate(n *html.Node, r *Rule, lang, fallbackLang string, x *Extraction) bool {
	if lang == "" {
		lang = fallbackLang
	}
	t, ok := nodeDate(n, r.Attr, lang)
	if ok {
		x.Date = inOffset(t, r.UTCOffset)
	}
	return ok
}
