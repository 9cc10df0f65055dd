package learn

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"sync"

	"github.com/blogharvest/blogharvest/harvest/platform"
	"github.com/blogharvest/blogharvest/harvest/textsim"
	"github.com/blogharvest/blogharvest/internal/lazyregexp"
	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest/harvest/htmlnode"
)

// record is one comment-like element and the parts found in it, outside
// the comments nested in it: the author's name, the date and the text.
type record struct {
	elem   *html.Node
	author *html.Node
	date   *html.Node
	body   *html.Node // the element with a body hint, or nil: the rest is the text
	nested func(*html.Node) bool
	heavy  bool       // holds a form, or a heading outside its body: a post or a comment form
	own    *html.Node // bodyNode's copy, once made (ownBody)
}

// readRecord finds the parts of comment element el; nested reports the
// elements of other comments inside it. The body is the first element
// with the best body hint (bodyRank) that does not hold the author. An
// element whose content no reader sees (a <template>, skipped) has no
// parts.
func readRecord(el *html.Node, nested map[*html.Node]bool) record {
	rd := recordReader{r: record{elem: el, nested: func(n *html.Node) bool { return n != el && nested[n] }}}
	if skipped(el) {
		return rd.r
	}
	for c := el.FirstChild; c != nil; c = c.NextSibling {
		rd.walk(c)
	}
	r := rd.r
	r.author = rd.pickAuthor()
	best := 3
	for _, b := range rd.bodies {
		if k := bodyRank(b); k < best && (r.author == nil || !isInside(r.author, b)) && hasText(b) {
			r.body, best = b, k
		}
	}
	for _, h := range rd.heads {
		if r.body == nil || !isInside(h, r.body) {
			r.heavy = true // headings a commenter wrote sit in the body
		}
	}
	return r
}

// hasText reports whether nodeText(n) != "", without making the text.
func hasText(n *html.Node) bool {
	switch n.Type {
	case html.TextNode:
		for _, r := range n.Data {
			if !textsim.IsSpace(r) {
				return true
			}
		}
		return false
	case html.ElementNode:
		if skipped(n) {
			return false
		}
	case html.CommentNode:
		return false
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if hasText(c) {
			return true
		}
	}
	return false
}

// recordReader gathers a record's parts in one walk of its element.
type recordReader struct {
	r       record
	authors []authorCandidate // elements with an author hint, in document order
	bodies  []*html.Node
	heads   []*html.Node
}

// authorCandidate is an element with an author hint and its rank.
type authorCandidate struct {
	n    *html.Node
	rank int
}

// walk visits n and the elements under it that belong to the record.
// The date is the first element, children before parents, that reads as
// one (isDateLike): the same as taking the first in document order, then
// the first inside it, and so on while there is one (the deepest: a
// <time> rather than the meta line around it), without reading the meta
// lines' texts.
func (rd *recordReader) walk(n *html.Node) {
	if n.Type == html.ElementNode {
		if rd.r.nested(n) || skipped(n) {
			return
		}
		rd.visit(n)
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		rd.walk(c)
	}
	if rd.r.date == nil && n.Type == html.ElementNode && isDateLike(n) {
		rd.r.date = n
	}
}

// visit looks at one element of a record for an author, a body, and
// headings or forms.
func (rd *recordReader) visit(n *html.Node) {
	switch n.Data {
	case "form", "textarea":
		rd.r.heavy = true
	case "h1", "h2", "h3":
		rd.heads = append(rd.heads, n)
	}
	if k := authorRankOf(n); k <= len(authorHints) {
		rd.authors = append(rd.authors, authorCandidate{n, k})
	}
	if isBodyLike(n) {
		rd.bodies = append(rd.bodies, n)
	}
}

// pickAuthor returns the name in the best-ranked author candidate that
// holds one (nameIn), the first in document order among equals, or nil.
func (rd *recordReader) pickAuthor() *html.Node {
	for tried := 0; tried < len(rd.authors); tried++ {
		best := -1
		for k, c := range rd.authors {
			if c.n != nil && (best < 0 || c.rank < rd.authors[best].rank) {
				best = k
			}
		}
		if a := nameIn(rd.authors[best].n); a != nil {
			return a
		}
		rd.authors[best].n = nil
	}
	return nil
}

// authorHints are, most specific first, fragments of the class, itemprop
// or rel of an element holding a commenter's name.
var authorHints = []string{"fn", "p-author", "p-name", "nickname", "nick", "comment-author", "author", "username", "user", "commenter", "poster", "name", "who", "byline"}

