package learn

import (
	"bytes"
	"strings"
	"sync"

	"golang.org/x/net/html"
)

// This file builds the tree of one element from its bytes with the
// outline's reading of markup (outline.go), adding the text, comments and
// attributes the outline skips: what html.ParseFragment builds in a body,
// in one pass and without its tokenizer. Whenever the outline gives up,
// or the element holds what the builder does not follow (SVG, text
// outside table cells, bogus comments), the caller parses instead.

// treeBuilder holds the nodes of a tree being built.
type treeBuilder struct {
	nodes []*html.Node // by outline element
	top   []*html.Node // nodes outside any element
	slab  []html.Node  // where new nodes are taken from: one allocation for many nodes
	arena *nodeArena   // where they are taken from instead, when set

	attrs    []html.Attribute // the attributes of the start tag last read (attr)
	tokenize bool             // that tag must be read by the tokenizer
}

// attr adds the attribute of the start tag being read whose key is
// p[i:keyEnd] and whose value is p[vFrom:vTo] (none when vFrom < 0), as
// attrAt reads it; what attrAt would not read sets tokenize.
func (tb *treeBuilder) attr(p []byte, i, keyEnd, vFrom, vTo int) {
	key := p[i:keyEnd]
	if bytes.IndexByte(key, 0) >= 0 {
		tb.tokenize = true
		return
	}
	a := html.Attribute{Key: lowerString(key)}
	if vFrom >= 0 {
		val := p[vFrom:vTo]
		if bytes.IndexByte(val, 0) >= 0 || bytes.IndexByte(val, '\r') >= 0 {
			tb.tokenize = true
			return
		}
		a.Val = string(val)
		if bytes.IndexByte(val, '&') >= 0 {
			if !plainRefs(val) {
				tb.tokenize = true
				return
			}
			a.Val = html.UnescapeString(a.Val)
		}
	}
	tb.attrs = append(tb.attrs, a)
}

// tagAttrs returns the attributes of the start tag last read, nil when
// it has none; false when the tokenizer must read it.
func (tb *treeBuilder) tagAttrs() ([]html.Attribute, bool) {
	if tb.tokenize {
		return nil, false
	}
	if len(tb.attrs) == 0 {
		return nil, true
	}
	return tb.arena.copyAttrs(tb.attrs), true
}

// newNode returns a node of type t with data d, taken from the arena or
// the slab.
func (tb *treeBuilder) newNode(t html.NodeType, d string) *html.Node {
	if tb.arena != nil {
		n := tb.arena.node()
		n.Type, n.Data = t, d
		return n
	}
	if len(tb.slab) == cap(tb.slab) {
		tb.slab = make([]html.Node, 0, 64)
	}
	tb.slab = tb.slab[:len(tb.slab)+1]
	n := &tb.slab[len(tb.slab)-1]
	n.Type, n.Data = t, d
	return n
}

// buildBuffers are the slices of a build, reused between builds.
type buildBuffers struct {
	els   []olElem
	stack []int
	nodes []*html.Node
	attrs []html.Attribute
}

// buildPool holds buildBuffers for reuse.
var buildPool = sync.Pool{New: func() any { return &buildBuffers{els: make([]olElem, 0, 256)} }}

// buildElement builds the element whose bytes (start tag to end tag) are
// b; false when it cannot.
func buildElement(b []byte) (*html.Node, bool) { return buildElementIn(b, nil) }

