package learn

import (
	"bytes"
	"encoding/binary"

	"golang.org/x/net/html/atom"
)

// This file builds a page's outline: its elements' names, extents and
// parents, read from the raw bytes in one pass without building a tree.
// It follows html.Parse on ordinary markup — implied end tags of p, li,
// dd, dt, option and table parts, implied tbody and tr, void and raw-text
// elements, SVG — and gives up (ok false) on anything the parser would
// repair in a way the outline cannot follow: misnested formatting
// elements, content foster-parented out of tables, nested forms, MathML.
// A link opened inside another across a block is the exception: the
// parent of the outer link is kept as one opaque element, whose extent is
// known but whose elements are not listed (skipAround). html, head and
// body are not listed: their children are at the top. The tests compare
// outlines with html.Parse on random markup and on every corpus page.

// olElem is one element of an outline.
type olElem struct {
	name             string
	from, tagEnd, to int // start tag at [from, tagEnd); the element ends at to, -1 when its end is implied
	parent           int // index of the parent, -1 at the top
	id, class        [2]int32
	itemtype         [2]int32
	odd              bool   // the id, class or itemtype holds a character reference, a NUL or a CR: read it with the tokenizer
	foreign          bool   // an element inside SVG
	opaque           bool   // its elements are not listed: the parser restructures them (skipAround)
	mark             bool   // its id, class or itemtype mentions a comment or a citation, as comment markers do
	flags            uint16 // the name's tagFlags
	atom             atom.Atom
}

// has reports whether element k's name has flag f.
func (o *outline) has(k int, f uint16) bool { return o.els[k].flags&f != 0 }

// outline is the list of a page's elements in document order. It reads
// the page's bytes as they are, matching names and keys whatever their
// case; the page lower-cased (lower) is made only for the rarer reads
// that search it (lowered).
type outline struct {
	page, lower []byte
	lowerOf     func() []byte // makes lower, when set; else lowered allocates it
	folded      []byte        // scratch of fold
	els         []olElem
	ok          bool
	stack       []int
	foreign     int          // depth of open svg and math elements
	pos         int          // offset of the start tag being read
	inBody      bool         // a start tag of the body was read
	formPointer bool         // a form was opened and no </form> read since (the parser ignores nested forms)
	selects     int          // open select elements
	bodyAt      int          // offset of the <body> tag, -1 when there is none
	b           *treeBuilder // builds the tree as well, when set (build.go)

	inlinedFrames bool   // an element has data-blogharvest-iframe (iframes the renderer inlined)
	resume        int    // where to go on after an element was made opaque (skipAround); 0 for none
	excl          []int8 // excluded's verdicts by element, once the outline is read
	openP         int    // open p elements
}

// newOutline reads the outline of a page (lower is the page lower-cased,
// or nil to make it when needed).
func newOutline(page, lower []byte) *outline {
	o := &outline{page: page, lower: lower, els: make([]olElem, 0, len(page)/80)}
	o.read()
	return o
}

// read reads the outline of o.page into o.els (empty), with o.stack
// (empty) for the open elements.
func (o *outline) read() {
	o.ok, o.bodyAt = true, -1
	page := o.page
	for i := 0; o.ok; {
		j := bytes.IndexByte(page[i:], '<')
		if j < 0 {
			break
		}
		i = o.markup(i + j)
	}
}

// lowered returns the page lower-cased, making it on first use.
func (o *outline) lowered() []byte {
	if o.lower == nil {
		if o.lowerOf != nil {
			o.lower = o.lowerOf()
		} else {
			o.lower = asciiLower(o.page)
		}
	}
	return o.lower
}

// fold returns page[from:to] lower-cased: the page's bytes themselves
// when they have no upper-case letter, else a copy valid until the next
// call.
func (o *outline) fold(from, to int) []byte {
	v := o.page[from:to]
	if !hasUpper(v) {
		return v
	}
	if cap(o.folded) < len(v) {
		o.folded = make([]byte, len(v))
	}
	o.folded = asciiLowerInto(o.folded[:len(v)], v)
	return o.folded
}

