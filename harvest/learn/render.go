package learn

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
)

// This file renders the article and comment HTML. Its bytes are archived
// and hashed, so they must be exactly html.Render's: appendHTML writes the
// common nodes (text and elements) as html.Render does, with appends to a
// byte slice instead of a writer's method calls, and leaves any subtree
// holding something else (comments, doctypes, raw nodes, raw-text
// elements such as <script>, void elements with children) to html.Render.

// innerHTML renders n's children, trimmed of surrounding white space.
func innerHTML(n *html.Node) string {
	buf := getText()
	b := (*buf)[:0]
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		mark := len(b)
		var ok bool
		if b, ok = appendHTML(b, c); !ok {
			b = renderInto(b[:mark], c)
		}
	}
	s := string(bytes.TrimSpace(b))
	putText(buf, b)
	return s
}

// renderInto appends html.Render's rendering of n to b, keeping what it
// wrote before an error, as html.Render into a bytes.Buffer does.
func renderInto(b []byte, n *html.Node) []byte {
	w := bytes.NewBuffer(b)
	_ = html.Render(w, n)
	return w.Bytes()
}

// appendHTML appends the rendering of n to b, as html.Render writes it;
// it reports false, having appended part of it, when n's subtree holds a
// node it leaves to html.Render.
func appendHTML(b []byte, n *html.Node) ([]byte, bool) {
	switch {
	case n.Type == html.TextNode:
		return appendEscaped(b, n.Data), true
	case n.Type != html.ElementNode || n.Namespace == "" && literalText(n.Data):
		return b, false
	}
	b = appendStartTag(b, n)
	if voidElement(n.Data) {
		if n.FirstChild != nil {
			return b, false // html.Render reports an error here
		}
		return append(b, "/>"...), true
	}
	b = append(b, '>')
	if c := n.FirstChild; c != nil && c.Type == html.TextNode && strings.HasPrefix(c.Data, "\n") &&
		(n.Data == "pre" || n.Data == "listing" || n.Data == "textarea") {
		b = append(b, '\n') // the parser drops a first newline there
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		var ok bool
		if b, ok = appendHTML(b, c); !ok {
			return b, false
		}
	}
	b = append(b, "</"...)
	b = append(b, n.Data...)
	return append(b, '>'), true
}

// appendStartTag appends element n's start tag without its closing '>'.
func appendStartTag(b []byte, n *html.Node) []byte {
	b = append(b, '<')
	b = append(b, n.Data...)
	for _, a := range n.Attr {
		b = append(b, ' ')
		if a.Namespace != "" {
			b = append(b, a.Namespace...)
			b = append(b, ':')
		}
		b = append(b, a.Key...)
		b = append(b, `="`...)
		b = appendEscaped(b, a.Val)
		b = append(b, '"')
	}
	return b
}

// literalText reports whether the text in an HTML element named tag is
// written unescaped (html.Render's childTextNodesAreLiteral).
func literalText(tag string) bool {
	switch tag {
	case "iframe", "noembed", "noframes", "noscript", "plaintext", "script", "style", "xmp":
		return true
	}
	return false
}

// voidElement reports whether an element named tag is rendered as a
// self-closing tag (html.Render's voidElements).
func voidElement(tag string) bool {
	switch tag {
	case "area", "base", "br", "col", "embed", "hr", "img", "input", "keygen", "link", "meta", "param", "source", "track", "wbr":
		return true
	}
	return false
}

// escapes are the bytes html.Render escapes in text and attribute values,
// with their escapes.
var escapes = [256]string{'&': "&amp;", '\'': "&#39;", '<': "&lt;", '>': "&gt;", '"': "&#34;", '\r': "&#13;"}

// appendEscaped appends s escaped as html.Render escapes text. Blocks of
// 8 bytes with nothing to escape (escapeFree) are passed over at once.
func appendEscaped(b []byte, s string) []byte {
	from := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) && escapeFree(load64(s, i)) {
			i += 8
			continue
		}
		for end := min(i+8, len(s)); i < end; i++ {
			if e := escapes[s[i]]; e != "" {
				b = append(b, s[from:i]...)
				b = append(b, e...)
				from = i + 1
			}
		}
	}
	return append(b, s[from:]...)
}

// escapeFree reports whether none of the 8 bytes of x is one html.Render
// escapes: & ' < > " or \r. A byte b is & or ' when b|1 is ', < or > when
// b|2 is >; zero finds the bytes equal to one.
func escapeFree(x uint64) bool {
	const ones = 0x0101010101010101
	return zeroBytes(x|ones^0x27*ones)|zeroBytes(x|2*ones^0x3E*ones)|zeroBytes(x^0x22*ones)|zeroBytes(x^0x0D*ones) == 0
}

// zeroBytes returns the high bits of the zero bytes of y: adding 0x7F to a
// byte's low 7 bits sets its high bit unless they are all clear, with no
// carry into the next byte.
func zeroBytes(y uint64) uint64 {
	const high, low7 = 0x8080808080808080, 0x7f7f7f7f7f7f7f7f
	return ^((y&low7 + low7) | y) & high
}