// buildElementIn is buildElement taking the nodes from arena, when not
// nil: they are valid until the arena is reset.
func buildElementIn(b []byte, arena *nodeArena) (*html.Node, bool) {
	buf := buildPool.Get().(*buildBuffers)
	defer func() {
		clear(buf.nodes)
		clear(buf.attrs[:cap(buf.attrs)])
		buf.els, buf.stack, buf.nodes, buf.attrs = buf.els[:0], buf.stack[:0], buf.nodes[:0], buf.attrs[:0]
		buildPool.Put(buf)
	}()
	o := &outline{page: b, ok: true, els: buf.els, stack: buf.stack, bodyAt: -1, inBody: true,
		b: &treeBuilder{nodes: buf.nodes, arena: arena, attrs: buf.attrs}}
	if arena == nil {
		o.b.slab = make([]html.Node, 0, min(max(len(b)/96, 8), 256))
	}
	defer func() { buf.els, buf.stack, buf.nodes, buf.attrs = o.els, o.stack, o.b.nodes, o.b.attrs }()
	textStart := 0
	for i := 0; o.ok; {
		j := bytes.IndexByte(b[i:], '<')
		if j < 0 {
			break
		}
		lt := i + j
		if !markupAt(b, lt) {
			i = lt + 1
			continue
		}
		o.text(b[textStart:lt])
		i = o.buildMarkup(lt)
		textStart = i
	}
	o.text(b[textStart:])
	if !o.ok || len(o.b.top) != 1 || o.b.top[0].Type != html.ElementNode {
		return nil, false
	}
	return o.b.top[0], true
}

// markupAt reports whether the '<' at b[lt] starts markup rather than
// text.
func markupAt(b []byte, lt int) bool {
	if lt+1 >= len(b) {
		return false
	}
	c := b[lt+1]
	return c == '!' || c == '?' || c == '/' || isASCIILetter(c)
}

// buildMarkup reads markup like markup, building comments; it gives up on
// the markup that becomes bogus comments.
func (o *outline) buildMarkup(lt int) int {
	b := o.page
	switch {
	case bytes.HasPrefix(b[lt:], []byte("<!--")):
		end := o.markup(lt)
		data := ""
		if end-lt > 6 {
			if !bytes.HasSuffix(b[:end], []byte("-->")) {
				o.fail() // a comment to the end of the page
				return len(b)
			}
			raw := o.page[lt+4 : end-3]
			if bytes.IndexByte(raw, 0) >= 0 {
				o.fail()
				return len(b)
			}
			data = decodeText(raw, true) // the tokenizer unescapes comments too
		}
		o.appendNode(o.b.newNode(html.CommentNode, data))
		return end
	case b[lt+1] == '!' || b[lt+1] == '?' || b[lt+1] == '/' && (lt+2 >= len(b) || !isASCIILetter(b[lt+2])):
		o.fail()
		return len(b)
	}
	return o.markup(lt)
}

// appendNode adds n as the last child of the current element.
func (o *outline) appendNode(n *html.Node) {
	if t := o.top(); t >= 0 {
		o.b.nodes[t].AppendChild(n)
		return
	}
	o.b.top = append(o.b.top, n)
}

// text adds text read between markup to the current element, as the
// parser does: newlines normalised, character references replaced, merged
// with a text node just before, a newline right after <pre> dropped.
func (o *outline) text(raw []byte) {
	if len(raw) == 0 || !o.ok || o.b == nil {
		return
	}
	if bytes.IndexByte(raw, 0) >= 0 {
		o.fail()
		return
	}
	s := decodeText(raw, true)
	t := o.top()
	if t >= 0 && (o.els[t].name == "pre" || o.els[t].name == "listing") && o.b.nodes[t].FirstChild == nil {
		s = strings.TrimPrefix(s, "\n")
	}
	if s == "" {
		return
	}
	if t < 0 || o.has(t, fTablePart) && strings.Trim(s, " \t\r\n\f") != "" {
		o.fail() // text outside the element, or moved out of a table
		return
	}
	n := o.b.nodes[t]
	if l := n.LastChild; l != nil && l.Type == html.TextNode {
		l.Data += s
		return
	}
	n.AppendChild(o.b.newNode(html.TextNode, s))
}

// decodeText converts the newlines of raw text and, when unescape is
// set, replaces its character references, as the tokenizer does.
func decodeText(raw []byte, unescape bool) string {
	s := string(raw)
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	}
	if unescape && strings.IndexByte(s, '&') >= 0 {
		s = html.UnescapeString(s)
	}
	return s
}

