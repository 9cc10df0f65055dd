package mets

import (
	"bytes"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/beevik/etree"
)

// The document Marshal writes is built as a tree of nodes in one arena
// (tree) and written in one pass, indented as etree's
// IndentWithSettings(Spaces 2, PreserveLeafWhitespace) and WriteTo write
// it: the bytes are etree's to the letter (TestMarshalIsEtrees compares
// the two on documents with every part present, text that needs
// escaping, invalid characters, parsed XML with comments, CDATA and
// whitespace). Building an etree document (an allocation per element,
// attribute and text, two more per element for the indentation, the tag
// joined anew at each write) was most of the METS's share of a crawl's
// CPU and a tenth of the bytes it allocated.

// nodeKind is what a node of the tree is.
type nodeKind uint8

const (
	kindElement nodeKind = iota // an element: name, attributes, children
	kindText                    // character data, escaped when written
	kindRaw                     // another token already written as XML (a parsed comment, processing instruction or directive)
)

// none is the index of no node or attribute.
const none = -1

// node is an element or token of the tree. Children and attributes are
// linked lists of indexes into the tree's arenas, so that a child or
// attribute can be added to any element at any time, in document order.
// An element's name is kept as etree keeps it, prefix and local name
// apart: a name given to CreateElement is split at its first colon, a
// parsed one is taken as encoding/xml split it (":a" is no prefix and the
// local name ":a"), and written joined again with a colon.
type node struct {
	kind              nodeKind
	ws                bool   // kindText parsed from whitespace only: indentation, stripped as etree strips it
	space             string // the element's prefix (etree's Space), "" for none
	name              string // the element's local name (etree's Tag), or the token's data
	firstAttr         int32
	lastAttr          int32
	firstKid, lastKid int32
	next              int32 // the next sibling
}

// attr is one attribute of an element, its name kept as an element's
// is: prefix (etree's Space) and local name (etree's Key) apart.
type attr struct {
	space, name, value string
	next               int32
}

// tree is the arena of one document's nodes and attributes.
type tree struct {
	nodes []node
	attrs []attr
	// rootSpace and rootName are the document element's, which Marshal
	// writes around the sections it builds one at a time.
	rootSpace, rootName string
	// stampSec and stampStr are the last time tree.stamp formatted (its
	// Unix second) and its text, when stampOK.
	stampSec int64
	stampStr string
	stampOK  bool
}

// trees keeps arenas for reuse across documents: a crawl writes documents
// of like sizes one after another, some at once.
var trees = sync.Pool{New: func() any { return new(tree) }}

// newTree returns an empty tree from the pool.
func newTree() *tree {
	t := trees.Get().(*tree)
	t.nodes, t.attrs = t.nodes[:0], t.attrs[:0]
	return t
}

// release returns t to the pool, dropping its strings.
func (t *tree) release() {
	clear(t.nodes)
	clear(t.attrs)
	trees.Put(t)
}

// el is an element of a tree, as etree's *Element is of a document.
type el struct {
	t *tree
	i int32
}

// newNode returns a node of kind, prefix space and name (or data), with
// no attributes, children or next sibling.
func newNode(kind nodeKind, space, name string) node {
	return node{kind: kind, space: space, name: name, firstAttr: none, lastAttr: none, firstKid: none, lastKid: none, next: none}
}

// add appends a node of kind and name as the last child of parent (none
// for the document itself) and returns its index. An element's name is
// split at its first colon into prefix and local name, as etree's
// CreateElement splits it.
func (t *tree) add(parent int32, kind nodeKind, name string) int32 {
	space := ""
	if kind == kindElement {
		space, name = splitName(name)
	}
	return t.insert(parent, newNode(kind, space, name))
}

// insert appends n as the last child of parent (none for the document
// itself) and returns its index.
func (t *tree) insert(parent int32, n node) int32 {
	i := int32(len(t.nodes))
	t.nodes = append(t.nodes, n)
	if parent != none {
		p := &t.nodes[parent]
		if p.lastKid == none {
			p.firstKid = i
		} else {
			t.nodes[p.lastKid].next = i
		}
		p.lastKid = i
	}
	return i
}

// CreateElement adds a child element named name to e and returns it.
func (e el) CreateElement(name string) el {
	return el{e.t, e.t.add(e.i, kindElement, name)}
}

// CreateAttr sets the attribute name of e to value, replacing the value
// of an attribute of the same prefix and local name as etree does (name
// split at its first colon: ":a" is "a", but ":a:b" is not "a:b").
func (e el) CreateAttr(name, value string) {
	t := e.t
	space, local := splitName(name)
	for a := t.nodes[e.i].firstAttr; a != none; a = t.attrs[a].next {
		if t.attrs[a].space == space && t.attrs[a].name == local {
			t.attrs[a].value = value
			return
		}
	}
	e.appendAttr(space, local, value)
}

// appendAttr adds the attribute of prefix space, local name name and
// value as the last of e's attributes, whatever attributes e has already.
func (e el) appendAttr(space, name, value string) {
	t := e.t
	n := &t.nodes[e.i]
	i := int32(len(t.attrs))
	t.attrs = append(t.attrs, attr{space: space, name: name, value: value, next: none})
	if n.lastAttr == none {
		n.firstAttr = i
	} else {
		t.attrs[n.lastAttr].next = i
	}
	n.lastAttr = i
}

// SetText adds text as e's character data, which must come before any
// child element (as everywhere in this package); nothing when text is
// empty, as etree's SetText on a new element.
func (e el) SetText(text string) el {
	if text != "" {
		e.t.add(e.i, kindText, text)
	}
	return e
}