// authorHintSet finds any of authorHints in a token.
var authorHintSet = sync.OnceValue(func() *hintSet { return newHintSet(authorHints) })

// citeRank is the rank of a <cite>, after the hints naming an author.
const citeRank = 9

// authorRankOf returns the rank of the first author hint n matches
// (cite elements rank with "commenter"), or past the end.
func authorRankOf(n *html.Node) int {
	best := len(authorHints) + 1
	for _, a := range n.Attr {
		switch a.Key {
		case "class", "itemprop", "rel", "id":
		default:
			continue
		}
		if a.Namespace != "" || a.Val == "" || !authorHintSet().in(a.Val) || htmlnode.Attr(n, a.Key) != a.Val {
			continue // as attr reads it: the first, without namespace; or no token holds a hint
		}
		for tok := range strings.FieldsSeq(strings.ToLower(a.Val)) {
			best = authorTokenRank(tok, best)
		}
	}
	if n.Data == "cite" && best > citeRank {
		best = citeRank
	}
	return best
}

// authorTokenRank returns the rank of the first author hint of one
// lower-cased token when it is below best, else best.
func authorTokenRank(tok string, best int) int {
	if !authorHintSet().inLowerString(tok) {
		return best // no hint in it: it can equal none, nor contain one
	}
	for k, h := range authorHints[:min(best, len(authorHints))] {
		if tok == h || k >= 4 && strings.Contains(tok, h) && !strings.Contains(tok, "avatar") && !strings.Contains(tok, "url") {
			return k
		}
	}
	return best
}

// isDateLike reports whether n looks like a comment's date and reads as
// one: a time element, a date attribute, or a date hint in its class,
// itemprop or id, with a machine-readable date attribute or a short text
// holding a calendar date (relative dates, "3 hours ago", are not).
func isDateLike(n *html.Node) bool {
	hinted := n.Data == "time" || htmlnode.Attr(n, "datetime") != ""
	for _, k := range []string{"class", "itemprop", "id"} {
		hinted = hinted || hasDateHint(htmlnode.Attr(n, k))
	}
	if !hinted {
		return false
	}
	for _, k := range dateAttrs {
		if _, ok := parseMachineDate(htmlnode.Attr(n, k)); ok {
			return true
		}
	}
	t := nodeText(n) // a short line only, parsed without go-dateparser, which is costly
	if len(t) > 48 || !strings.ContainsAny(t, "0123456789") {
		return false
	}
	if _, ok := parseMachineDate(t); ok {
		return true
	}
	_, ok := quickDate(t, "")
	return ok
}

// hasDateHint reports whether an attribute value, case-folded, holds a
// word of dates (the words have no spaces, so values can be tested apart).
func hasDateHint(v string) bool {
	return v != "" && dateHintSet().in(v)
}

// dateHintSet finds the words of dates hasDateHint looks for.
var dateHintSet = sync.OnceValue(func() *hintSet {
	return newHintSet([]string{"date", "time", "published", "posted", "when", "meta"})
})

// bodyRank ranks a body-like element: 0 for microdata and microformats
// (itemprop text, e-content), 1 for a class naming a comment's text or
// message, 2 for any other content, body or text class.
func bodyRank(n *html.Node) int {
	class := strings.ToLower(htmlnode.Attr(n, "class"))
	switch {
	case htmlnode.Attr(n, "itemprop") != "" || hasClass(n, "e-content") || hasClass(n, "p-content"):
		return 0
	case strings.Contains(class, "comment") || strings.Contains(class, "message"):
		return 1
	}
	return 2
}

// isBodyLike reports whether n's class or itemprop marks a comment's text.
func isBodyLike(n *html.Node) bool {
	if p := htmlnode.Attr(n, "itemprop"); p != "" {
		if p = strings.ToLower(p); p == "text" || p == "commenttext" || p == "description" {
			return true
		}
	}
	class := htmlnode.Attr(n, "class")
	if !bodyHintSet().in(class) {
		return false // no token holds a body hint
	}
	for tok := range strings.FieldsSeq(strings.ToLower(class)) {
		if strings.Contains(tok, "author") || strings.Contains(tok, "meta") || strings.Contains(tok, "avatar") || utilityClassRe.MatchString(tok) {
			continue
		}
		for _, h := range []string{"content", "body", "text", "message"} {
			if strings.Contains(tok, h) {
				return true
			}
		}
	}
	return false
}

