package learn

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/textsim"
	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest/harvest/htmlnode"
)

// comments extracts the page's comments with the learned comment rules;
// without a trusted rule, or when it finds nothing, the comment fallback
// (commentfallback.go) looks for them.
func (e *extractor) comments() {
	if e.rules == nil || e.rules.Comments == nil || !e.rules.Comments.Node.usable() {
		e.fallbackComments()
		return
	}
	if !e.ruleComments() {
		e.fallbackComments()
	}
}

// ruleComments extracts the page's comments with the learned comment
// rules, and reports false when they find none.
func (e *extractor) ruleComments() bool {
	cr := e.rules.Comments
	bodies := cr.Node.allIn(e.root, e.ix)
	if len(bodies) == 0 {
		return false
	}
	elems := commentElements(bodies)
	selected := make(map[*html.Node]bool, len(bodies))
	for _, b := range bodies {
		selected[b] = true
	}
	out := make([]Comment, len(bodies))
	for k, b := range bodies {
		out[k] = e.comment(cr, b, elems[k], selected)
	}
	setParents(out, elems)
	e.x.Comments = out
	e.x.Methods.Set(FieldComments, blogharvest.MethodRule)
	return true
}

// comment extracts one comment from its body and element.
func (e *extractor) comment(cr *CommentRules, body, elem *html.Node, selected map[*html.Node]bool) Comment {
	c := Comment{ID: commentID(elem, cr.IDLevels)}
	if cr.Author.usable() {
		if n := cr.Author.first(elem); n != nil {
			c.Author = textsim.CleanAuthor(nodeText(n))
		}
	}
	if cr.Date.usable() {
		if n := cr.Date.first(elem); n != nil {
			if t, p, ok := nodeDatePrec(n, cr.Date.Attr, e.page.Lang); ok {
				c.Date, c.DatePrecision = inOffset(t, p, e.rules.dateRule())
			}
		}
	}
	own := withoutNested(body, selected)
	cleanNode(own, e.base)
	c.ContentHTML = innerHTML(own)
	c.ContentText = nodeText(own)
	if c.ID == "" {
		sum := sha256.Sum256([]byte(c.Author + "\x00" + c.ContentText))
		c.ID = "c-" + hex.EncodeToString(sum[:6])
	} else if e.base != nil {
		u := *e.base
		u.Fragment = c.ID
		c.URL = u.String()
	}
	return c
}

// commentID returns the id of the first holder, by the learned levels in
// order, that has one, else the id found near the element.
func commentID(elem *html.Node, levels []int) string {
	for _, k := range levels {
		if h := idHolder(elem, k); h != nil && htmlnode.Attr(h, "id") != "" {
			return anchorID(elem, htmlnode.Attr(h, "id"))
		}
	}
	return anchorID(elem, elementID(elem))
}

// anchorID prefers the comment's permalink anchor to a wrapper's id: themes
// give the body of comment 42 an id like "div-comment-42" inside the
// element "comment-42" that permalinks (#comment-42) point at. When an
// enclosing element (up to three levels) carries id without such a prefix,
// that id is the comment's.
func anchorID(elem *html.Node, id string) string {
	if bare, level, _ := anchorAncestor(elem, id); level >= 0 {
		return bare
	}
	return id
}

// anchorAncestor looks for the element anchorID takes a comment's id
// from: when id has a wrapper's prefix, it returns the id without it and
// the level (0 to 3) of the nearest enclosing element carrying that id, or
// -1 when none does; wrapped is false (level -1) when id has no such
// prefix.
func anchorAncestor(elem *html.Node, id string) (bare string, level int, wrapped bool) {
	for _, prefix := range []string{"div-", "li-", "article-"} {
		bare, ok := strings.CutPrefix(id, prefix)
		if !ok {
			continue
		}
		for n, k := elem, 0; n != nil && n.Type == html.ElementNode && k <= 3; n, k = n.Parent, k+1 {
			if htmlnode.Attr(n, "id") == bare {
				return bare, k, true
			}
		}
		return bare, -1, true
	}
	return "", -1, false
}

// Id levels below zero: the comment element's first child with an id
// (WordPress: <article id="div-comment-4"><span id="comment-4">), its
// previous and its next element sibling (Blogger: <dt id="c42">…<dd>).
const (
	childIDLevel = -1
	prevIDLevel  = -2
	nextIDLevel  = -3
)

