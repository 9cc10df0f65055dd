package learn

import (
	"bytes"
	"slices"

	"github.com/blogharvest/blogharvest"
	"golang.org/x/net/html"
)

// This file lets the fast path extract comments: the page's outline
// (outline.go) locates the comment elements — by the first step of the
// learned comment rule, or by the comment fallback's markup — and only
// the parent of the element that holds them all (or an ancestor higher
// up, when the comment code needs to read that far) is parsed. The
// comment code then runs on that subtree as it would on the whole page.
// Whenever the subtree might not show what the whole page would (a
// comment element reaching its top, an excluded area around it, markup
// outside elements), the fast path gives up.

// fastComments extracts the page's comments into x, reporting false when
// the fast path cannot.
func (sc *scanner) fastComments(r *Rules, p Page, x *Extraction) bool {
	ruled := r.Comments != nil && r.Comments.Node.usable()
	o := sc.outline()
	if !o.ok {
		return !ruled && !mayHoldComments(sc.lowered()) // no markup the comment fallback reads
	}
	var at []int
	var ok bool
	if ruled {
		at, ok = sc.ruleElements(r.Comments.Node)
		if !ok || len(at) == 0 {
			return false
		}
	} else if at, ok = o.commentMarkers(); !ok {
		return false
	} else if len(at) == 0 {
		return true // no markup the comment fallback reads
	}
	up := 1
	if !ruled {
		if up, ok = o.markerLevels(at); !ok {
			return false
		}
	}
	for try := 0; try < 2; try++ {
		top, ok := o.container(at, up, !ruled)
		if !ok {
			return false
		}
		deficit, ok := sc.commentsIn(top, ruled, len(at), r, p, x)
		if deficit == 0 {
			return ok
		}
		up += deficit
	}
	return false
}

// markerLevels returns how many levels above the markers' common
// ancestor the comment fallback's subtree starts: none, or more when a
// marker, which may be a comment, would be its top (a comment's parent is
// read), or when a marker's id has a wrapper's prefix and anchorID would
// read above the top (levelsNeeded), so that the subtree is built once
// rather than found too short after it was read. It is a guess that
// commentsIn checks on the tree.
func (o *outline) markerLevels(at []int) (int, bool) {
	up := 0
	for {
		top, ok := o.container(at, up, true)
		if !ok {
			return 0, false
		}
		deficit := 0
		if slices.Contains(at, top) {
			deficit = 1
		}
		for _, k := range at {
			if need := o.anchorLevel(k); need > 0 {
				deficit = max(deficit, need-o.depthBelow(k, top))
			}
		}
		if deficit <= 0 {
			return up, true
		}
		up += deficit
	}
}

// anchorLevel guesses from the outline how many levels above marker k
// anchorID reads: none when k's id has no wrapper's prefix, else the level
// of the nearest ancestor (up to three) whose id is k's without the prefix,
// else three.
func (o *outline) anchorLevel(k int) int {
	e := &o.els[k]
	if e.odd || e.id[0] < 0 {
		return 0
	}
	id := o.page[e.id[0]:e.id[1]]
	bare, ok := cutWrapperPrefix(id)
	if !ok {
		return 0
	}
	a := e.parent
	for level := 1; level <= 3 && a >= 0; level, a = level+1, o.els[a].parent {
		if p := &o.els[a]; !p.odd && p.id[0] >= 0 && bytes.Equal(o.page[p.id[0]:p.id[1]], bare) {
			return level
		}
	}
	return 3
}

// depthBelow returns how many levels element k lies below element top, or
// -1 when it is not inside it.
func (o *outline) depthBelow(k, top int) int {
	d := 0
	for ; k >= 0; k = o.els[k].parent {
		if k == top {
			return d
		}
		d++
	}
	return -1
}

// cutWrapperPrefix returns an id without the prefix the ids of comment
// wrappers start with, which anchorID reads up to three levels up from,
// and whether it had one.
func cutWrapperPrefix(id []byte) ([]byte, bool) {
	for _, prefix := range []string{"div-", "li-", "article-"} {
		if bare, ok := bytes.CutPrefix(id, []byte(prefix)); ok {
			return bare, true
		}
	}
	return nil, false
}

// ruleElements returns the outline elements the first step of the
// comment rule selects.
func (sc *scanner) ruleElements(rule *Rule) ([]int, bool) {
	if !fastShape(rule) {
		return nil, false
	}
	return sc.ol.all(&rule.sel.steps[0], 0, len(sc.ol.els))
}

// commentsIn parses outline element top and extracts the comments in it:
// by rule (expecting want comment bodies when the rule has one step), or
// by the fallback's markers. When a comment element lies too close to the
// top for what the comment code reads around it, it returns how many
// levels more the subtree needs.
func (sc *scanner) commentsIn(top int, ruled bool, want int, r *Rules, p Page, x *Extraction) (int, bool) {
	t := sc.ol.els[top]
	root, ok := sc.subtree(span{t.from, t.tagEnd, t.to})
	if !ok {
		return 0, false
	}
	doc := &html.Node{Type: html.DocumentNode}
	doc.AppendChild(root)
	e := &extractor{rules: r, root: doc, page: p, base: parseBase(p.URL), ix: newLazyIndex(doc)}
	if r != nil && p.Lang == "" {
		e.page.Lang = r.Lang
	}
	if ruled {
		if !e.ruleComments() || len(r.Comments.Node.sel.steps) == 1 && len(e.x.Comments) != want {
			return 0, false
		}
	} else {
		elems, recs := markedComments(doc)
		if len(elems) == 0 {
			return 0, false // the slow path would look for repeated records on the whole page
		}
		e.commentElems = elems
		e.x.Comments = e.heuristicComments(elems, recs)
		e.x.Methods.Set(FieldComments, blogharvest.MethodHeuristic)
	}
	deficit := 0
	for _, el := range e.commentElems {
		deficit = max(deficit, levelsNeeded(el, r, ruled)-depthBelow(el, root))
	}
	if deficit > 0 {
		return deficit, false
	}
	x.Comments = e.x.Comments
	x.Methods.Set(FieldComments, e.x.Methods[FieldComments])
	return 0, true
}

// levelsNeeded returns how many ancestors of comment element el the
// comment code may read: its parent (nesting, ids), the ancestors the
// learned id levels name, and three levels when an id has a wrapper's
// prefix (anchorID).
func levelsNeeded(el *html.Node, r *Rules, ruled bool) int {
	need := 1
	ids := []string{attr(el, "id")}
	if ruled {
		for _, l := range r.Comments.IDLevels {
			need = max(need, l)
			if h := idHolder(el, l); h != nil {
				ids = append(ids, attr(h, "id"))
			}
		}
		ids = append(ids, elementID(el))
	}
	for _, id := range ids {
		need = max(need, anchorLevel(el, id))
	}
	return need
}

// anchorLevel returns how many levels above el anchorID(el, id) reads:
// none when id has no wrapper's prefix, else the level of the ancestor
// whose id it returns, else three (all it reads). Read on a subtree, the
// answer holds for the whole page when the subtree has that many levels
// above el.
func anchorLevel(el *html.Node, id string) int {
	switch _, level, wrapped := anchorAncestor(el, id); {
	case !wrapped:
		return 0
	case level < 0:
		return 3
	default:
		return level
	}
}

// depthBelow returns how many levels n lies below top (-1 when not under
// it).
func depthBelow(n, top *html.Node) int {
	d := 0
	for ; n != nil; n = n.Parent {
		if n == top {
			return d
		}
		d++
	}
	return -1
}
