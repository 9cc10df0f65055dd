package learn

import (
	"strconv"
	"strings"

	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest/harvest/htmlnode"
)

// This file evaluates the XPath shapes Learn writes without a general XPath
// engine: a chain of steps, each a tag (or *) with at most one predicate —
// [@id='x'], [@attr='x'], a class-token test, or a position [k] — joined by
// / or //, from the document (//, /) or from a context element (.//, ./).
// Rules of any other shape (say, edited by hand) go to antchfx/xpath.

// selStep is one location step.
type selStep struct {
	desc     bool   // reached by // (descendants) rather than / (children)
	sibling  int    // 0, or the preceding-sibling (-1) or following-sibling (+1) axis
	tag      string // element name, "*" for any
	attrKey  string // attribute the element must have …
	attrVal  string // … with this value
	classTok string // class token the element must have
	pos      int    // 1-based position among same-tag siblings; 0 = any
}

// selector is a parsed rule.
type selector struct {
	rel   bool // starts at the context element
	steps []selStep
}

// classPred is the class-token test as Learn writes it, around the token.
const (
	classPredPrefix = "contains(concat(' ',normalize-space(@class),' '),' "
	classPredSuffix = " ')"
)

// parseSelector parses a rule of the simple shape, or reports false.
func parseSelector(x string) (*selector, bool) {
	s := &selector{}
	switch {
	case strings.HasPrefix(x, "./"):
		s.rel, x = true, x[1:]
	case strings.HasPrefix(x, "/"):
	default:
		return nil, false
	}
	for x != "" {
		st, rest, ok := parseStep(x)
		if !ok {
			return nil, false
		}
		s.steps = append(s.steps, st)
		x = rest
	}
	return s, len(s.steps) > 0
}

// parseStep parses one "/step" or "//step" at the start of x.
func parseStep(x string) (selStep, string, bool) {
	var st selStep
	if strings.HasPrefix(x, "//") {
		st.desc, x = true, x[2:]
	} else if strings.HasPrefix(x, "/") {
		x = x[1:]
	} else {
		return st, "", false
	}
	if !st.desc {
		for axis, dir := range map[string]int{"preceding-sibling::": -1, "following-sibling::": 1} {
			if strings.HasPrefix(x, axis) {
				st.sibling, x = dir, x[len(axis):]
			}
		}
	}
	end := stepEnd(x)
	step := x[:end]
	i := strings.IndexByte(step, '[')
	if i < 0 {
		st.tag = step
		return st, x[end:], validTag(st.tag)
	}
	st.tag = step[:i]
	if !strings.HasSuffix(step, "]") || !validTag(st.tag) {
		return st, "", false
	}
	return st, x[end:], parsePred(&st, step[i+1:len(step)-1])
}

// stepEnd returns the index of the '/' that ends the step at the start of
// x (outside brackets and quotes), or len(x).
func stepEnd(x string) int {
	depth, quote := 0, false
	for i := 0; i < len(x); i++ {
		switch c := x[i]; {
		case c == '\'':
			quote = !quote
		case quote:
		case c == '[':
			depth++
		case c == ']':
			depth--
		case c == '/' && depth == 0:
			return i
		}
	}
	return len(x)
}

// parsePred parses a step's predicate into st.
func parsePred(st *selStep, p string) bool {
	if k, err := strconv.Atoi(p); err == nil && k > 0 {
		st.pos = k
		return true
	}
	if strings.HasPrefix(p, classPredPrefix) && strings.HasSuffix(p, classPredSuffix) {
		st.classTok = p[len(classPredPrefix) : len(p)-len(classPredSuffix)]
		return st.classTok != "" && !strings.ContainsAny(st.classTok, "' ")
	}
	if strings.HasPrefix(p, "@") {
		eq := strings.Index(p, "='")
		if eq < 0 || !strings.HasSuffix(p, "'") {
			return false
		}
		st.attrKey, st.attrVal = p[1:eq], p[eq+2:len(p)-1]
		return validTag(st.attrKey) && !strings.Contains(st.attrVal, "'")
	}
	return false
}

// validTag reports whether s is a plain name or *.
func validTag(s string) bool {
	if s == "*" {
		return true
	}
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return false
		}
	}
	return true
}