// markup reads the markup at page[lt] ('<') and returns where to go on.
func (o *outline) markup(lt int) int {
	b := o.page
	if lt+1 >= len(b) {
		return len(b)
	}
	switch c := b[lt+1]; {
	case c == '!':
		if bytes.HasPrefix(b[lt+2:], []byte("--")) {
			return o.comment(lt + 4)
		}
		if o.foreign > 0 {
			o.fail() // CDATA sections
		}
		return skipTo(b, lt+2, '>')
	case c == '?':
		return skipTo(b, lt+2, '>')
	case c == '/':
		if lt+2 < len(b) && isASCIILetter(b[lt+2]) {
			return o.endTag(lt)
		}
		return skipTo(b, lt+2, '>')
	case isASCIILetter(c):
		return o.startTag(lt)
	}
	return lt + 1
}

// skipTo returns the offset just past the first c at or after i.
func skipTo(b []byte, i int, c byte) int {
	if i < len(b) && b[i] == c {
		return i + 1 // the commonest case, as after an end tag's name
	}
	if k := bytes.IndexByte(b[i:], c); k >= 0 {
		return i + k + 1
	}
	return len(b)
}

// comment skips a comment whose text starts at i.
func (o *outline) comment(i int) int {
	b := o.page
	switch {
	case bytes.HasPrefix(b[i:], []byte(">")):
		return i + 1
	case bytes.HasPrefix(b[i:], []byte("->")):
		return i + 2
	}
	end := spanEnd(b, i, []byte("-->"))
	if bytes.Contains(b[i:end], []byte("--!>")) {
		o.fail()
	}
	return end
}

// Classes of bytes in tag names, for tagName.
const (
	nPlain uint8 = iota
	nUpper       // an upper-case letter
	nEnd         // ends the name: tagDelim's and NUL
)

// nameBytes classes the bytes of tag names.
var nameBytes = func() (t [256]uint8) {
	for _, c := range []byte(" >/\t\n\r\f\x00") {
		t[c] = nEnd
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = nUpper
	}
	return t
}()

// tagName returns the name of the tag whose name starts at i, lower-cased
// as the tokenizer does, its flags and its end.
func (o *outline) tagName(i int) (string, uint16, atom.Atom, int) {
	b := o.page
	k := i
	var seen uint8
	for k < len(b) {
		c := nameBytes[b[k]]
		if c == nEnd {
			break
		}
		seen |= c
		k++
	}
	if k < len(b) && b[k] == 0 {
		o.fail() // the tokenizer puts U+FFFD in the name
	}
	if n := k - i; n > 0 && n < 8 && i+8 <= len(b) { // the common names, packed as packName does
		x := binary.LittleEndian.Uint64(b[i:]) & (1<<(8*n) - 1)
		if seen&nUpper != 0 {
			x = lowerWord(x)
		}
		if e, ok := atomByKey(x | uint64(n)<<56); ok {
			return e.name, e.flags, e.a, k
		}
	}
	n := b[i:k]
	var buf [24]byte
	if seen&nUpper != 0 {
		if len(n) > len(buf) {
			n = asciiLower(n)
		} else {
			n = asciiLowerInto(buf[:len(n)], n)
		}
	}
	if e, ok := cachedAtom(n); ok {
		return e.name, e.flags, e.a, k
	}
	if a := atom.Lookup(n); a != 0 {
		return a.String(), atomFlags(a), a, k
	}
	name := string(n)
	return name, tagFlagMap[name], 0, k
}

