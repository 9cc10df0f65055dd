package aip

import (
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Some pages change order on every request without anyone editing them:
// WordPress galleries with orderby="rand", random "featured images"
// strips, lists of categories that share a name. Archiving each shuffle as a new version would bury the real
// edits, so the content digest (contentDigest) reads a post's HTML with
// every run of alike media items sorted. The archived HTML itself is never
// changed: this is only how versions are told apart. The price: an author
// who reorders the pictures of a gallery, and nothing else, gets no new
// version, and neither does one who swaps two list items of the same text.

// maxItemText is the most text a media item may hold (a caption).
const maxItemText = 300

// unshuffled returns content with each run of alike media items sorted,
// or content itself when it holds none or does not parse.
func unshuffled(content string) string {
	body := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := html.ParseFragment(strings.NewReader(content), body)
	if err != nil {
		return content
	}
	sorted := false
	for _, n := range nodes {
		sorted = sortMediaRuns(n) || sorted
	}
	if !sorted {
		return content // nothing to render: most posts have no gallery
	}
	var b strings.Builder
	b.Grow(len(content))
	for _, n := range nodes {
		if err := html.Render(&b, n); err != nil {
			return content
		}
	}
	return b.String()
}

// sortMediaRuns sorts, under n, every run of two or more consecutive
// sibling elements that the server may shuffle (shuffledTogether) by their
// markup. It reports whether it found any.
func sortMediaRuns(n *html.Node) bool {
	found := false
	var kids []*html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			kids = append(kids, c)
			found = sortMediaRuns(c) || found
		}
	}
	for i := 0; i < len(kids); {
		j := i + 1
		for j < len(kids) && shuffledTogether(kids[i], kids[j]) {
			j++
		}
		if j-i >= 2 {
			sortRun(kids[i:j])
			found = true
		}
		i = j
	}
	return found
}

// shuffledTogether reports whether the server may show a run from first
// to n in any order: media items of the same kind (a random gallery), or
// elements with the same tag and text (categories of the same name, listed
// in whatever order the database returns equal names).
func shuffledTogether(first, n *html.Node) bool {
	if first.Data != n.Data {
		return false
	}
	if sameKind(first, n) && isMediaItem(first) && isMediaItem(n) {
		return true
	}
	t := textOf(first)
	return t != "" && t == textOf(n)
}

// textOf returns the text of n, spaces collapsed.
func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(c *html.Node) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
			b.WriteByte(' ')
		}
		for k := c.FirstChild; k != nil; k = k.NextSibling {
			walk(k)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// sortRun puts the contents of run's elements in the order of their
// markup, keeping the elements (and the text between them) in place.
func sortRun(run []*html.Node) {
	type item struct {
		key  string
		node *html.Node
	}
	items := make([]item, len(run))
	for k, n := range run {
		var b strings.Builder
		_ = html.Render(&b, n)
		items[k] = item{b.String(), n}
	}
	slices.SortStableFunc(items, func(a, b item) int { return strings.Compare(a.key, b.key) })
	placeholders := make([]*html.Node, len(run))
	for k, n := range run {
		placeholders[k] = &html.Node{Type: html.CommentNode}
		n.Parent.InsertBefore(placeholders[k], n)
		n.Parent.RemoveChild(n)
	}
	for k, p := range placeholders {
		p.Parent.InsertBefore(items[k].node, p)
		p.Parent.RemoveChild(p)
	}
}

// sameKind reports whether two elements have the same tag and class.
func sameKind(a, b *html.Node) bool {
	return a.Data == b.Data && attrOf(a, "class") == attrOf(b, "class")
}

// isMediaItem reports whether n holds a picture and at most a caption.
func isMediaItem(n *html.Node) bool {
	pictures, text := 0, 0
	var walk func(*html.Node)
	walk = func(c *html.Node) {
		switch {
		case c.Type == html.TextNode:
			text += len(strings.TrimSpace(c.Data))
		case c.Type == html.ElementNode && (c.DataAtom == atom.Img || c.DataAtom == atom.Picture || c.DataAtom == atom.Video):
			pictures++
		}
		for k := c.FirstChild; k != nil; k = k.NextSibling {
			walk(k)
		}
	}
	walk(n)
	return pictures > 0 && text <= maxItemText
}

// attrOf returns the value of n's attribute key, or "".
func attrOf(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key && a.Namespace == "" {
			return a.Val
		}
	}
	return ""
}