// matches reports whether element n passes the step's tag and attribute
// tests (not its position).
func (st *selStep) matches(n *html.Node) bool {
	if n.Type != html.ElementNode || st.tag != "*" && n.Data != st.tag {
		return false
	}
	switch {
	case st.attrKey != "":
		return htmlnode.Attr(n, st.attrKey) == st.attrVal
	case st.classTok != "":
		return hasClass(n, st.classTok)
	}
	return true
}

// nodeIndex lists a document's elements by id, by class token and by tag,
// each in document order, so that a rule's first step is a lookup.
type nodeIndex struct {
	root    *html.Node
	byID    map[string][]*html.Node
	byClass map[string][]*html.Node
	byTag   map[string][]*html.Node
	lazy    bool         // no maps: lookups scan elems
	elems   []*html.Node // a lazy index's elements in document order, once looked up
}

// newLazyIndex returns an index of root that builds no maps: its first
// lookup lists the elements, and each lookup scans them; cheaper when only a few rules are looked up, as
// in extraction, and right as long as the tree is not changed meanwhile.
func newLazyIndex(root *html.Node) *nodeIndex {
	return &nodeIndex{root: root, lazy: true}
}

// newIndex indexes the elements under root.
func newIndex(root *html.Node) *nodeIndex {
	ix := &nodeIndex{root: root, byID: map[string][]*html.Node{}, byClass: map[string][]*html.Node{}, byTag: map[string][]*html.Node{}}
	walkElements(root, func(n *html.Node) bool {
		ix.byTag[n.Data] = append(ix.byTag[n.Data], n)
		for _, a := range n.Attr {
			switch {
			case a.Namespace != "":
			case a.Key == "id":
				ix.byID[a.Val] = append(ix.byID[a.Val], n)
			case a.Key == "class":
				forTokens(a.Val, func(tok string) { ix.byClass[tok] = append(ix.byClass[tok], n) })
			}
		}
		return true
	})
	return ix
}

// forTokens calls f on each white-space separated token of v.
func forTokens(v string, f func(string)) {
	for i := 0; i < len(v); {
		for i < len(v) && isHTMLSpace(v[i]) {
			i++
		}
		j := i
		for j < len(v) && !isHTMLSpace(v[j]) {
			j++
		}
		if j > i {
			f(v[i:j])
		}
		i = j
	}
}

// lookup returns the elements of the document that pass step st (a
// descendant step from the root), in document order.
func (ix *nodeIndex) lookup(st *selStep) []*html.Node {
	var list []*html.Node
	switch {
	case ix.lazy:
		return ix.walkLookup(st)
	case st.attrKey == "id":
		list = ix.byID[st.attrVal]
	case st.classTok != "":
		list = ix.byClass[st.classTok]
	case st.tag != "*":
		list = ix.byTag[st.tag]
	default:
		return nil
	}
	var out []*html.Node
	for _, n := range list {
		if st.matches(n) && (st.pos == 0 || position(n) == st.pos) {
			out = append(out, n)
		}
	}
	return out
}

// walkLookup is lookup for a lazy index.
func (ix *nodeIndex) walkLookup(st *selStep) []*html.Node {
	if st.attrKey != "id" && st.classTok == "" && st.tag == "*" {
		return nil
	}
	var out []*html.Node
	for _, n := range ix.elements() {
		if st.matches(n) && (st.pos == 0 || position(n) == st.pos) {
			out = append(out, n)
		}
	}
	return out
}

// elements returns the elements under a lazy index's root in document
// order, listed on first use in a slice of their count (counting them is
// cheaper than growing it).
func (ix *nodeIndex) elements() []*html.Node {
	if ix.elems == nil {
		n := 0
		walkElements(ix.root, func(*html.Node) bool { n++; return true })
		ix.elems = make([]*html.Node, 0, n)
		walkElements(ix.root, func(e *html.Node) bool {
			ix.elems = append(ix.elems, e)
			return true
		})
	}
	return ix.elems
}

// indexable reports whether the first step can be looked up in an index.
func (s *selector) indexable() bool {
	st := s.steps[0]
	return !s.rel && st.desc && (st.attrKey == "id" || st.classTok != "" || st.tag != "*")
}