// attrs reads the attributes of a start tag from i to its '>' and returns
// the offset just past it, recording id and class on e.
func (o *outline) attrs(e *olElem, i int) (int, bool) {
	p := o.page
	selfClosing := false
	if o.b != nil {
		o.b.attrs, o.b.tokenize = o.b.attrs[:0], false
	}
	for {
		i = skipSpace(p, i)
		if i >= len(p) {
			o.fail()
			return len(p), false
		}
		switch p[i] {
		case '>':
			return i + 1, selfClosing
		case '/':
			i++
			selfClosing = i < len(p) && p[i] == '>'
			continue
		}
		selfClosing = false
		keyEnd, vFrom, vTo, next := attrSpan(p, i)
		if next < 0 {
			o.fail()
			return len(p), false
		}
		if o.b != nil {
			o.b.attr(p, i, keyEnd, vFrom, vTo)
		}
		var slot *[2]int32
		switch key := p[i:keyEnd]; {
		case equalFold(key, "id") && e.id[0] < 0:
			slot = &e.id
		case equalFold(key, "class") && e.class[0] < 0:
			slot = &e.class
		case equalFold(key, "itemtype") && e.itemtype[0] < 0:
			slot = &e.itemtype
		case equalFold(key, "data-blogharvest-iframe"):
			o.inlinedFrames = true
		}
		if slot != nil {
			*slot = [2]int32{int32(vFrom), int32(vTo)}
			if vFrom < 0 {
				*slot = [2]int32{int32(keyEnd), int32(keyEnd)} // no value: empty
			} else {
				mark, odd := scanValue(p[vFrom:vTo])
				e.mark, e.odd = e.mark || mark, e.odd || odd
			}
		}
		i = next
	}
}

// scanValue reports, in one pass over an attribute value, whether it
// mentions a comment or a citation (as comment markers do), whatever the
// case, and whether it holds a character reference, a NUL or a CR, which
// the tokenizer rewrites.
func scanValue(v []byte) (mark, odd bool) {
	for i, c := range v {
		switch valueBytes[c] {
		case vOdd:
			odd = true
		case vC:
			mark = mark || hasPrefixFold(v[i:], "comment") || hasPrefixFold(v[i:], "cite")
		}
	}
	return mark, odd
}

// Classes of bytes in attribute values, for scanValue.
const (
	vPlain = iota
	vOdd
	vC
)

// valueBytes classes the bytes of attribute values.
var valueBytes = [256]uint8{'&': vOdd, 0: vOdd, '\r': vOdd, 'c': vC, 'C': vC}

// attrSpan returns the end of the key of the attribute at p[i] (its key
// is p[i:keyEnd]), its value's range (-1, -1 when it has none) and the
// offset after it; next is -1 when the page ends inside it.
func attrSpan(p []byte, i int) (keyEnd, vFrom, vTo, next int) {
	keyEnd = i + 1 // the key's first byte may be '='
	for keyEnd < len(p) && !keyEnds[p[keyEnd]] {
		keyEnd++
	}
	if i >= len(p) || tagDelim(p[i]) {
		keyEnd = i // no key: stop where the tokenizer does
	}
	j := skipSpace(p, keyEnd)
	if j >= len(p) || p[j] != '=' {
		return keyEnd, -1, -1, keyEnd
	}
	j = skipSpace(p, j+1)
	if j >= len(p) {
		return keyEnd, -1, -1, -1
	}
	switch q := p[j]; q {
	case '"', '\'':
		e := bytes.IndexByte(p[j+1:], q)
		if e < 0 {
			return keyEnd, -1, -1, -1
		}
		return keyEnd, j + 1, j + 1 + e, j + e + 2
	}
	e := j
	for e < len(p) && p[e] != '>' && !isHTMLSpace(p[e]) {
		e++
	}
	return keyEnd, j, e, e
}

// keyEnds are the bytes that end an attribute's key after its first:
// tagDelim's and '='.
var keyEnds = [256]bool{' ': true, '>': true, '/': true, '\t': true, '\n': true, '\r': true, '\f': true, '=': true}

