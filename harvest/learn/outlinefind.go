package learn

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
)

// This file looks elements up in an outline: by a rule's step, by offset,
// and the element that holds a set of them.

// matches reports whether element k passes step st (tag and attribute
// tests). unsure is true when the outline cannot tell: the element is
// foreign (SVG), whose names and attributes the parser adjusts.
func (o *outline) matches(k int, st *selStep) (ok, unsure bool) {
	e := &o.els[k]
	if st.tag != "*" && e.name != st.tag && (len(e.name) != len(st.tag) || !strings.EqualFold(e.name, st.tag)) {
		return false, false
	}
	ok, unsure = o.attrMatches(k, st)
	if e.foreign {
		return false, ok || unsure
	}
	return ok && (st.tag == "*" || e.name == st.tag), unsure
}

// attrMatches reports whether element k passes the attribute test of st.
func (o *outline) attrMatches(k int, st *selStep) (ok, unsure bool) {
	e := &o.els[k]
	switch {
	case st.attrKey == "" && st.classTok == "":
		return true, false
	case e.from == e.tagEnd:
		return false, false // an element the parser implied has no attributes
	case e.odd || st.attrKey != "" && st.attrKey != "id":
		n, _, ok := startTagAt(o.page, e.from)
		if !ok {
			if n, _, ok = tokenizeStartTag(o.page, e.from); !ok {
				return false, true
			}
		}
		return (&selStep{tag: "*", attrKey: st.attrKey, attrVal: st.attrVal, classTok: st.classTok}).matches(n), false
	case st.attrKey == "id":
		return e.id[0] >= 0 && string(o.page[e.id[0]:e.id[1]]) == st.attrVal, false
	}
	return e.class[0] >= 0 && hasClassToken(o.page[e.class[0]:e.class[1]], st.classTok), false
}

// hides reports whether element k is opaque and its bytes may hold an
// element passing st, which the outline does not list.
func (o *outline) hides(k int, st *selStep) bool {
	e := &o.els[k]
	return e.opaque && bytes.Contains(o.lowered()[e.tagEnd:e.to], []byte(strings.ToLower(needleOf(st))))
}

// hasClassToken reports whether class value v holds token c.
func hasClassToken(v []byte, c string) bool {
	for tok, rest := nextToken(v); tok != nil; tok, rest = nextToken(rest) {
		if string(tok) == c {
			return true
		}
	}
	return false
}

// nextToken returns the first token of class value v (nil when none) and
// what follows it.
func nextToken(v []byte) (tok, rest []byte) {
	i := 0
	for i < len(v) && isHTMLSpace(v[i]) {
		i++
	}
	if i == len(v) {
		return nil, nil
	}
	j := i + 1
	for j < len(v) && !isHTMLSpace(v[j]) {
		j++
	}
	return v[i:j], v[j:]
}

// all returns the elements among els[from:to] that pass step st, in
// document order; false when the outline cannot tell for one of them.
func (o *outline) all(st *selStep, from, to int) ([]int, bool) {
	var out []int
	for k := from; k < to; k++ {
		if o.els[k].opaque && o.hides(k, st) {
			return nil, false
		}
		ok, unsure := o.matches(k, st)
		if unsure {
			return nil, false
		}
		if ok {
			out = append(out, k)
		}
	}
	return out, true
}

// first returns the first element among els[from:to] that passes st, or
// -1; false when the outline cannot tell.
func (o *outline) first(st *selStep, from, to int) (int, bool) {
	for k := from; k < to; k++ {
		if o.els[k].opaque && o.hides(k, st) {
			return -1, false
		}
		ok, unsure := o.matches(k, st)
		if unsure {
			return -1, false
		}
		if ok {
			return k, true
		}
	}
	return -1, true
}

// within returns the index just past the last element inside element k.
func (o *outline) within(k int) int {
	end := o.els[k].to
	j := k + 1
	for j < len(o.els) && o.els[j].from < end {
		j++
	}
	return j
}

// container returns the element up levels above the nearest common
// ancestor of elements at, going further up past elements whose end is
// implied; false when the top of the page comes first or, with excluded
// set, when an element on the way up is an area the comment fallback does
// not search.
func (o *outline) container(at []int, up int, excluded bool) (int, bool) {
	c := at[0]
	for _, k := range at[1:] {
		if c = o.common(c, k); c < 0 {
			return -1, false
		}
	}
	for d := 0; ; d++ {
		if c < 0 || excluded && o.excluded(c) {
			return -1, false
		}
		if e := &o.els[c]; d >= up && e.to >= 0 && !implicitEnd[e.name] && e.from < e.tagEnd {
			break
		}
		c = o.els[c].parent
	}
	for a := o.els[c].parent; a >= 0; a = o.els[a].parent {
		if excluded && o.excluded(a) {
			return -1, false
		}
	}
	return c, true
}

// common returns the nearest common ancestor (or self) of elements a and
// b, or -1.
func (o *outline) common(a, b int) int {
	for a >= 0 && b >= 0 && a != b {
		if a > b {
			a = o.els[a].parent // a parent comes before its children
		} else {
			b = o.els[b].parent
		}
	}
	if a != b {
		return -1
	}
	return a
}

// excluded reports whether element k is an area the comment fallback
// does not search (see excludedArea).
func (o *outline) excluded(k int) bool {
	if len(o.excl) != len(o.els) {
		o.excl = append(o.excl[:0], make([]int8, len(o.els))...) // 0 unknown, 1 excluded, -1 not
	}
	if o.excl[k] == 0 {
		o.excl[k] = -1
		if o.excludes(k) {
			o.excl[k] = 1
		}
	}
	return o.excl[k] > 0
}