// eval returns the nodes the selector picks from ctx (the document root for
// absolute selectors), in document order; with first set, only the first.
// ix, when not nil, indexes ctx's document.
func (s *selector) eval(ctx *html.Node, first bool, ix *nodeIndex) []*html.Node {
	if !s.rel {
		for ctx.Parent != nil {
			ctx = ctx.Parent
		}
	}
	set, steps := []*html.Node{ctx}, s.steps
	if ix != nil && ix.root == ctx && s.indexable() {
		set, steps = ix.lookup(&s.steps[0]), s.steps[1:]
		if len(steps) == 0 && first && len(set) > 1 {
			set = set[:1]
		}
	}
	for k, st := range steps {
		last := k == len(steps)-1
		set = applyStep(set, &st, first && last)
		if len(set) == 0 {
			return nil
		}
	}
	if first && len(set) > 1 {
		set = set[:1]
	}
	return set
}

// inDocumentOrder returns the distinct nodes of set in document order.
func inDocumentOrder(set []*html.Node) []*html.Node {
	if len(set) < 2 {
		return set
	}
	want := make(map[*html.Node]bool, len(set))
	for _, n := range set {
		want[n] = true
	}
	root := set[0]
	for root.Parent != nil {
		root = root.Parent
	}
	out := make([]*html.Node, 0, len(want))
	walkElements(root, func(n *html.Node) bool {
		if want[n] {
			out = append(out, n)
		}
		return true
	})
	return out
}

// applyStep applies one step to every node of set.
func applyStep(set []*html.Node, st *selStep, first bool) []*html.Node {
	var out []*html.Node
	seen := map[*html.Node]bool(nil)
	if len(set) > 1 && st.desc {
		seen = map[*html.Node]bool{}
	}
	for _, n := range set {
		switch {
		case st.sibling != 0:
			out = siblings(n, st, out)
		case st.desc:
			out = descendants(n, st, out, seen, first)
		default:
			out = children(n, st, out)
		}
		if first && len(out) > 0 && len(set) == 1 {
			break
		}
	}
	if st.sibling != 0 && len(set) > 1 {
		out = inDocumentOrder(out)
	}
	return out
}

// descendants appends the descendants of n that match st.
func descendants(n *html.Node, st *selStep, out []*html.Node, seen map[*html.Node]bool, first bool) []*html.Node {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if st.matches(c) && (st.pos == 0 || position(c) == st.pos) && (seen == nil || !seen[c]) {
			if seen != nil {
				seen[c] = true
			}
			out = append(out, c)
			if first {
				return out
			}
		}
		out = descendants(c, st, out, seen, first)
		if first && len(out) > 0 {
			return out
		}
	}
	return out
}

// siblings appends the siblings of n on st's axis that match st, nearest
// first counted for the position; appended in document order.
func siblings(n *html.Node, st *selStep, out []*html.Node) []*html.Node {
	var found []*html.Node
	k := 0
	for c := next(n, st.sibling); c != nil; c = next(c, st.sibling) {
		if c.Type != html.ElementNode || st.tag != "*" && c.Data != st.tag {
			continue
		}
		k++
		if (st.pos == 0 || k == st.pos) && st.matches(c) {
			found = append(found, c)
		}
	}
	if st.sibling < 0 {
		for i, j := 0, len(found)-1; i < j; i, j = i+1, j-1 {
			found[i], found[j] = found[j], found[i]
		}
	}
	return append(out, found...)
}

// next returns n's next (dir > 0) or previous sibling.
func next(n *html.Node, dir int) *html.Node {
	if dir > 0 {
		return n.NextSibling
	}
	return n.PrevSibling
}

// children appends the children of n that match st.
func children(n *html.Node, st *selStep, out []*html.Node) []*html.Node {
	k := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || st.tag != "*" && c.Data != st.tag {
			continue
		}
		k++
		if st.pos > 0 && k != st.pos {
			continue
		}
		if st.matches(c) {
			out = append(out, c)
		}
	}
	return out
}

// position returns n's 1-based position among its same-tag siblings.
func position(n *html.Node) int {
	k := 1
	for s := n.PrevSibling; s != nil; s = s.PrevSibling {
		if s.Type == html.ElementNode && s.Data == n.Data {
			k++
		}
	}
	return k
}