// top returns the index of the current element, or -1.
func (o *outline) top() int {
	if len(o.stack) == 0 {
		return -1
	}
	return o.stack[len(o.stack)-1]
}

// topName returns the name of the current element, or "".
func (o *outline) topName() string {
	if t := o.top(); t >= 0 {
		return o.els[t].name
	}
	return ""
}

// pop closes the current element, which ends at end (-1: implied).
func (o *outline) pop(end int) {
	t := o.top()
	o.els[t].to = end
	o.stack = o.stack[:len(o.stack)-1]
	switch o.els[t].name {
	case "p":
		o.openP--
	case "svg", "math":
		o.foreign--
	case "select":
		o.selects--
	}
}

// startTag reads the start tag at lt.
func (o *outline) startTag(lt int) int {
	name, flags, a, i := o.tagName(lt + 1)
	e := olElem{name: name, from: lt, to: -1, parent: -1, id: [2]int32{-1, -1}, class: [2]int32{-1, -1}, itemtype: [2]int32{-1, -1}, flags: flags, atom: a}
	end, selfClosing := o.attrs(&e, i)
	if !o.ok {
		return len(o.page)
	}
	e.tagEnd = end
	o.pos = lt
	o.inBody = o.inBody || name == "body" || e.flags&fHead == 0 && name != "html" && name != "head"
	switch name {
	case "html", "head", "body":
		o.frameTag(name, lt)
		return end
	}
	if o.foreign > 0 {
		return o.foreignStart(e, selfClosing)
	}
	if !o.implyEnds(name, e.flags) || o.resume > 0 {
		if o.resume > 0 {
			return o.resumed()
		}
		return len(o.page)
	}
	e.parent = o.top()
	o.els = append(o.els, e)
	k := len(o.els) - 1
	if o.b != nil {
		if name == "svg" {
			o.fail() // foreign names and attributes are adjusted
			return len(o.page)
		}
		o.buildElementNode(k)
	}
	o.formPointer = o.formPointer || name == "form"
	if name == "select" {
		o.selects++
	}
	switch {
	case flags&fVoid != 0 || name == "svg" && selfClosing:
		o.els[k].to = end
		return end
	case name == "svg":
		o.foreign++
	case flags&fHidden != 0:
		return o.rawText(k, end)
	}
	o.push(k)
	return end
}

// push opens element k.
func (o *outline) push(k int) {
	o.stack = append(o.stack, k)
	if o.els[k].name == "p" {
		o.openP++
	}
}

// frameTag reads an html, head or body start tag at lt: the outline
// does not list them, and follows no more when one comes inside elements.
func (o *outline) frameTag(name string, lt int) {
	if o.foreign > 0 || len(o.stack) > 0 {
		o.fail()
	}
	if name == "body" && o.bodyAt < 0 {
		o.bodyAt = lt
	}
}

// rawText reads the content of raw-text element k, whose start tag ends
// at end, up to its end tag, and returns the offset after it.
func (o *outline) rawText(k, end int) int {
	name := o.els[k].name
	if name == "plaintext" {
		o.fail()
		return len(o.page)
	}
	closer, found := endTagFold(o.page, end, name) // "</" + name, whatever its case
	close := len(o.page)
	if found {
		close = closer + 2 + len(name)
	}
	if name == "script" && doubleEscaped(o.page[end:close]) {
		o.fail() // the tokenizer reads on past this end tag
	}
	if o.b != nil {
		if !found {
			o.fail()
			return len(o.page)
		}
		o.buildRawText(k, o.page[end:closer])
	}
	o.els[k].to = skipTo(o.page, close, '>')
	return o.els[k].to
}

