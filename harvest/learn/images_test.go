package learn_test

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// imageURLs returns the absolute URLs of the images of article HTML (src,
// lazy data-src and every srcset candidate), resolved against base, each
// once, in document order.
func imageURLs(contentHTML, base string) []string {
	b, _ := url.Parse(base)
	nodes, err := html.ParseFragment(strings.NewReader(contentHTML), &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body})
	if err != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	add := func(ref string) {
		u, err := url.Parse(strings.TrimSpace(ref))
		if ref == "" || err != nil {
			return
		}
		if b != nil {
			u = b.ResolveReference(u)
		}
		if s := u.String(); !strings.HasPrefix(s, "data:") && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && (n.Data == "img" || n.Data == "source") {
			for _, k := range []string{"src", "data-src", "data-lazy-src"} {
				add(attrOf(n, k))
			}
			for _, k := range []string{"srcset", "data-srcset"} {
				for _, p := range strings.Split(attrOf(n, k), ",") {
					if f := strings.Fields(p); len(f) > 0 {
						add(f[0])
					}
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range nodes {
		walk(n)
	}
	return out
}

// attrOf returns n's attribute key, or "".
func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
