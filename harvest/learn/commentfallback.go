package learn

import (
	"bytes"
	"net/url"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/platform"
	"github.com/blogharvest/blogharvest/harvest/textsim"
	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest/harvest/htmlnode"
)

// This file is the comment fallback: finding a page's comments without a
// learned rule, for blogs that have no comment feed to learn from (comments
// loaded by JavaScript, embedded threads) or whose rule finds nothing.
//
// Comment elements are recognised first by the markup comment systems share
// (markers): ids like comment-42, the class token comment on a block
// element, Disqus's dsq-comment, Blogger's comment-block, schema.org Comment
// microdata, the microformats p-comment and h-cite. When no marker is found,
// a structural detector looks for repeated records: sibling elements with
// the same tag and first class token of which at least two each hold an
// author-like element, a date-like element and a text block, and no
// heading or form. Areas that list other things — sidebars, "recent
// comments" and related-post widgets, navigation — are never searched.
// Last, schema.org Comment objects of the page's JSON-LD are read (see
// commentfallback_ld.go). Nesting of comment elements gives each comment's
// parent, as for learned rules.

// fallbackComments extracts the page's comments with the fallback and
// records MethodHeuristic; it leaves the extraction alone when it finds
// none.
func (e *extractor) fallbackComments() {
	elems, recs := findCommentElements(e.root)
	var out []Comment
	if len(elems) > 0 {
		out = e.heuristicComments(elems, recs)
	} else {
		out = ldComments(e.fb.data().commentScripts, e.page.Lang)
	}
	if len(out) == 0 {
		return
	}
	e.x.Comments = out
	e.x.Methods.Set(FieldComments, blogharvest.MethodHeuristic)
}

// heuristicComments extracts one comment per element and sets parents
// from their nesting. recs, when not nil, are the elements' records, read
// with the elements as the nested comments.
func (e *extractor) heuristicComments(elems []*html.Node, recs []record) []Comment {
	if recs == nil {
		isElem := make(map[*html.Node]bool, len(elems))
		for _, el := range elems {
			isElem[el] = true
		}
		recs = make([]record, len(elems))
		for k, el := range elems {
			recs[k] = readRecord(el, isElem)
		}
	}
	out := make([]Comment, len(elems))
	urls := newFragmentURL(e.base)
	for k := range elems {
		out[k] = e.heuristicComment(recs[k], &urls)
	}
	setParents(out, elems)
	replyParents(out, elems) // flat replies naming their parent (commentrepeat.go)
	return out
}

// heuristicComment turns one comment record into a Comment.
func (e *extractor) heuristicComment(r record, urls *fragmentURL) Comment {
	c := Comment{ID: recordID(r.elem)}
	if r.author != nil {
		c.Author = textsim.CleanAuthor(nodeText(r.author))
	}
	if r.date != nil {
		if t, p, ok := nodeDatePrec(r.date, "", e.page.Lang); ok {
			c.Date, c.DatePrecision = inOffset(t, p, e.rules.dateRule())
		}
	}
	body := r.ownBody() // the record's own copy: cleaning it changes no other
	cleanNode(body, e.base)
	c.ContentHTML = innerHTML(body)
	c.ContentText = nodeText(body)
	c.URL = urls.with(c.ID)
	if c.ID == "" {
		c.ID = digestID(c.Author, c.ContentText)
	}
	return c
}

// fragmentURL makes the page URL with a fragment, the rest of it written
// once.
type fragmentURL struct {
	base   *url.URL
	prefix string // base without its fragment, when it has no raw one
}

// newFragmentURL returns the fragmentURL of the page URL base (nil: none).
func newFragmentURL(base *url.URL) fragmentURL {
	f := fragmentURL{base: base}
	if base != nil && base.RawFragment == "" {
		u := *base
		u.Fragment = ""
		f.prefix = u.String()
	}
	return f
}

// with returns the page URL with fragment id, as url.URL's String writes
// it, or "" without an id.
func (f *fragmentURL) with(id string) string {
	if id == "" || f.base == nil {
		return ""
	}
	if f.base.RawFragment != "" { // String may write it rather than id escaped
		u := *f.base
		u.Fragment = id
		return u.String()
	}
	return f.prefix + "#" + (&url.URL{Fragment: id}).EscapedFragment()
}

// findCommentElements returns the page's comment elements in document
// order: those the markers find, else the structural detector's; and,
// when already read, their records (else nil).
func findCommentElements(root *html.Node) ([]*html.Node, []record) {
	if elems, recs := markedComments(root); len(elems) > 0 {
		return elems, recs
	}
	return repeatedRecords(root), nil
}