// endTagFold returns the offset of the first "</" followed by name
// (lower-case), whatever its case, and a byte that may end a tag name, at
// or after from in b: the tokenizer ends raw text there only ("</script0"
// does not end a script).
func endTagFold(b []byte, from int, name string) (int, bool) {
	for i := from; ; {
		j := bytes.IndexByte(b[i:], '<')
		if j < 0 {
			return 0, false
		}
		lt := i + j
		if after := lt + 2 + len(name); after < len(b) && b[lt+1] == '/' && hasPrefixFold(b[lt+2:], name) && tagDelim(b[after]) {
			return lt, true
		}
		i = lt + 1
	}
}

// doubleEscaped reports whether script text may hold "<!--" followed by
// "<script" (whatever its case), in which the tokenizer does not end the
// script at the next "</script".
func doubleEscaped(text []byte) bool {
	i := bytes.Index(text, []byte("<!--"))
	if i < 0 {
		return false
	}
	for text = text[i:]; ; {
		j := bytes.IndexByte(text, '<')
		if j < 0 {
			return false
		}
		if hasPrefixFold(text[j+1:], "script") {
			return true
		}
		text = text[j+1:]
	}
}

// inTable handles a start tag met where a table part is the current
// element: cells and rows close their open siblings; anything else would
// be moved out of the table.
func (o *outline) inTable(name string) bool {
	switch name {
	case "tr":
		o.popWhile("tr")
	case "tbody", "thead", "tfoot":
		o.popWhile("tr", "tbody", "thead", "tfoot")
	case "td", "th":
		if o.topName() == "table" {
			o.implied("tbody", o.pos)
		}
		if t := o.topName(); t == "tbody" || t == "thead" || t == "tfoot" {
			o.implied("tr", o.pos) // the parser adds a tr
		}
	case "script", "style", "table":
		if name == "table" {
			o.fail()
		}
	default:
		o.fail()
	}
	if name == "tr" && o.topName() == "table" {
		o.implied("tbody", o.pos) // the parser adds a tbody
	}
	return o.ok
}

// closeA closes an open a element before another starts, as the
// parser's adoption agency does when only ordinary elements lie above it.
func (o *outline) closeA() {
	k := o.open("a")
	if k < 0 {
		return
	}
	for _, j := range o.stack[k+1:] {
		if o.has(j, fFormatting|fScopeStop) {
			o.fail()
			return
		}
	}
	for _, j := range o.stack[k+1:] {
		if o.has(j, fSpecial) {
			o.skipAround(k) // the adoption agency moves elements
			return
		}
	}
	o.closeTo(k, -1)
}

// closeCell closes the open table cell, when there is one in table scope.
func (o *outline) closeCell() {
	for k := len(o.stack) - 1; k >= 0; k-- {
		switch o.els[o.stack[k]].name {
		case "td", "th":
			o.closeTo(k, -1)
			return
		case "table", "html":
			return
		}
	}
}

// inSelect handles a start tag inside a select element: options and
// groups close the open option (and group); anything else is not
// followed.
func (o *outline) inSelect(name string) bool {
	switch name {
	case "option":
		o.popWhile("option")
	case "optgroup":
		o.popWhile("option", "optgroup")
	default:
		o.fail()
	}
	return o.ok
}

// implied opens an element the parser adds without a tag, at offset at.
func (o *outline) implied(name string, at int) {
	o.els = append(o.els, olElem{name: name, from: at, tagEnd: at, to: -1, parent: o.top(), id: [2]int32{-1, -1}, class: [2]int32{-1, -1}, itemtype: [2]int32{-1, -1}, flags: tagFlagMap[name], atom: atom.Lookup([]byte(name))})
	if o.b != nil {
		o.buildElementNode(len(o.els) - 1)
	}
	o.push(len(o.els) - 1)
}

// popWhile closes the current element while its name is one of names.
func (o *outline) popWhile(names ...string) {
	for {
		t := o.topName()
		found := false
		for _, n := range names {
			found = found || t == n
		}
		if !found {
			return
		}
		o.pop(-1)
	}
}