// idHolder returns the element whose id names the comment of element n:
// the ancestor level levels up, or the child or sibling a negative level
// names (nil if there is none).
func idHolder(n *html.Node, level int) *html.Node {
	var c *html.Node
	switch level {
	case childIDLevel:
		for c = n.FirstChild; c != nil && (c.Type != html.ElementNode || htmlnode.Attr(c, "id") == ""); c = c.NextSibling {
		}
	case prevIDLevel, nextIDLevel:
		dir := map[int]int{prevIDLevel: -1, nextIDLevel: 1}[level]
		for c = next(n, dir); c != nil && c.Type != html.ElementNode; c = next(c, dir) {
		}
	default:
		return ancestor(n, level)
	}
	return c
}

// ancestor returns n's ancestor k levels up, or the highest element on the
// way.
func ancestor(n *html.Node, k int) *html.Node {
	for ; k > 0 && n.Parent != nil && n.Parent.Type == html.ElementNode; k-- {
		n = n.Parent
	}
	return n
}

// elementID returns the id of a comment element, or of its nearest
// ancestor or first descendant that has one (within two levels).
func elementID(n *html.Node) string {
	if id := htmlnode.Attr(n, "id"); id != "" {
		return id
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			if id := htmlnode.Attr(c, "id"); id != "" {
				return id
			}
		}
	}
	if p := n.Parent; p != nil && p.Type == html.ElementNode {
		return htmlnode.Attr(p, "id")
	}
	return ""
}

// withoutNested returns a copy of body without the other selected bodies
// nested in it (replies).
func withoutNested(body *html.Node, selected map[*html.Node]bool) *html.Node {
	return cloneTree(body, func(n *html.Node) bool { return n != body && selected[n] })
}

// cloneTree deep-copies n, leaving out subtrees for which skip is true.
func cloneTree(n *html.Node, skip func(*html.Node) bool) *html.Node {
	c := &html.Node{Type: n.Type, DataAtom: n.DataAtom, Data: n.Data, Namespace: n.Namespace}
	c.Attr = append([]html.Attribute(nil), n.Attr...)
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		if !skip(k) {
			c.AppendChild(cloneTree(k, skip))
		}
	}
	return c
}

// setParents sets each comment's ParentID from the nesting of comment
// elements: comment j answers comment k when j's element lies inside k's
// scope — k's element itself when it contains other comments, else its
// parent when that parent starts with k and holds no other comment element
// as a direct child (a thread: <li><div k/><ul><li><div j/></li></ul></li>).
// The deepest such k wins.
func setParents(cs []Comment, elems []*html.Node) {
	isElem := make(map[*html.Node]int, len(elems))
	for k, e := range elems {
		isElem[e] = k
	}
	scopes := make([]*html.Node, len(elems))
	for k, e := range elems {
		scopes[k] = scopeOf(e, isElem)
	}
	for j, e := range elems {
		for a := e.Parent; a != nil; a = a.Parent {
			if k, ok := scopeOwner(a, scopes); ok && k != j {
				cs[j].ParentID = cs[k].ID
				break
			}
		}
	}
}

// scopeOwner returns the comment whose scope is a.
func scopeOwner(a *html.Node, scopes []*html.Node) (int, bool) {
	for k, s := range scopes {
		if s == a {
			return k, true
		}
	}
	return 0, false
}

// scopeOf returns the element whose descendants answer comment element e,
// or nil.
func scopeOf(e *html.Node, isElem map[*html.Node]int) *html.Node {
	if containsOther(e, e, isElem) {
		return e
	}
	p := e.Parent
	if p == nil || p.Type != html.ElementNode || firstElem(p, isElem) != e {
		return nil
	}
	for c := p.FirstChild; c != nil; c = c.NextSibling {
		if _, ok := isElem[c]; ok && c != e {
			return nil
		}
	}
	if containsOther(p, e, isElem) {
		return p
	}
	return nil
}

// firstElem returns the first comment element under n in document order.
func firstElem(n *html.Node, isElem map[*html.Node]int) *html.Node {
	var first *html.Node
	walkElements(n, func(c *html.Node) bool {
		if _, ok := isElem[c]; ok && first == nil && c != n {
			first = c
		}
		return first == nil
	})
	return first
}

// containsOther reports whether n has a comment element other than e
// among its descendants.
func containsOther(n, e *html.Node, isElem map[*html.Node]int) bool {
	found := false
	walkElements(n, func(c *html.Node) bool {
		if _, ok := isElem[c]; ok && c != e && c != n {
			found = true
		}
		return !found
	})
	return found
}