// commentTags are the elements that the class token comment marks as a
// comment (not a span saying "3 comments").
var commentTags = map[string]bool{"li": true, "article": true, "div": true, "section": true, "dd": true, "blockquote": true, "tr": true}

// isCommentMarker reports whether n carries a comment system's markup.
func isCommentMarker(n *html.Node) bool {
	return len(n.Attr) > 0 && markerAttrsOf(n).isMarker(n.Data)
}

// markerAttrs are the attributes markers and excluded areas are read
// from: as attr reads them, the first of each key without namespace.
type markerAttrs struct {
	id, class, itemtype string
}

// markerAttrsOf reads n's markerAttrs in one pass over its attributes.
func markerAttrsOf(n *html.Node) markerAttrs {
	var m markerAttrs
	var seen [3]bool
	for _, a := range n.Attr {
		if a.Namespace != "" {
			continue
		}
		switch a.Key {
		case "id":
			if !seen[0] {
				m.id, seen[0] = a.Val, true
			}
		case "class":
			if !seen[1] {
				m.class, seen[1] = a.Val, true
			}
		case "itemtype":
			if !seen[2] {
				m.itemtype, seen[2] = a.Val, true
			}
		}
	}
	return m
}

// isMarker reports whether an element named tag with these attributes
// carries a comment system's markup, as the platform table describes it.
func (m markerAttrs) isMarker(tag string) bool {
	if platform.IsCommentID(m.id) || platform.IsCommentItemType(m.itemtype) {
		return true
	}
	for tok := range strings.FieldsFuncSeq(m.class, isHTMLSpaceRune) {
		if platform.IsCommentClass(tok, commentTags[tag]) {
			return true
		}
	}
	return false
}

// isHTMLSpaceRune is isHTMLSpace of a rune.
func isHTMLSpaceRune(r rune) bool { return r < utf8.RuneSelf && isHTMLSpace(byte(r)) }

// excludedArea reports whether n lists things other than the post's
// comments: navigation, sidebars, recent-comment and related-post widgets.
func excludedArea(n *html.Node) bool {
	return excludedTag(n.Data) || len(n.Attr) > 0 && markerAttrsOf(n).excluded()
}

// excludedTag reports whether elements named tag are excluded areas.
func excludedTag(tag string) bool {
	switch tag {
	case "aside", "nav", "form", "select", "head":
		return true
	}
	return false
}

// excluded reports whether an id or class of these attributes names an
// excluded area.
func (m markerAttrs) excluded() bool {
	return hasExcludedHint(m.id) || hasExcludedHint(m.class)
}

// hasExcludedHint reports whether an id or class, case-folded, holds one
// of excludedHints (which have no spaces, so id and class can be tested
// apart).
func hasExcludedHint(v string) bool { return excludedHintSet().in(v) }

// hintSet finds words in attribute values: a quicker strings.Contains of
// each, on the value case-folded.
type hintSet struct {
	by    [256][][]byte  // the words by their first byte
	byStr [256][]string  // the same, as strings
	next  [128][2]uint64 // by a word's first byte, the set of its second bytes
	first [256]uint8     // hintFirst for a word's first byte in either case, hintOther for non-ASCII bytes
}

// Kinds of bytes in hintSet.first; other bytes start no word.
const (
	hintFirst = 1 + iota // a word's first byte, in either case
	hintOther            // a non-ASCII byte: the value is folded as strings.ToLower folds it
)

// newHintSet returns the hintSet of words: lower-case ASCII, two bytes or
// more.
func newHintSet(words []string) *hintSet {
	h := new(hintSet)
	for _, w := range words {
		h.by[w[0]] = append(h.by[w[0]], []byte(w))
		h.byStr[w[0]] = append(h.byStr[w[0]], w)
		h.next[w[0]][w[1]>>6] |= 1 << (w[1] & 63)
		h.first[w[0]] = hintFirst
		if w[0] >= 'a' && w[0] <= 'z' {
			h.first[w[0]-'a'+'A'] = hintFirst
		}
	}
	for c := utf8.RuneSelf; c < 256; c++ {
		h.first[c] = hintOther
	}
	return h
}

// in reports whether v, case-folded as strings.ToLower does, holds one
// of the words; ASCII values are folded as they are read, and only where
// a word's first two bytes are.
func (h *hintSet) in(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch h.first[c] {
		case 0:
			continue // no word starts here
		case hintOther:
			return h.inLower([]byte(strings.ToLower(v))) // a word found before would be found there too
		}
		if i+1 == len(v) {
			break // no word of two bytes starts here
		}
		d := v[i+1]
		if d >= utf8.RuneSelf {
			continue // no word's second byte; the next turn reads it
		}
		c, d = foldASCII(c), foldASCII(d)
		if h.next[c][d>>6]&(1<<(d&63)) == 0 {
			continue
		}
		for _, w := range h.byStr[c] {
			if hasFoldedPrefix(v[i:], w) {
				return true
			}
		}
	}
	return false
}

