package aip

import (
	"slices"
	"strings"
	"unicode"

	xnethtml "github.com/blogharvest/blogharvest/internal/xnet/html"

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
	nodes, err := xnethtml.ParseFragment(strings.NewReader(content), body)
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
	elements := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			elements++
			found = sortMediaRuns(c) || found
		}
	}
	if elements < 2 {
		return found // no run: most elements have one element child or none
	}
	// The slice of element children is made only where a run may be: most
	// elements have one element child or none, and each of them made one
	// (the sorts below change the children of n's children, never n's).
	kids := make([]*html.Node, 0, elements)
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			kids = append(kids, c)
		}
	}
	// media[k] caches isMediaItem(kids[k]): 0 not asked yet, 1 yes, 2 no.
	// A run's first element is compared with each of the others, so
	// without it the first's subtree was walked once per comparison.
	media := make([]uint8, len(kids))
	isMedia := func(k int) bool {
		if media[k] == 0 {
			media[k] = 2
			if isMediaItem(kids[k]) {
				media[k] = 1
			}
		}
		return media[k] == 1
	}
	for i := 0; i < len(kids); {
		j := i + 1
		for j < len(kids) && shuffledTogether(kids[i], kids[j], func() bool { return isMedia(i) && isMedia(j) }) {
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
// in whatever order the database returns equal names). bothMedia reports
// whether first and n are both media items (isMediaItem).
func shuffledTogether(first, n *html.Node, bothMedia func() bool) bool {
	if first.Data != n.Data {
		return false
	}
	if sameKind(first, n) && bothMedia() {
		return true
	}
	return sameText(first, n)
}

// sameText reports whether a has text and b the same text, spaces
// collapsed (strings.Fields of each text node, joined by one space), read
// word by word: it stops at the first word that differs (sibling
// paragraphs mostly differ in their first words) and builds no string.
func sameText(a, b *html.Node) bool {
	wa, wb := words{root: a}, words{root: b}
	for first := true; ; first = false {
		x, okA := wa.next()
		y, okB := wb.next()
		if first && !okA {
			return false // no text
		}
		if okA != okB || x != y {
			return false
		}
		if !okA {
			return true
		}
	}
}

// words yields the words of a subtree's text nodes in document order:
// the fields (strings.Fields) of each text node in turn. It walks the
// subtree by the nodes' own links (first child, next sibling, parent),
// without a stack of its own: a stack grown node by node was the most
// of what the content digest allocated besides the parse.
type words struct {
	root *html.Node // the subtree
	at   *html.Node // the node last visited; nil before the root
	done bool       // every node visited
	text string     // the rest of the text node being read
}

// next returns the next word, or false after the last.
func (w *words) next() (string, bool) {
	for {
		w.text = strings.TrimLeftFunc(w.text, unicode.IsSpace)
		if w.text != "" {
			end := strings.IndexFunc(w.text, unicode.IsSpace)
			if end < 0 {
				end = len(w.text)
			}
			word := w.text[:end]
			w.text = w.text[end:]
			return word, true
		}
		if !w.advance() {
			return "", false
		}
		if w.at.Type == html.TextNode {
			w.text = w.at.Data
		}
	}
}

// advance moves to the next node of the subtree in document order
// (pre-order), reporting false when there is none.
func (w *words) advance() bool {
	switch {
	case w.done:
		return false
	case w.at == nil:
		w.at = w.root
		return true
	case w.at.FirstChild != nil:
		w.at = w.at.FirstChild
		return true
	}
	n := w.at
	for n != w.root && n.NextSibling == nil {
		n = n.Parent
	}
	if n == w.root {
		w.done = true
		return false
	}
	w.at = n.NextSibling
	return true
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