// open returns the stack position of the innermost open element name, or
// -1.
func (o *outline) open(name string) int {
	for k := len(o.stack) - 1; k >= 0; k-- {
		if o.els[o.stack[k]].name == name {
			return k
		}
	}
	return -1
}

// closeP closes an open p element in button scope.
func (o *outline) closeP() {
	if k := o.inScope("p", "button"); k >= 0 {
		o.closeTo(k, -1)
	}
}

// closeListItem closes the open li (or dd, dt) that a new one ends, as
// the parser does: the innermost one, unless a special element other
// than address, div and p lies above it.
func (o *outline) closeListItem(name string) {
	for k := len(o.stack) - 1; k >= 0; k-- {
		n := o.els[o.stack[k]].name
		if n == name || name != "li" && (n == "dd" || n == "dt") {
			o.closeTo(k, -1)
			return
		}
		if o.has(o.stack[k], fSpecial) && n != "address" && n != "div" && n != "p" {
			return
		}
	}
}

// endTag reads the end tag at lt.
func (o *outline) endTag(lt int) int {
	if end, ok := o.endCurrent(lt); ok {
		return end
	}
	name, flags, _, i := o.tagName(lt + 2)
	end, closed := endTagClose(o.page, i)
	if !o.ok || !closed {
		return len(o.page) // an end tag cut by the end of the page is dropped, as the tokenizer drops it
	}
	if o.foreign > 0 && name != o.topName() || o.top() >= 0 && o.has(o.top(), fTablePart) && flags&fTablePart == 0 && name != "td" && name != "th" ||
		o.selects > 0 && name != "select" && name != "option" && name != "optgroup" {
		o.fail() // foreign content, table and select modes
		return len(o.page)
	}
	switch name {
	case "html", "head":
		return end
	case "body":
		if len(o.stack) > 0 {
			o.fail() // what follows may go elsewhere than into the open elements
		}
		return end
	case "form":
		return o.endForm(end)
	case "p", "br":
		if name == "br" || o.inScope("p", "button") < 0 {
			if !o.inBody {
				o.fail()
				return len(o.page)
			}
			o.implied(name, lt) // the parser inserts an empty element
			o.pop(end)
			return end
		}
	}
	if isHeadingName(name) && o.innerHeading() != name {
		o.fail() // closes another heading, or none
		return len(o.page)
	}
	k := o.open(name)
	if k < 0 {
		return end // ignored by the parser
	}
	if o.foreign == 0 && !o.closable(name, flags, k) {
		if o.resume > 0 {
			return o.resumed()
		}
		if o.ok {
			return end // ignored by the parser
		}
		return len(o.page)
	}
	o.closeTo(k, end)
	if !o.ok {
		return len(o.page)
	}
	return end
}

// endCurrent reads the end tag at lt when it is the current element's,
// the commonest case, and returns the offset after it; false otherwise.
func (o *outline) endCurrent(lt int) (int, bool) {
	t := o.top()
	if t < 0 || o.selects > 0 {
		return 0, false
	}
	name, p := o.els[t].name, o.page
	i := lt + 2 + len(name)
	if i >= len(p) || p[i] == 0 || nameBytes[p[i]] != nEnd || name == "form" || !hasPrefixFold(p[lt+2:], name) {
		return 0, false
	}
	end, closed := endTagClose(p, i)
	if !closed {
		return len(p), true // cut by the end of the page: dropped
	}
	o.pop(end)
	return end, true
}

// endTagClose returns the offset just past the '>' that ends the end tag
// whose name ends at i, and false when the page ends first (the tokenizer
// then drops the tag).
func endTagClose(p []byte, i int) (int, bool) {
	k := bytes.IndexByte(p[i:], '>')
	if k < 0 {
		return len(p), false
	}
	return i + k + 1, true
}

// innerHeading returns the name of the innermost open h1 … h6, or "".
func (o *outline) innerHeading() string {
	for k := len(o.stack) - 1; k >= 0; k-- {
		if n := o.els[o.stack[k]].name; isHeadingName(n) {
			return n
		}
	}
	return ""
}