// foldASCII returns an ASCII byte case-folded.
func foldASCII(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasFoldedPrefix reports whether v starts with the lower-case ASCII word
// w, ASCII letters of v case-folded.
func hasFoldedPrefix(v, w string) bool {
	if len(v) < len(w) {
		return false
	}
	for j := 0; j < len(w); j++ {
		if foldASCII(v[j]) != w[j] {
			return false
		}
	}
	return true
}

// inLowerString is inLower of a string.
func (h *hintSet) inLowerString(v string) bool {
	for i := 0; i < len(v); i++ {
		for _, w := range h.byStr[v[i]] {
			if strings.HasPrefix(v[i:], w) {
				return true
			}
		}
	}
	return false
}

// inLower reports whether a case-folded value holds one of the words.
func (h *hintSet) inLower(v []byte) bool {
	for i, c := range v {
		for _, w := range h.by[c] {
			if bytes.HasPrefix(v[i:], w) {
				return true
			}
		}
	}
	return false
}

// excludedHints are id and class fragments of areas that are not the
// post's comments.
var excludedHints = []string{"sidebar", "recent", "related", "popular", "breadcrumb", "yarpp", "similar-posts", "more-posts", "latest", "blogroll", "top-comment", "trending"}

// excludedHintSet finds excludedHints. The hint sets are built at their
// first use, not at init (every command would pay for them).
var excludedHintSet = sync.OnceValue(func() *hintSet { return newHintSet(excludedHints) })

// markedComments returns the elements the markers find, outside excluded
// areas, without mere wrappers of another marked element, keeping those
// that read as comments; and, when it kept every element found, their
// records, read with them as the nested comments (else nil).
func markedComments(root *html.Node) ([]*html.Node, []record) {
	var found []*html.Node
	walkElements(root, func(n *html.Node) bool {
		if skipped(n) || excludedTag(n.Data) {
			return false
		}
		if len(n.Attr) == 0 {
			return true
		}
		m := markerAttrsOf(n) // read once for excludedArea and isCommentMarker
		if m.excluded() {
			return false
		}
		if m.isMarker(n.Data) {
			found = append(found, n)
		}
		return true
	})
	if len(found) == 0 {
		return nil, nil
	}
	isMarked := make(map[*html.Node]bool, len(found))
	for _, n := range found {
		isMarked[n] = true
	}
	var out []*html.Node
	var recs []record
	for _, n := range found {
		if isWrapper(n, isMarked) {
			continue
		}
		if r := readRecord(n, isMarked); r.isComment(false) {
			out, recs = append(out, n), append(recs, r)
		}
	}
	if len(out) < len(found) && droppedInside(found, out) {
		recs = nil // read with other nested comments than the kept ones
	}
	return out, recs
}

// droppedInside reports whether an element of found that is not kept lies
// inside a kept one: only then were the kept ones' records read with other
// nested comments than the kept ones (a record skips the comments nested
// in its element).
func droppedInside(found, kept []*html.Node) bool {
	isKept := make(map[*html.Node]bool, len(kept))
	for _, n := range kept {
		isKept[n] = true
	}
	for _, n := range found {
		if !isKept[n] && insideAny(n, isKept) {
			return true
		}
	}
	return false
}

// isWrapper reports whether marked element n holds another marked element
// and almost no text of its own (WordPress's <li class="comment"> around
// <article id="div-comment-4">): the inner element is the comment.
func isWrapper(n *html.Node, isMarked map[*html.Node]bool) bool {
	inner := false
	walkElements(n, func(c *html.Node) bool {
		if c != n && isMarked[c] {
			inner = true
		}
		return !inner
	})
	if !inner {
		return false
	}
	return len(textWithout(n, func(c *html.Node) bool { return c.Type == html.ElementNode && isMarked[c] })) <= 40
}

// textWithout returns nodeText(cloneTree(n, skip)) without making the
// copy.
func textWithout(n *html.Node, skip func(*html.Node) bool) string {
	if n.Type == html.TextNode {
		return textsim.Collapse(n.Data)
	}
	var w spaceWriter
	writeTextWithout(&w, n, skip)
	return string(w.b)
}

// recordTags are the elements a repeated comment record can be.
var recordTags = map[string]bool{"li": true, "article": true, "div": true, "section": true, "dd": true, "tr": true, "blockquote": true}

// repeatedRecords is the structural detector: among the children of each
// element, those with the same signature (tag and first class token) form
// a group; a group of which at least two members, and two thirds, read as
// comments (author, date and text; no heading or form) is a comment list.
// Replies, alone in their nested lists, are kept when their signature is
// one of a comment list's and they lie inside one of its comments.
func repeatedRecords(root *html.Node) []*html.Node {
	var found []*html.Node
	listed := map[string]bool{}
	walkElements(root, func(n *html.Node) bool {
		if skipped(n) || excludedArea(n) {
			return false
		}
		for sig, members := range childGroups(n) {
			if len(members) >= 2 {
				if ok := commentGroup(members); len(ok) >= 2 && 3*len(ok) >= 2*len(members) {
					found = append(found, ok...)
					listed[sig] = true
				}
			}
		}
		return true
	})
	if len(found) == 0 {
		return nil
	}
	return withReplies(root, found, listed)
}

// childGroups groups the record-like element children of n by signature;
// it is nil when there are fewer than two, which make no group of two.
func childGroups(n *html.Node) map[string][]*html.Node {
	return childGroupsBy(n, signature)
}

// childGroupsBy is childGroups with the children keyed by sig.
func childGroupsBy(n *html.Node, sig func(*html.Node) string) map[string][]*html.Node {
	if !twoRecordLike(n) {
		return nil
	}
	groups := map[string][]*html.Node{}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if !recordLike(c) {
			continue
		}
		key := sig(c)
		groups[key] = append(groups[key], c)
	}
	return groups
}

