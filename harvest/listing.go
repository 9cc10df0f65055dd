package harvest

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/blogharvest/blogharvest/harvest/htmlnode"
	"github.com/blogharvest/blogharvest/harvest/platform"
)

// dominantShare is the share of the main articles' text one article must
// hold to make the page one post with cards beside it (related posts,
// "read next") rather than a sequence of summaries.
const dominantShare = 0.6

// mainArticles reads the structure of a page's main content from its
// article elements (comments excluded): those inside an aside, a footer,
// site navigation or a box a platform marks as not the article (related
// posts, sharing) are cards, not content; an article nested in another is
// part of it. Of the rest, one article holding most of their text makes a
// post (1); several, none of which does, a listing (their number); none,
// 0. Only the structure counts, never a theme's class names beyond the
// platform table's.
func mainArticles(nodes []*html.Node) int {
	set := make(map[*html.Node]bool, len(nodes))
	for _, n := range nodes {
		set[n] = true
	}
	var sizes []int
	total, largest := 0, 0
	for _, n := range nodes {
		if !isMainArticle(n, set) {
			continue
		}
		size := textSize(n)
		sizes = append(sizes, size)
		total += size
		largest = max(largest, size)
	}
	switch {
	case len(sizes) < 2:
		return len(sizes)
	case total > 0 && float64(largest) >= dominantShare*float64(total):
		return 1
	}
	return len(sizes)
}

// isMainArticle reports whether an article element belongs to the page's
// main content: no ancestor is another article of set, an aside, a footer,
// a <nav> or a box the platform table calls boilerplate.
func isMainArticle(n *html.Node, set map[*html.Node]bool) bool {
	for a := n.Parent; a != nil; a = a.Parent {
		if a.Type != html.ElementNode {
			continue
		}
		if set[a] {
			return false
		}
		switch a.DataAtom {
		case atom.Aside, atom.Footer, atom.Nav:
			return false
		}
		if platform.IsBoilerplate(htmlnode.Attr(a, "class")) || platform.IsBoilerplate(htmlnode.Attr(a, "id")) {
			return false
		}
	}
	return !platform.IsBoilerplate(htmlnode.Attr(n, "class"))
}

// textSize counts the bytes of visible text under n (scripts and styles
// aside).
func textSize(n *html.Node) int {
	size := 0
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		switch {
		case ch.Type == html.TextNode:
			size += len(ch.Data)
		case ch.Type == html.ElementNode && ch.DataAtom != atom.Script && ch.DataAtom != atom.Style:
			size += textSize(ch)
		}
	}
	return size
}