// endForm reads </form>: the parser takes the form out of the stack
// without closing the elements open in it, which the outline follows
// only when the form is the current element.
func (o *outline) endForm(end int) int {
	o.formPointer = false
	if o.open("form") < 0 {
		return end
	}
	if o.topName() != "form" {
		o.fail()
		return len(o.page)
	}
	o.pop(end)
	return end
}

// closable reports whether the end tag of name closes the open element
// at stack position k: false when the parser ignores it (the outline
// then stays ok) or when the outline cannot follow what it does.
func (o *outline) closable(name string, flags uint16, k int) bool {
	above := o.stack[k+1:]
	switch {
	case flags&fFormatting != 0:
		for _, j := range above {
			if o.has(j, fSpecial|fFormatting) {
				o.fail() // the adoption agency moves elements
				return false
			}
		}
	case flags&fSpecial != 0:
		scope := o.inScope(name)
		if name == "li" {
			scope = o.inScope(name, "ol", "ul")
		}
		if scope < 0 && flags&fTablePart == 0 {
			o.fail()
			return false
		}
	default:
		for _, j := range above {
			if o.has(j, fSpecial) {
				return false
			}
		}
	}
	return true
}

// outlineDebug, when set by a test, is called when an outline gives up.
var outlineDebug func(*outline)

// resumed returns where to go on after skipAround, clearing it.
func (o *outline) resumed() int {
	r := o.resume
	o.resume = 0
	return r
}

// closeFrom returns the offset just past the end tag that closes depth
// open elements named name, reading from offset from: start and end tags
// of that name are counted, comments and raw text skipped.
func (o *outline) closeFrom(name string, depth, from int) (int, bool) {
	b := o.lowered()
	lt, ok := matchingEnd(b, name, depth, from, func(lt int) int { return hiddenEnd(b, lt) })
	if !ok {
		return 0, false
	}
	return skipTo(b, lt, '>'), true
}

// implyEnds closes the elements a start tag of name implicitly ends, as
// html.Parse does, and reports false when it cannot follow the parser.
func (o *outline) implyEnds(name string, flags uint16) bool {
	if name == "a" {
		if o.closeA(); o.resume > 0 {
			return true
		}
	}
	if flags&fUnfollowed != 0 || name == "form" && o.formPointer ||
		name == "button" && o.inScope("button") >= 0 || name == "table" && o.inScope("p", "button") >= 0 {
		o.fail() // nested a, form or button; a table after a p (quirks mode keeps the p open)
		return false
	}
	if o.selects > 0 {
		return o.inSelect(name)
	}
	switch name {
	case "td", "th", "tr", "tbody", "thead", "tfoot":
		o.closeCell()
	}
	if t := o.top(); t >= 0 && o.has(t, fTablePart) {
		return o.inTable(name)
	}
	switch name {
	case "td", "th", "tr", "tbody", "thead", "tfoot":
		o.fail() // table parts outside a table
		return false
	case "li", "dd", "dt":
		o.closeListItem(name)
	case "option", "optgroup":
		o.popWhile("option")
	}
	if flags&fClosesP != 0 {
		o.closeP()
	}
	if isHeadingName(name) && isHeadingName(o.topName()) {
		o.pop(-1)
	}
	return o.ok
}

// inScope returns the stack position of name when it is open in scope
// (bounded by scopeStop and by extra), else -1.
func (o *outline) inScope(name string, extra ...string) int {
	if name == "p" && o.openP == 0 {
		return -1
	}
	for k := len(o.stack) - 1; k >= 0; k-- {
		n := o.els[o.stack[k]].name
		if n == name {
			return k
		}
		if o.has(o.stack[k], fScopeStop) {
			return -1
		}
		for _, x := range extra {
			if n == x {
				return -1
			}
		}
	}
	return -1
}

