package learn

import (
	"bytes"
	"encoding/binary"
	"sort"
	"strings"
	"sync"

	"github.com/blogharvest/blogharvest"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// This file is Extract's fast path. Most learned rules start with one step
// — an id, a class token or a tag — whose element can be found in the
// page's outline (outline.go: every element's name, extent and parent,
// read in one pass over the raw bytes), or, when the outline gives up, by
// searching the raw bytes for the id, token or tag name; only that element
// is then built (build.go) or parsed, and the rule's other steps, which go
// down from it, are applied to it. It avoids parsing the whole page, which
// is most of the cost of Extract. Whenever a rule has another shape, a
// value is missing or anything looks unusual, the fast path gives up and
// Extract parses the page.

// fastExtract extracts p with raw scans, or reports false.
// It answers only when the article, title, author and date all have
// trusted rules, since their fallbacks need the whole tree; comments come
// from the part of the page that holds them (fastcomments.go).
func (r *Rules) fastExtract(p Page) (Extraction, bool) {
	x, why := r.fastTry(p)
	return x, why == ""
}

// fastTry is fastExtract, saying why it gave up ("" when it did not).
func (r *Rules) fastTry(p Page) (Extraction, string) {
	if r == nil || !r.Article.usable() || !r.Title.usable() || !r.Author.usable() || !r.Date.usable() {
		return Extraction{}, "untrusted rule"
	}
	if !fastShape(r.Article) || !fastShape(r.Title) || !fastShape(r.Author) || !fastShape(r.Date) {
		return Extraction{}, "rule shape"
	}
	sc := newScanner(p.HTML)
	defer sc.release()
	var x Extraction
	root, ok := sc.node(r.Article)
	if !ok {
		return x, "article"
	}
	rawText := nodeText(root) // the score is of the text before cleaning, as in the slow path
	if rawText == "" {
		return x, "empty article"
	}
	if why := sc.fields(r, p, &x); why != "" {
		return x, why
	}
	if !sc.fastComments(r, p, &x) { // the costliest part, last
		return x, "comments"
	}
	for _, f := range []string{FieldContent, FieldTitle, FieldAuthor, FieldDate} {
		x.Methods.Set(f, blogharvest.MethodRule)
	}
	x.ContentText = rawText
	if cleanTree(root, parseBase(p.URL)) {
		x.ContentText = nodeText(root)
	}
	x.ContentHTML = innerHTML(root)
	x.Score = articleScore(r.Article, len(rawText))
	return x, ""
}

// fields extracts the title, author and date into x by their rules, or
// says which it could not.
func (sc *scanner) fields(r *Rules, p Page, x *Extraction) string {
	n, ok := sc.node(r.Title)
	if !ok {
		return FieldTitle
	}
	if x.Title = nodeText(n); x.Title == "" {
		return FieldTitle
	}
	if n, ok = sc.node(r.Author); !ok {
		return FieldAuthor
	}
	if x.Author = authorOf(r.Author, nodeText(n), x.Title); x.Author == "" {
		return FieldAuthor
	}
	if n, ok = sc.node(r.Date); !ok || !fastDate(n, r.Date, p.Lang, r.Lang, x) {
		return FieldDate
	}
	return ""
}

// scanBuffers are the buffers of a scanner, reused between pages.
type scanBuffers struct {
	lower []byte
	ol    outline   // the page's outline, its slices reused
	arena nodeArena // the nodes of the subtrees built
}

// scanPool holds scanBuffers for reuse.
var scanPool = sync.Pool{New: func() any { return new(scanBuffers) }}

// newScanner returns a scanner of page with buffers from the pool; its
// release returns them.
func newScanner(page []byte) *scanner {
	return &scanner{page: page, buf: scanPool.Get().(*scanBuffers)}
}

// lowered returns the page lower-cased, making it on first use: only the
// searches of raw bytes need it, when the outline gives up.
func (sc *scanner) lowered() []byte {
	if sc.lower != nil {
		return sc.lower
	}
	if sc.buf == nil {
		sc.lower = asciiLower(sc.page)
		return sc.lower
	}
	if cap(sc.buf.lower) < len(sc.page) {
		sc.buf.lower = make([]byte, len(sc.page))
	}
	sc.lower = asciiLowerInto(sc.buf.lower[:len(sc.page)], sc.page)
	return sc.lower
}

// release returns the scanner's buffers to the pool; the scanner must not
// be used afterwards.
func (sc *scanner) release() {
	if sc.buf == nil {
		return
	}
	sc.buf.arena.reset()
	// The page is not kept.
	sc.buf.ol.page, sc.buf.ol.lower, sc.buf.ol.lowerOf = nil, nil, nil
	if cap(sc.buf.lower) <= 4<<20 && cap(sc.buf.ol.els) <= 4<<20/80 { // do not keep the buffers of huge pages
		scanPool.Put(sc.buf)
	}
}

// asciiLower returns a copy of b with ASCII letters lower-cased; other
// bytes, UTF-8 included, are kept, so offsets do not move.
func asciiLower(b []byte) []byte { return asciiLowerInto(make([]byte, len(b)), b) }

// asciiLowerInto is asciiLower writing into out, which has b's length.
func asciiLowerInto(out, b []byte) []byte {
	i := 0
	out = out[:len(b)]
	for ; i+32 <= len(b); i += 32 {
		src, dst := b[i:i+32:i+32], out[i:i+32:i+32]
		binary.LittleEndian.PutUint64(dst[0:], lowerWord(binary.LittleEndian.Uint64(src[0:])))
		binary.LittleEndian.PutUint64(dst[8:], lowerWord(binary.LittleEndian.Uint64(src[8:])))
		binary.LittleEndian.PutUint64(dst[16:], lowerWord(binary.LittleEndian.Uint64(src[16:])))
		binary.LittleEndian.PutUint64(dst[24:], lowerWord(binary.LittleEndian.Uint64(src[24:])))
	}
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
	page, lower []byte       // lower: the page lower-cased, nil until made (lowered)
	buf         *scanBuffers // pooled buffers; nil when not pooled
	hiddenSpans [][2]int     // comments and raw-text elements, in order; nil until needed
	ol          *outline     // nil until needed
}

// outline returns the page's outline, reading it on first use. When the
// outline gives up, the page is lower-cased for the raw searches that
// take over.
func (sc *scanner) outline() *outline {
	if sc.ol != nil {
		return sc.ol
	}
	o := &outline{}
	if sc.buf != nil {
		o = &sc.buf.ol
		*o = outline{els: o.els[:0], stack: o.stack[:0], folded: o.folded, excl: o.excl[:0]}
	} else {
		o.els = make([]olElem, 0, len(sc.page)/80)
	}
	o.page, o.lower, o.lowerOf = sc.page, sc.lower, sc.lowered
	o.read()
	sc.ol = o
	if !o.ok {
		sc.lowered()
	}
	return o
}

// node returns the first element rule r selects, parsing only the
// element its first step finds: the rule's first step must be a lookup by
// id, class token or tag, and its other steps stay inside that element.
func (sc *scanner) node(r *Rule) (*html.Node, bool) {
	if headRule(r) {
		return sc.headNode(r)
	}
	if !fastShape(r) {
		return nil, false
	}
	if o := sc.outline(); o.ok {
		return sc.outlineNode(r)
	}
	s, ok := sc.find(r)
	if !ok {
		return nil, false
	}
	_, nested := sc.findIn(&r.sel.steps[0], s.tagEnd, s.to)
	return sc.nodeIn(r, s, nested)
}

// maxTries bounds the elements of a rule's first step the fast path
// tries in turn when the rule's other steps find nothing in the first.
const maxTries = 32

// outlineNode is node with the page's outline: the elements of the rule's
// first step are tried in document order until the other steps find a
// node in one.
func (sc *scanner) outlineNode(r *Rule) (*html.Node, bool) {
	o, st := sc.ol, &r.sel.steps[0]
	from := 0
	for try := 0; try < maxTries; try++ {
		k, ok := o.first(st, from, len(o.els))
		if !ok || k < 0 || o.els[k].to < 0 {
			return nil, false // an element whose end is implied: its extent is not its bytes
		}
		e := o.els[k]
		end := o.within(k)
		in, ok := o.first(st, k+1, end)
		if !ok {
			return nil, false
		}
		if n, ok := sc.nodeIn(r, span{e.from, e.tagEnd, e.to}, in >= 0); ok || len(r.sel.steps) == 1 {
			return n, ok
		}
		from = end
	}
	return nil, false
}

// nodeIn returns the first node of rule r inside the element at span s,
// whose element matches the rule's first step; nested says whether
// another element of that step lies inside it.
func (sc *scanner) nodeIn(r *Rule, s span, nested bool) (*html.Node, bool) {
	root, ok := sc.subtree(s)
	rest := r.sel.steps[1:]
	if !ok || len(rest) == 0 {
		return root, ok
	}
	sel := &selector{rel: true, steps: rest}
	if nested {
		// Other elements of the first step inside this one may hold
		// matches earlier in document order than this one's: the whole
		// rule is applied to the subtree.
		doc := &html.Node{Type: html.DocumentNode}
		doc.AppendChild(root)
		sel = r.sel
	}
	ns := sel.eval(root, true, nil)
	if len(ns) == 0 {
		return nil, false
	}
	return ns[0], true
}

// headRule reports whether r is a rule from the document that goes down
// through its head (/html[1]/head[1]…), as titles taken from <title> are.
func headRule(r *Rule) bool {
	if r.compile() != nil || r.sel == nil || r.sel.rel || len(r.sel.steps) < 2 {
		return false
	}
	for k, want := range []string{"html", "head"} {
		st := &r.sel.steps[k]
		if st.desc || st.sibling != 0 || st.tag != want || st.pos != 1 || st.attrKey != "" || st.classTok != "" {
			return false
		}
	}
	for _, st := range r.sel.steps[2:] {
		if st.sibling != 0 {
			return false
		}
	}
	return true
}

// headNode returns the first element of a head rule, parsing the page up
// to its <body> tag only: the parser has built the whole head by then.
func (sc *scanner) headNode(r *Rule) (*html.Node, bool) {
	o := sc.outline()
	if !o.ok || o.bodyAt < 0 {
		return nil, false
	}
	doc, err := html.Parse(bytes.NewReader(sc.page[:o.bodyAt]))
	if err != nil {
		return nil, false
	}
	ns := r.sel.eval(doc, true, nil)
	if len(ns) == 0 {
		return nil, false
	}
	return ns[0], true
}

// fastShape reports whether the fast path can apply rule r: a rule from
// the document whose first step is a lookup by id, class token or tag and
// whose later steps go down from it.
func fastShape(r *Rule) bool {
	if headRule(r) {
		return true
	}
	if r.compile() != nil || r.sel == nil || r.sel.rel || len(r.sel.steps) > 1 && r.sel.steps[1].sibling != 0 {
		return false
	}
	st := &r.sel.steps[0]
	return st.desc && st.pos == 0 && st.sibling == 0
}

// find locates the first element the first step of rule r selects,
// without the outline: elements whose end tag may be omitted are not
// looked for.
func (sc *scanner) find(r *Rule) (span, bool) {
	if !fastShape(r) || implicitEnd[r.sel.steps[0].tag] {
		return span{}, false
	}
	return sc.findIn(&r.sel.steps[0], 0, len(sc.page))
}

// findIn locates the first element passing step st whose start tag holds
// the step's needle within lower[from:to].
func (sc *scanner) findIn(st *selStep, from, to int) (span, bool) {
	needle := []byte(needleOf(st))
	if len(needle) == 0 {
		return span{}, false
	}
	lower := sc.lowered()
	for {
		i := bytes.Index(lower[from:to], needle)
		if i < 0 {
			return span{}, false
		}
		pos := from + i
		from = pos + 1
		if !delimited(lower, pos, len(needle), st) {
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
	n, tagEnd, ok := startTagAt(sc.page, lt)
	if !ok {
		if n, tagEnd, ok = tokenizeStartTag(sc.page, lt); !ok {
			return span{}, false
		}
	}
	if !st.matches(n) || implicitEnd[n.Data] {
		return span{}, false
	}
	end, ok := sc.closeAt(n.Data, tagEnd)
	return span{lt, tagEnd, end}, ok
}

// tokenizeStartTag reads the start tag at page[lt] with the tokenizer.
func tokenizeStartTag(page []byte, lt int) (*html.Node, int, bool) {
	z := html.NewTokenizer(bytes.NewReader(page[lt:]))
	if tt := z.Next(); tt != html.StartTagToken && tt != html.SelfClosingTagToken {
		return nil, 0, false
	}
	tok := z.Token()
	return &html.Node{Type: html.ElementNode, Data: tok.Data, Attr: tok.Attr}, lt + len(z.Raw()), true
}

// hidden reports whether offset i lies inside a comment or a script, style
// or textarea element.
func (sc *scanner) hidden(i int) bool {
	if sc.hiddenSpans == nil {
		sc.hiddenSpans = hiddenSpans(sc.lowered())
	}
	k := sort.Search(len(sc.hiddenSpans), func(k int) bool { return sc.hiddenSpans[k][1] > i })
	return k < len(sc.hiddenSpans) && sc.hiddenSpans[k][0] < i
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
	if modifiedLike(n) {
		return false // a "Last edited" date: the slow path looks for the published one
	}
	t, p, ok := nodeDatePrec(n, r.Attr, lang)
	if ok {
		x.Date, x.DatePrecision = inOffset(t, p, r.UTCOffset)
	}
	return ok
}
