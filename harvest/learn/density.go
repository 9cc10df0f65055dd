package learn

import (
	"unicode/utf8"

	"github.com/blogharvest/blogharvest/harvest/textsim"
	"golang.org/x/net/html"
)

// densityStats are the counts text density works on, per element.
type densityStats struct {
	chars, linkChars, tags int
}

// densest returns the element of the page's body with the highest density
// sum — the sum of its children's text densities chars/tags, each weighted by
// the share of text that is not link text — as in Content Extraction via
// Text Density (Sun, Sun and Lei, 2011), simplified. It returns nil for a
// page without text.
func densest(root *html.Node) *html.Node {
	var best *html.Node
	bestScore := 0.0
	var visit func(n *html.Node, inLink bool) densityStats
	visit = func(n *html.Node, inLink bool) densityStats {
		var st densityStats
		sum := 0.0
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				k := utf8.RuneCountInString(textsim.Collapse(c.Data))
				st.chars += k
				if inLink {
					st.linkChars += k
				}
			case c.Type == html.ElementNode && !skipped(c) && c.Data != "head":
				cs := visit(c, inLink || c.Data == "a")
				st.chars += cs.chars
				st.linkChars += cs.linkChars
				st.tags += cs.tags
				sum += density(cs)
			}
		}
		st.tags++
		if score := sum * nonLinkShare(st); score > bestScore && n.Type == html.ElementNode && n.Data != "html" {
			best, bestScore = n, score
		}
		return st
	}
	visit(root, false)
	return best
}

// density returns chars per tag, with link text discounted.
func density(s densityStats) float64 {
	return float64(s.chars) / float64(s.tags) * nonLinkShare(s)
}

// nonLinkShare returns the share of text that is not link text.
func nonLinkShare(s densityStats) float64 {
	if s.chars == 0 {
		return 0
	}
	return 1 - float64(s.linkChars)/float64(s.chars)
}