// closeTo closes the elements down to stack position k included; the
// last ends at end. The parser keeps formatting elements closed this way
// to open them again later, which the outline does not follow.
func (o *outline) closeTo(k, end int) {
	for len(o.stack)-1 > k {
		if o.has(o.top(), fFormatting) {
			o.fail()
			return
		}
		o.pop(-1)
	}
	o.pop(end)
}

// fail marks the outline unusable.
func (o *outline) fail() {
	if o.ok && outlineDebug != nil {
		outlineDebug(o)
	}
	o.ok = false
}

// foreignStart handles a start tag inside SVG or MathML: elements nest
// until their end tag unless they close themselves; HTML elements that
// break out of foreign content are not followed.
func (o *outline) foreignStart(e olElem, selfClosing bool) int {
	if o.b != nil || breakout[e.name] || e.name == "foreignobject" || e.name == "annotation-xml" || e.name == "desc" || e.name == "title" {
		o.fail()
		return len(o.page)
	}
	e.parent = o.top()
	e.foreign = true
	o.els = append(o.els, e)
	k := len(o.els) - 1
	if selfClosing {
		o.els[k].to = e.tagEnd
		return e.tagEnd
	}
	if e.name == "svg" || e.name == "math" {
		o.foreign++
	}
	o.push(k)
	return e.tagEnd
}

// isHeadingName reports whether name is h1 … h6.
func isHeadingName(name string) bool {
	return len(name) == 2 && name[0] == 'h' && name[1] >= '1' && name[1] <= '6'
}

// skipAround handles an a element opened in another whose tree the
// parser's adoption agency builds: the parent of the outer a, at stack
// position k, becomes opaque — its extent is known, its elements are not
// listed — and reading goes on after its end. It fails when that parent
// cannot be skipped reliably: formatting elements left open in it would
// be opened again after it.
func (o *outline) skipAround(k int) {
	if k < 1 || o.b != nil || o.foreign > 0 || o.selects > 0 {
		o.fail()
		return
	}
	p := o.stack[k-1]
	e := &o.els[p]
	if e.from == e.tagEnd || o.has(p, fFormatting|fTablePart|fScopeStop) || implicitEnd[e.name] {
		o.fail()
		return
	}
	depth := 0
	for _, j := range o.stack[k-1:] {
		if o.els[j].name == e.name {
			depth++
		}
	}
	end, ok := o.closeFrom(e.name, depth, o.pos)
	if !ok || bytes.Contains(o.lowered()[e.tagEnd:end], []byte("<form")) || !o.balanced(e.tagEnd, end) {
		o.fail()
		return
	}
	o.els = o.els[:p+1]
	o.stack = o.stack[:k]
	o.openP = 0
	for _, j := range o.stack {
		if o.els[j].name == "p" {
			o.openP++
		}
	}
	e.opaque = true
	o.pop(end)
	o.resume = end
}

// balanced reports whether the formatting elements started in
// lower[from:to] are as many as those ended there, name by name, comments
// and raw text aside.
func (o *outline) balanced(from, to int) bool {
	count := map[string]int{}
	b := o.lowered()[:to]
	for i := from; ; {
		j := bytes.IndexByte(b[i:], '<')
		if j < 0 {
			break
		}
		lt := i + j
		if h := hiddenEnd(b, lt); h > 0 {
			i = h
			continue
		}
		i = lt + 1
		closing := lt+1 < len(b) && b[lt+1] == '/'
		start := lt + 1
		if closing {
			start++
		}
		if start >= len(b) || !isASCIILetter(b[start]) {
			continue
		}
		name, flags, _, _ := o.tagName(start)
		if flags&fFormatting == 0 {
			continue
		}
		if closing {
			count[name]--
		} else {
			count[name]++
		}
	}
	for _, c := range count {
		if c != 0 {
			return false
		}
	}
	return true
}