// recordLike reports whether node c may be a record: an element of
// recordTags with children.
func recordLike(c *html.Node) bool {
	return c.Type == html.ElementNode && recordTags[c.Data] && c.FirstChild != nil
}

// twoRecordLike reports whether n has two record-like children.
func twoRecordLike(n *html.Node) bool {
	found := 0
	for c := n.FirstChild; c != nil && found < 2; c = c.NextSibling {
		if recordLike(c) {
			found++
		}
	}
	return found == 2
}

// signature returns an element's tag and first class token, digits
// dropped (comment-42 and comment-43 alike).
func signature(n *html.Node) string {
	return n.Data + "." + signatureClass(n)
}

// signatureClass returns the class part of n's signature: its first class
// token, digits dropped.
func signatureClass(n *html.Node) string {
	for f := range strings.FieldsSeq(htmlnode.Attr(n, "class")) {
		return strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return -1
			}
			return r
		}, f)
	}
	return ""
}

// commentGroup returns the members of a sibling group that read as
// comments, each read without the same-signature records nested in it.
func commentGroup(members []*html.Node) []*html.Node {
	var ok []*html.Node
	for _, m := range members {
		if hasAuthorHint(m) && readsAsComment(m) {
			ok = append(ok, m)
		}
	}
	return ok
}

// readsAsComment reports whether the record of m, read without the
// same-signature records nested in it, is strictly a comment's.
func readsAsComment(m *html.Node) bool {
	r := readRecord(m, sameSignature(m))
	return r.isComment(true)
}

// hasAuthorHint reports whether an element under m has an author hint: a
// cheap test before reading a record, whose dates are costly to parse.
func hasAuthorHint(m *html.Node) bool {
	found := false
	walkElements(m, func(c *html.Node) bool {
		found = found || c != m && authorRankOf(c) <= len(authorHints)
		return !found && !skipped(c)
	})
	return found
}

// sameSignature returns the descendants of m with m's signature (nil
// when there are none).
func sameSignature(m *html.Node) map[*html.Node]bool {
	return sameSignatureBy(m, signature)
}

// sameSignatureBy is sameSignature with the signature sig.
func sameSignatureBy(m *html.Node, sig func(*html.Node) string) map[*html.Node]bool {
	key := sig(m)
	var out map[*html.Node]bool
	walkElements(m, func(c *html.Node) bool {
		if c != m && sig(c) == key {
			if out == nil {
				out = map[*html.Node]bool{}
			}
			out[c] = true
		}
		return true
	})
	return out
}

// withReplies adds to the comments found the records of a listed
// signature nested in them, and returns all in document order.
func withReplies(root *html.Node, found []*html.Node, listed map[string]bool) []*html.Node {
	in := make(map[*html.Node]bool, len(found))
	for _, n := range found {
		in[n] = true
	}
	var out []*html.Node
	walkElements(root, func(n *html.Node) bool {
		switch {
		case in[n]:
			out = append(out, n)
		case listed[signature(n)] && insideAny(n, in) && readsAsComment(n):
			in[n] = true
			out = append(out, n)
		}
		return true
	})
	return out
}

// insideAny reports whether an ancestor of n is in set.
func insideAny(n *html.Node, set map[*html.Node]bool) bool {
	for a := n.Parent; a != nil; a = a.Parent {
		if set[a] {
			return true
		}
	}
	return false
}