// utilityClassRe matches the class tokens of utility-first CSS
// frameworks that hold a body hint's word but style any element: text
// size, alignment, wrapping and colour (text-sm, md:text-center,
// text-gray-500), align-content (content-center).
var utilityClassRe = lazyregexp.New(`^(?:[a-z0-9-]+:)*(?:text-(?:xs|sm|base|lg|\d?xl|left|right|center|justify|start|end|wrap|nowrap|balance|pretty|ellipsis|clip|white|black|transparent|current|inherit|[a-z]+-\d{2,3}(?:/\d+)?)|content-(?:center|start|end|between|around|evenly|baseline|stretch|none|normal))$`)

// bodyHintSet finds the words of isBodyLike's body hints.
var bodyHintSet = sync.OnceValue(func() *hintSet { return newHintSet([]string{"content", "body", "text", "message"}) })

// isComment reports whether the record reads as a comment: some text of
// its own, no heading or form, and an author or a date (both when strict).
func (r *record) isComment(strict bool) bool {
	if r.heavy {
		return false
	}
	if strict && (r.author == nil || r.date == nil) || r.author == nil && r.date == nil {
		return false
	}
	text := nodeText(r.ownBody())
	return len(text) >= 2 && (!strict || len(text) >= 10)
}

// ownBody returns bodyNode's copy, made once: isComment reads its text,
// heuristicComment cleans it.
func (r *record) ownBody() *html.Node {
	if r.own == nil {
		r.own = r.bodyNode()
	}
	return r.own
}

// bodyNode returns a copy of the comment's text: the body element, else
// the element without its author, date, nested comments and chrome (reply
// links, avatars, headers and footers).
func (r record) bodyNode() *html.Node {
	if r.body != nil {
		return cloneTree(r.body, func(n *html.Node) bool {
			return n.Type == html.ElementNode && (r.nested(n) || n == r.date || isTimeLine(n))
		})
	}
	return cloneTree(r.elem, func(n *html.Node) bool {
		return n.Type == html.ElementNode && (r.nested(n) || n == r.author || n == r.date || isChrome(n) ||
			r.author != nil && isInside(r.author, n) || r.date != nil && isInside(r.date, n))
	})
}

// isChrome reports whether n is part of a comment's frame rather than its
// text.
func isChrome(n *html.Node) bool {
	switch n.Data {
	case "header", "footer", "img", "button", "form":
		return true
	}
	hints := strings.ToLower(htmlnode.Attr(n, "class"))
	for _, h := range []string{"reply", "avatar", "meta", "action", "vote", "share"} {
		if strings.Contains(hints, h) {
			return true
		}
	}
	return false
}

// recordID returns the id of a comment element, else the comment id of
// one of its child elements, else one made of its data-comment-id or
// data-id attribute, else "".
func recordID(el *html.Node) string {
	if id := htmlnode.Attr(el, "id"); id != "" {
		return anchorID(el, id)
	}
	for c := el.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && platform.IsCommentID(htmlnode.Attr(c, "id")) {
			return htmlnode.Attr(c, "id")
		}
	}
	for _, k := range []string{"data-comment-id", "data-id"} {
		if v := htmlnode.Attr(el, k); v != "" {
			return "comment-" + v
		}
	}
	return ""
}

// digestID returns an id made of the comment's author and text.
func digestID(author, text string) string {
	sum := sha256.Sum256([]byte(author + "\x00" + text))
	return "c-" + hex.EncodeToString(sum[:6])
}

// isTimeLine reports whether n is a short line with a date or time class
// ("3 minutes ago"), which is not part of a comment's text.
func isTimeLine(n *html.Node) bool {
	class := strings.ToLower(htmlnode.Attr(n, "class"))
	return (strings.Contains(class, "time") || strings.Contains(class, "date")) && len(nodeText(n)) <= 40
}

// nameIn returns n when its text is short enough to be a name, else its
// first link that is (a profile link in a long author box), or nil.
func nameIn(n *html.Node) *html.Node {
	if isName(nodeText(n)) {
		return n
	}
	var link *html.Node
	walkElements(n, func(c *html.Node) bool {
		if link == nil && c.Data == "a" && isName(nodeText(c)) {
			link = c
		}
		return link == nil
	})
	return link
}

// isName reports whether s is short enough to be a commenter's name.
func isName(s string) bool {
	return s != "" && len(s) <= 80 && len(strings.Fields(s)) <= 8
}
