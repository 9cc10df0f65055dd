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
}

// buildBuffers are the slices of a build, reused between builds.
type buildBuffers struct {
	els   []olElem
	stack []int
	nodes []*html.Node
}

// buildPool holds buildBuffers for reuse.
var buildPool = sync.Pool{New: func() any { return &buildBuffers{els: make([]olElem, 0, 256)} }}

// buildElement builds the element whose bytes (start tag to end tag) are
// b, lower being b lower-cased; false when it cannot.
func buildElement(b, lower []byte) (*html.Node, bool) {
	buf := buildPool.Get().(*buildBuffers)
	defer func() {
		clear(buf.nodes)
		buf.els, buf.stack, buf.nodes = buf.els[:0], buf.stack[:0], buf.nodes[:0]
		buildPool.Put(buf)
	}()
	o := &outline{page: b, lower: lower, ok: true, els: buf.els, stack: buf.stack, bodyAt: -1, inBody: true,
		b: &treeBuilder{nodes: buf.nodes}}
	defer func() { buf.els, buf.stack, buf.nodes = o.els, o.stack, o.b.nodes }()
	textStart := 0
	for i := 0; o.ok; {
		j := bytes.IndexByte(lower[i:], '<')
		if j < 0 {
			break
		}
		lt := i + j
		if !markupAt(lower, lt) {
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

// markupAt reports whether the '<' at lower[lt] starts markup rather than
// text.
func markupAt(lower []byte, lt int) bool {
	if lt+1 >= len(lower) {
		return false
	}
	c := lower[lt+1]
	return c == '!' || c == '?' || c == '/' || isASCIILetter(c)
}

// buildMarkup reads markup like markup, building comments; it gives up on
// the markup that becomes bogus comments.
func (o *outline) buildMarkup(lt int) int {
	b := o.lower
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
		o.appendNode(&html.Node{Type: html.CommentNode, Data: data})
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
	n.AppendChild(&html.Node{Type: html.TextNode, Data: s})
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
	n := &html.Node{Type: html.ElementNode, Data: e.name, DataAtom: e.atom}
	if e.from < e.tagEnd {
		_, attrs, _, ok := tagAt(o.page, e.from)
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
		o.b.nodes[k].AppendChild(&html.Node{Type: html.TextNode, Data: s})
	}
}
