// Package htmlnode holds the small readings of a parsed HTML node that
// harvest, its comment stage (harvest/comments) and the rule learner
// (harvest/learn) make: an attribute's value and the text under a node as
// the markup has it. A leaf: it imports only golang.org/x/net/html.
//
// Where to change what: both functions are here; harvest/learn reads
// attributes with Attr and keeps its own text reading (white space
// collapsed, blocks separated), which is not this one.
package htmlnode

import (
	"strings"

	"golang.org/x/net/html"
)

// Attr returns the value of n's attribute key (lowercase, no namespace),
// or "".
func Attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key && a.Namespace == "" {
			return a.Val
		}
	}
	return ""
}

// Text returns the text under n, as it stands in the markup: its text
// nodes' data, in document order, nothing collapsed.
func Text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			if ch.Type == html.TextNode {
				b.WriteString(ch.Data)
			}
			walk(ch)
		}
	}
	walk(n)
	return b.String()
}