// buildElementNode adds the node of outline element k, the last read.
func (o *outline) buildElementNode(k int) {
	e := &o.els[k]
	n := o.b.newNode(html.ElementNode, e.name)
	n.DataAtom = e.atom
	if e.from < e.tagEnd {
		attrs, ok := o.b.tagAttrs()
		if !ok {
			var tag *html.Node
			if tag, _, ok = tokenizeStartTag(o.page, e.from); !ok {
				o.fail()
				return
			}
			attrs = tag.Attr
		}
		n.Attr = attrs
	}
	o.b.nodes = append(o.b.nodes, n)
	if e.parent >= 0 {
		o.b.nodes[e.parent].AppendChild(n)
	} else {
		o.b.top = append(o.b.top, n)
	}
}

// buildRawText adds the text of raw-text element k, whose content is
// content.
func (o *outline) buildRawText(k int, content []byte) {
	if bytes.IndexByte(content, 0) >= 0 {
		o.fail()
		return
	}
	name := o.els[k].name
	s := decodeText(content, name == "textarea" || name == "title")
	if name == "textarea" {
		s = strings.TrimPrefix(s, "\n")
	}
	if s != "" {
		o.b.nodes[k].AppendChild(o.b.newNode(html.TextNode, s))
	}
}

// nodeArena hands out nodes from chunks that are reused from one page to
// the next: the nodes of a scanner's subtrees live until it is released.
type nodeArena struct {
	chunks  [][]html.Node
	k, used int              // the chunk nodes are taken from, and how many it gave
	attrBuf []html.Attribute // where attribute lists are taken from, reused like the nodes
	attrOld [][]html.Attribute
}

// copyAttrs returns a copy of attrs taken from the arena, or a new one
// when the arena is nil.
func (a *nodeArena) copyAttrs(attrs []html.Attribute) []html.Attribute {
	if a == nil {
		return append([]html.Attribute(nil), attrs...)
	}
	out := a.attrs(len(attrs))
	copy(out, attrs)
	return out
}

// attrs returns a list of n attributes, full: appending to it copies it.
func (a *nodeArena) attrs(n int) []html.Attribute {
	if len(a.attrBuf)+n > cap(a.attrBuf) {
		if a.attrBuf != nil {
			a.attrOld = append(a.attrOld, a.attrBuf)
		}
		a.attrBuf = make([]html.Attribute, 0, max(n, arenaChunk))
	}
	k := len(a.attrBuf)
	a.attrBuf = a.attrBuf[:k+n]
	return a.attrBuf[k : k+n : k+n]
}

// arenaChunk is the number of nodes of a chunk; maxArenaChunks bounds the
// chunks kept for the next page.
const arenaChunk, maxArenaChunks = 256, 16

// node returns a zero node.
func (a *nodeArena) node() *html.Node {
	if a.k < len(a.chunks) && a.used == arenaChunk {
		a.k, a.used = a.k+1, 0
	}
	if a.k == len(a.chunks) {
		a.chunks, a.used = append(a.chunks, make([]html.Node, arenaChunk)), 0
	}
	n := &a.chunks[a.k][a.used]
	a.used++
	return n
}

// reset zeroes the nodes given out, which must no longer be used, and
// makes them available again.
func (a *nodeArena) reset() {
	for i := 0; i < len(a.chunks) && i <= a.k; i++ {
		end := arenaChunk
		if i == a.k {
			end = a.used
		}
		clear(a.chunks[i][:end])
	}
	if len(a.chunks) > maxArenaChunks {
		clear(a.chunks[maxArenaChunks:])
		a.chunks = a.chunks[:maxArenaChunks]
	}
	a.k, a.used = 0, 0
	clear(a.attrBuf)
	a.attrBuf = a.attrBuf[:0]
	clear(a.attrOld) // the last chunk is kept: pages that need more are rare
	a.attrOld = a.attrOld[:0]
}
