package feed

import (
	"bytes"
	"encoding/xml"
	"io"
	"slices"
	"strings"
)

// An item's raw XML is kept as a document of its own (Item.XML): an XML
// declaration, then the item, with the namespace declarations it relies on
// from the feed's root or channel copied into its start tag, so that an
// item using dc:creator or content:encoded is well-formed XML on its own.

// nsDecls returns the namespace declarations among attrs.
func nsDecls(attrs []xml.Attr) []xml.Attr {
	var out []xml.Attr
	for _, a := range attrs {
		if isNSDecl(a) {
			out = append(out, a)
		}
	}
	return out
}

func isNSDecl(a xml.Attr) bool {
	return a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns"
}

// inScope returns the declarations of scopes (outermost first) still in
// effect, the innermost of each prefix winning, minus those the item's own
// attributes make.
func inScope(scopes [][]xml.Attr, own []xml.Attr) []xml.Attr {
	seen := map[string]bool{}
	for _, a := range nsDecls(own) {
		seen[declName(a)] = true
	}
	var out []xml.Attr
	for i := len(scopes) - 1; i >= 0; i-- {
		for _, a := range scopes[i] {
			if n := declName(a); !seen[n] {
				seen[n] = true
				out = append(out, a)
			}
		}
	}
	slices.SortFunc(out, func(a, b xml.Attr) int { return strings.Compare(declName(a), declName(b)) })
	return out
}

// declName returns "xmlns" or "xmlns:<prefix>".
func declName(a xml.Attr) string {
	if a.Name.Space == "xmlns" {
		return "xmlns:" + a.Name.Local
	}
	return "xmlns"
}

// xmlDecl starts every item's raw XML: the item is UTF-8 (the scanner reads
// re-encoded feeds), and format identification (PRONOM fmt/101) wants it.
const xmlDecl = `<?xml version="1.0" encoding="UTF-8"?>` + "\n"

// declare returns raw, an element, as a document: after the XML
// declaration, with decls added to its start tag just after the element
// name (writeDeclared).
func declare(raw []byte, decls []xml.Attr) []byte {
	var b bytes.Buffer
	b.Grow(len(xmlDecl) + len(raw) + 64*len(decls))
	writeDeclared(&b, raw, decls)
	return b.Bytes()
}

// writeDeclared writes declare's document to w, which it does not copy
// first: a full-text feed's item is the whole post.
func writeDeclared(w io.Writer, raw []byte, decls []xml.Attr) {
	io.WriteString(w, xmlDecl)
	end := bytes.IndexAny(raw, " \t\r\n/>")
	if len(decls) == 0 || end < 0 {
		w.Write(raw)
		return
	}
	w.Write(raw[:end])
	var attr bytes.Buffer
	for _, a := range decls {
		attr.Reset()
		attr.WriteString(" " + declName(a) + `="`)
		xml.EscapeText(&attr, []byte(a.Value))
		attr.WriteByte('"')
		w.Write(attr.Bytes())
	}
	w.Write(raw[end:])
}