// addElement adds x and its descendants as a child of e.
func (e el) addElement(x *Element) {
	c := e.CreateElement(x.Name)
	for _, a := range x.Attrs {
		c.CreateAttr(a.Name, a.Value)
	}
	c.SetText(x.Text)
	for _, k := range x.Children {
		c.addElement(k)
	}
}

// addParsed adds x, an element etree parsed, and its tokens as a child of
// e: elements and text as nodes, the rest as the XML etree writes for it.
// Names are taken split as etree holds them, not joined and split again
// (encoding/xml gives ":a" no prefix and the local name ":a"), and the
// attributes as they are: etree has merged duplicates already, by prefix
// and local name.
func (e el) addParsed(x *etree.Element) {
	c := el{e.t, e.t.insert(e.i, newNode(kindElement, x.Space, x.Tag))}
	for _, a := range x.Attr {
		c.appendAttr(a.Space, a.Key, a.Value)
	}
	var raw bytes.Buffer
	for _, tok := range x.Child {
		switch tok := tok.(type) {
		case *etree.Element:
			c.addParsed(tok)
			continue
		case *etree.CharData: // CDATA sections too: etree's default read settings keep their text only
			c.t.add(c.i, kindText, tok.Data)
			c.t.nodes[len(c.t.nodes)-1].ws = tok.IsWhitespace()
			continue
		}
		raw.Reset()
		tok.WriteTo(&raw, &etree.WriteSettings{})
		c.t.add(c.i, kindRaw, raw.String())
	}
}

// splitName splits a name at its first colon into prefix and local part.
func splitName(s string) (space, local string) {
	if i := strings.IndexByte(s, ':'); i >= 0 {
		return s[:i], s[i+1:]
	}
	return "", s
}

// writeName writes the name of prefix space and local name as etree
// writes it (FullTag, FullKey): joined with a colon, or the local name
// alone when the prefix is empty.
func writeName(b *bytes.Buffer, space, local string) {
	if space != "" {
		b.WriteString(space)
		b.WriteByte(':')
	}
	b.WriteString(local)
}

// writeDocument writes the XML declaration and the root element root,
// indented, to b.
func (t *tree) writeDocument(b *bytes.Buffer, root int32) {
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>`)
	// The document's children at depth 0: no indentation before the
	// declaration, a newline before the root and one after it.
	b.WriteByte('\n')
	t.write(b, root, 1)
	b.WriteByte('\n')
}

// write writes node i, whose children are at indentation depth (1 for
// the root's), to b. Below the document, etree's indent puts a newline
// and the depth's spaces before every child that is not text, and one of
// the depth above before the end tag when the last child is not text.
func (t *tree) write(b *bytes.Buffer, i int32, depth int) {
	n := &t.nodes[i]
	switch n.kind {
	case kindText:
		escape(b, n.name)
		return
	case kindRaw:
		b.WriteString(n.name)
		return
	}
	t.writeStart(b, i)
	strip := t.stripsIndent(i)
	open, lastText := false, false
	for c := n.firstKid; c != none; c = t.nodes[c].next {
		if strip && t.nodes[c].ws {
			continue
		}
		if !open {
			b.WriteByte('>')
			open = true
		}
		if lastText = t.nodes[c].kind == kindText; !lastText {
			indent(b, depth)
		}
		t.write(b, c, depth+1)
	}
	if !open {
		b.WriteString("/>")
		return
	}
	if !lastText {
		indent(b, depth-1)
	}
	b.WriteString("</")
	writeName(b, n.space, n.name)
	b.WriteByte('>')
}

// writeStart writes the start tag of element i, without its closing '>'.
func (t *tree) writeStart(b *bytes.Buffer, i int32) {
	n := &t.nodes[i]
	b.WriteByte('<')
	writeName(b, n.space, n.name)
	for a := n.firstAttr; a != none; a = t.attrs[a].next {
		b.WriteByte(' ')
		writeName(b, t.attrs[a].space, t.attrs[a].name)
		b.WriteString(`="`)
		escape(b, t.attrs[a].value)
		b.WriteByte('"')
	}
}

// stripsIndent reports whether the whitespace-only text children of
// element i are dropped, as etree's stripIndent drops them: unless there
// are none, or it is the element's only child (PreserveLeafWhitespace).
func (t *tree) stripsIndent(i int32) bool {
	kids, ws := 0, 0
	for c := t.nodes[i].firstKid; c != none; c = t.nodes[c].next {
		kids++
		if t.nodes[c].ws {
			ws++
		}
	}
	return ws > 0 && !(ws == 1 && kids == 1)
}

// indent writes a newline and two spaces per depth (none below 0).
func indent(b *bytes.Buffer, depth int) {
	b.WriteByte('\n')
	for ; depth > 0; depth-- {
		b.WriteString("  ")
	}
}

// escape writes s to b escaped as etree escapes text and attribute values
// (escapeNormal): & < > ' " as entities, each character XML cannot hold
// and each byte that is not UTF-8 as U+FFFD.
func escape(b *bytes.Buffer, s string) {
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < utf8.RuneSelf && c != '&' && c != '<' && c != '>' && c != '\'' && c != '"' {
			i++
			continue
		}
		r, width := utf8.DecodeRuneInString(s[i:])
		i += width
		var esc string
		switch r {
		case '&':
			esc = "&amp;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '\'':
			esc = "&apos;"
		case '"':
			esc = "&quot;"
		case '\t', '\n', '\r':
			continue
		default:
			if !inCharacterRange(r) || (r == utf8.RuneError && width == 1) {
				esc = "\uFFFD"
				break
			}
			continue
		}
		b.WriteString(s[last : i-width])
		b.WriteString(esc)
		last = i
	}
	b.WriteString(s[last:])
}

// inCharacterRange reports whether XML 1.0 can hold r.
func inCharacterRange(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}
