package comments

import (
	"strings"

	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/learn"
)

// isDigits reports whether s is digits only.
func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// firstNonEmpty returns the first of vals that is not blank, or "".
func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

// methodOf returns the method the extraction used for field, defaulting
// to MethodRule.
func methodOf(ex learn.Extraction, field string) blogharvest.Method {
	if m, ok := ex.Methods[field]; ok {
		return m
	}
	return blogharvest.MethodRule
}

// attr returns the value of n's attribute key, or "".
func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key && a.Namespace == "" {
			return a.Val
		}
	}
	return ""
}

// nodeText returns the text under n, as it stands in the markup.
func nodeText(n *html.Node) string {
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