// excludes is excluded, without the memo.
func (o *outline) excludes(k int) bool {
	e := &o.els[k]
	switch e.name {
	case "aside", "nav", "form", "select", "head", "svg", "object", "template", "iframe":
		return true // excluded, or skipped by the fallback's walk
	}
	if e.odd {
		return true // the values need unescaping: assume the worst
	}
	for _, v := range [...][2]int32{e.id, e.class} {
		if v[0] < 0 || v[1] <= v[0] {
			continue
		}
		if val := o.page[v[0]:v[1]]; !isASCIIBytes(val) {
			if hasExcludedHint(string(val)) {
				return true
			}
		} else if hasExcludedHintLower(o.fold(int(v[0]), int(v[1]))) {
			return true
		}
	}
	return false
}

// commentMarkers returns the elements that carry a comment system's
// markup (isCommentMarker) outside the areas the comment fallback does not
// search, in document order; false when the page may hold comments the
// outline cannot judge: JSON-LD mentioning comments, or inlined iframes.
func (o *outline) commentMarkers() ([]int, bool) {
	if o.inlinedFrames {
		return nil, false
	}
	var out []int
	var scratch html.Node
	for k := range o.els {
		e := &o.els[k]
		if e.name == "script" && bytes.Contains(o.fold(e.from, e.tagEnd), []byte("ld+json")) &&
			bytes.Contains(o.fold(e.tagEnd, e.to), []byte("comment")) {
			return nil, false
		}
		if e.opaque && mayHoldComments(o.lowered()[e.tagEnd:e.to]) && !o.inExcluded(k) {
			return nil, false // markers the outline does not list
		}
		if e.foreign || !e.mark {
			continue
		}
		marker, ok := o.isMarker(k, &scratch)
		if !ok {
			return nil, false
		}
		if marker && !o.inExcluded(k) {
			out = append(out, k)
		}
	}
	return out, true
}

// isMarker reports whether element k passes isCommentMarker, reading its
// id, class and itemtype in the page when they are ASCII, else through a
// node (markerNode); false when the node cannot be made.
func (o *outline) isMarker(k int, scratch *html.Node) (bool, bool) {
	e := &o.els[k]
	if e.odd || !o.asciiValue(e.id) || !o.asciiValue(e.itemtype) {
		n, ok := o.markerNode(k, scratch)
		return ok && isCommentMarker(n), ok
	}
	if e.id[0] < 0 && e.class[0] < 0 && e.itemtype[0] < 0 {
		return false, true // no attribute isCommentMarker reads
	}
	if id := o.foldValue(e.id); bytes.Contains(id, []byte("comment")) && isCommentID(string(id)) {
		return true, true
	}
	if it := o.foldValue(e.itemtype); bytes.Contains(it, []byte("schema.org/comment")) || bytes.Contains(it, []byte("schema.org/usercomments")) {
		return true, true
	}
	return markerClass(o.value(o.page, e.class), e.name), true
}

// markerClass reports whether class value v holds a class token of
// comment markup: dsq-comment, comment-block, p-comment or h-cite, or,
// when name (the element's) is one of commentTags, comment or Comment. Its
// tokens are read once.
func markerClass(v []byte, name string) bool {
	for tok, rest := nextToken(v); tok != nil; tok, rest = nextToken(rest) {
		switch string(tok) {
		case "dsq-comment", "comment-block", "p-comment", "h-cite":
			return true
		case "comment", "Comment":
			if commentTags[name] {
				return true
			}
		}
	}
	return false
}

// foldValue returns the attribute value at v (none: [-1, -1]) lower-cased
// (fold), nil for none.
func (o *outline) foldValue(v [2]int32) []byte {
	if v[0] < 0 {
		return nil
	}
	return o.fold(int(v[0]), int(v[1]))
}

// asciiValue reports whether the attribute value at v (none: [-1, -1])
// is ASCII, so that its ASCII lower-casing is its case folding.
func (o *outline) asciiValue(v [2]int32) bool { return v[0] < 0 || isASCIIBytes(o.page[v[0]:v[1]]) }

// value returns the bytes of the attribute value at v in b (the page or
// lower), nil for none.
func (o *outline) value(b []byte, v [2]int32) []byte {
	if v[0] < 0 {
		return nil
	}
	return b[v[0]:v[1]]
}

// markerNode returns a node with element k's name, id, class and
// itemtype, the attributes isCommentMarker reads; it is scratch, reused
// from one call to the next, unless the tag must be read by the
// tokenizer.
func (o *outline) markerNode(k int, scratch *html.Node) (*html.Node, bool) {
	e := &o.els[k]
	if e.odd {
		n, _, ok := tokenizeStartTag(o.page, e.from)
		return n, ok
	}
	attrs := scratch.Attr[:0]
	*scratch = html.Node{Type: html.ElementNode, Data: e.name}
	for _, a := range [...]struct {
		key string
		v   [2]int32
	}{{"id", e.id}, {"class", e.class}, {"itemtype", e.itemtype}} {
		if a.v[0] >= 0 {
			attrs = append(attrs, html.Attribute{Key: a.key, Val: string(o.page[a.v[0]:a.v[1]])})
		}
	}
	if len(attrs) > 0 {
		scratch.Attr = attrs
	}
	return scratch, true
}

// inExcluded reports whether element k or an ancestor is an area the
// comment fallback does not search, or k lies in the page's head.
func (o *outline) inExcluded(k int) bool {
	if o.bodyAt >= 0 && o.els[k].from < o.bodyAt {
		return true
	}
	for a := k; a >= 0; a = o.els[a].parent {
		if o.excluded(a) {
			return true
		}
	}
	return false
}
