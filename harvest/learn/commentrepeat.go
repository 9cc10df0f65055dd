package learn

import (
	"bytes"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"

	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest/harvest/htmlnode"

	"github.com/blogharvest/blogharvest"
	xnethtml "github.com/blogharvest/blogharvest/internal/xnet/html"
)

// This file finds the comments of a rendered page, or of the document of
// one of its frames, drawn by a comment system nobody wrote a rule or a
// marker for. The comment fallback's markers and structural detector
// (commentfallback.go) are tried first; when they find nothing, a looser
// structural detector looks for repeated sibling structures (same tag and
// first class token, two or more) each with an author-like part (an
// element with an author hint, else a heading, bold text or link holding a
// short name), a date-like part (a date hint, else any element whose
// title, datetime or data attribute or short text reads as a calendar
// date: "29 Aug 2022 18:23" in a tooltip over "3 years ago") and a text
// of its own. Replies come from nesting, or from a reply attribute
// (data-parent, data-reply-to, …) naming another comment's id.
//
// Siblings are grouped by tag and first class token first; when that
// finds nothing, by structure: tag and the whole set of class tokens. A
// page styled with utility classes ("flex items-center gap-2") gives the
// comment, its header row and its button row one first token, so that
// the rows read as replies nested in the comment and the comment loses
// its author and date; the whole class set tells them apart. A comment
// whose own link points at a fragment naming its element's id
// (#app-comments-<id>) has that link as its permalink.

// RenderedComments returns the comments of p, the DOM of a rendered page
// or frame, found without learned rules: by the comment fallback, else by
// repeated structures with an author-like, a date-like and a body-like
// part. It returns nil when it finds none.
func RenderedComments(p Page) []Comment {
	out, _ := RenderedCommentsShaped(p, nil)
	return out
}

// RenderedCommentsShaped is RenderedComments, and says the shape of the
// records the loose detector found repeated ("" when the markers found
// them, or nothing repeats). When nothing is found that way, single
// records of one of shapes (the shapes other rendered pages of the blog
// repeated) are read: a thread of one comment repeats nothing.
func RenderedCommentsShaped(p Page, shapes []string) ([]Comment, string) {
	root, err := xnethtml.Parse(bytes.NewReader(p.HTML))
	if err != nil {
		return nil, ""
	}
	e := &extractor{root: root, page: p, base: parseBase(p.URL)}
	if elems, recs := findCommentElements(root); len(elems) > 0 {
		if out := e.heuristicComments(elems, recs); len(out) > 0 {
			return out, ""
		}
	}
	elems, recs, shape := looseRecords(root, p.Lang, e.base)
	if len(elems) == 0 {
		elems, recs = shapedRecords(root, p.Lang, e.base, shapes)
	}
	if len(elems) == 0 {
		return nil, ""
	}
	return e.looseComments(elems, recs), shape
}

// looseComments turns the loose detector's records into comments.
func (e *extractor) looseComments(elems []*html.Node, recs []record) []Comment {
	p := e.page
	out := e.heuristicComments(elems, recs)
	anchorPermalinks(out, recs, e.base)
	for k := range out {
		if recs[k].date == nil {
			continue
		}
		if t, prec, ok := looseDateOf(recs[k].date, p.Lang); ok {
			// not a relative date the text may hold ("3 years ago")
			out[k].Date, out[k].DatePrecision = inOffset(t, prec, e.rules.dateRule())
		}
	}
	return out
}

// signatures are the loose detector's ways of grouping siblings, by the
// prefix of the shapes they make: first class token, whole class set.
var signatures = []struct {
	prefix string
	sig    func(*html.Node) string
}{{"f:", signature}, {"s:", structuralSignature}}

// shapedRecords reads the elements of one of shapes (looseRecords's
// shape keys) that read as comments, one or more, in document order.
func shapedRecords(root *html.Node, lang string, base *url.URL, shapes []string) ([]*html.Node, []record) {
	var elems []*html.Node
	var recs []record
	for _, s := range signatures {
		for _, shape := range shapes {
			key, ok := strings.CutPrefix(shape, s.prefix)
			if !ok {
				continue
			}
			walkElements(root, func(n *html.Node) bool {
				if skipped(n) || excludedArea(n) {
					return false
				}
				if s.sig(n) == key {
					if r := readLoose(n, sameSignatureBy(n, s.sig), lang, base); r.isComment(true) {
						elems, recs = append(elems, n), append(recs, r)
					}
				}
				return true
			})
			if len(elems) > 0 {
				return elems, recs
			}
		}
	}
	return nil, nil
}

// looseRecords is the loose structural detector: groups of sibling
// elements with one signature of which at least two, and two thirds, read
// as comments by readLoose; replies with a listed signature nested in a
// found comment are added. It returns the elements in document order
// with their records.
// The shape is the grouping's prefix and the signature of the first
// record.
func looseRecords(root *html.Node, lang string, base *url.URL) ([]*html.Node, []record, string) {
	for _, s := range signatures {
		if elems, recs := looseRecordsBy(root, lang, base, s.sig); len(elems) > 0 {
			return elems, recs, s.prefix + s.sig(elems[0])
		}
	}
	return nil, nil, ""
}

// looseRecordsBy is looseRecords with siblings grouped by sig.
func looseRecordsBy(root *html.Node, lang string, base *url.URL, sig func(*html.Node) string) ([]*html.Node, []record) {
	found := map[*html.Node]record{}
	listed := map[string]bool{}
	walkElements(root, func(n *html.Node) bool {
		if skipped(n) || excludedArea(n) {
			return false
		}
		for key, members := range childGroupsBy(n, sig) {
			if len(members) < 2 {
				continue
			}
			ok := map[*html.Node]record{}
			for _, m := range members {
				if r := readLoose(m, sameSignatureBy(m, sig), lang, base); r.isComment(true) {
					ok[m] = r
				}
			}
			if len(ok) >= 2 && 3*len(ok) >= 2*len(members) {
				for m, r := range ok {
					found[m] = r
				}
				listed[key] = true
			}
		}
		return true
	})
	if len(found) == 0 {
		return nil, nil
	}
	var elems []*html.Node
	var recs []record
	walkElements(root, func(n *html.Node) bool {
		r, in := found[n]
		if !in && listed[sig(n)] && insideFound(n, found) {
			if r = readLoose(n, sameSignatureBy(n, sig), lang, base); r.isComment(true) {
				found[n], in = r, true
			}
		}
		if in {
			elems, recs = append(elems, n), append(recs, r)
		}
		return true
	})
	return elems, recs
}

// insideFound reports whether an ancestor of n is a found comment.
func insideFound(n *html.Node, found map[*html.Node]record) bool {
	for a := n.Parent; a != nil; a = a.Parent {
		if _, ok := found[a]; ok {
			return true
		}
	}
	return false
}

// readLoose reads the record of comment-like element el as readRecord
// does, then takes a heading, bold text or link holding a name as the
// author and any element with a date in an attribute or a short text as
// the date when no hint named them; a heading or form other than the
// author's outside the text makes the record heavy. A heading linking
// to a page of the site (base's host) is a title, not a name: the cards
// of a post listing are no comments.
func readLoose(el *html.Node, nested map[*html.Node]bool, lang string, base *url.URL) record {
	r := readRecord(el, nested)
	var heads []*html.Node
	heavy := false
	var named, linked *html.Node
	var dated *html.Node
	walkElements(el, func(n *html.Node) bool {
		if n != el && (r.nested(n) || skipped(n)) {
			return false
		}
		switch n.Data {
		case "form", "textarea":
			heavy = true
		case "h1", "h2", "h3", "h4", "h5", "h6":
			heads = append(heads, n)
			if named == nil && looksLikeName(nodeText(n), lang) && !linksWithin(n, base) {
				named = n
			}
		case "b", "strong":
			if named == nil && looksLikeName(nodeText(n), lang) {
				named = n
			}
		case "a":
			if linked == nil && looksLikeName(nodeText(n), lang) && !inHeading(n, el) {
				linked = n
			}
		}
		if dated == nil && n != el {
			if _, _, ok := looseDateOf(n, lang); ok {
				dated = n
			}
		}
		return true
	})
	if r.author == nil {
		r.author = named
		if r.author == nil {
			r.author = linked
		}
	}
	if r.date == nil {
		r.date = dated
	}
	for _, h := range heads {
		if h != r.author && !isInside(r.author, h) && (r.body == nil || !isInside(h, r.body)) {
			heavy = true
		}
	}
	r.heavy = heavy
	return r
}

// looksLikeName reports whether s is short enough to be a name and reads
// as one: it holds a letter and is neither a date nor a number.
func looksLikeName(s, lang string) bool {
	if !isName(s) || !strings.ContainsFunc(s, unicode.IsLetter) {
		return false
	}
	if _, ok := quickDate(s, lang); ok {
		return false
	}
	_, ok := parseMachineDate(s)
	return !ok
}

// looseDateAttrs are the attributes a rendered comment's date may hide in.
var looseDateAttrs = []string{"datetime", "title", "data-time", "data-date", "data-timestamp", "aria-label", "content"}

// looseDateOf reads a calendar date from n, with the time of day and
// zone it gives and their precision: from one of looseDateAttrs, else from
// its text when short and holding a digit. Relative dates ("3 years ago")
// are not read.
func looseDateOf(n *html.Node, lang string) (time.Time, blogharvest.Precision, bool) {
	if n.Type != html.ElementNode {
		return time.Time{}, "", false
	}
	for _, k := range looseDateAttrs {
		if v := htmlnode.Attr(n, k); v != "" && len(v) <= 64 {
			if t, p, ok := calendarDate(v, lang); ok {
				return t, p, true
			}
		}
	}
	if n.FirstChild == nil || !onlyText(n) {
		return time.Time{}, "", false
	}
	t := nodeText(n)
	if len(t) > 48 || !strings.ContainsAny(t, "0123456789") {
		return time.Time{}, "", false
	}
	return calendarDate(t, lang)
}

// onlyText reports whether n's children are text and inline elements
// only, so that its text is one line rather than a block holding others.
func onlyText(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data != "time" && c.Data != "span" && c.Data != "small" && c.Data != "a" {
			return false
		}
	}
	return true
}

// calendarDate parses a machine-readable date or a calendar date in s,
// with the time of day it gives (clockDate), without go-dateparser (which
// reads relative dates).
func calendarDate(s, lang string) (time.Time, blogharvest.Precision, bool) {
	if t, p, ok := parseMachineDatePrec(strings.TrimSpace(s)); ok {
		return t, p, true
	}
	return clockDate(s, lang)
}

// replyAttrs are attributes naming the comment a comment answers.
var replyAttrs = []string{"data-parent", "data-parent-id", "data-reply-to", "data-in-reply-to", "data-replyto"}

// replyParents sets the parent of each comment without one from a reply
// attribute of its element naming another comment: by its element's id,
// data-id or data-comment-id, or by its comment id.
func replyParents(cs []Comment, elems []*html.Node) {
	byKey := map[string]string{}
	for k, el := range elems {
		byKey[cs[k].ID] = cs[k].ID
		for _, a := range []string{"id", "data-id", "data-comment-id"} {
			if v := htmlnode.Attr(el, a); v != "" {
				byKey[v] = cs[k].ID
			}
		}
	}
	for k, el := range elems {
		if cs[k].ParentID != "" {
			continue
		}
		for _, a := range replyAttrs {
			v := htmlnode.Attr(el, a)
			if id, ok := byKey[v]; ok && v != "" && id != cs[k].ID {
				cs[k].ParentID = id
				break
			}
		}
	}
}

// linksWithin reports whether n holds a link to a page of base's host
// (a relative link included).
func linksWithin(n *html.Node, base *url.URL) bool {
	found := false
	walkElements(n, func(c *html.Node) bool {
		if c.Data == "a" {
			href := strings.TrimSpace(htmlnode.Attr(c, "href"))
			if href != "" && !strings.HasPrefix(href, "#") {
				u, err := url.Parse(href)
				found = found || err == nil && (u.Host == "" || base != nil && strings.EqualFold(u.Host, base.Host))
			}
		}
		return !found
	})
	return found
}

// inHeading reports whether n lies in a heading inside el: a link there is
// a title's, and a heading is taken as an author only by itself.
func inHeading(n, el *html.Node) bool {
	for a := n.Parent; a != nil && a != el; a = a.Parent {
		switch a.Data {
		case "h1", "h2", "h3", "h4", "h5", "h6":
			return true
		}
	}
	return false
}

// structuralSignature is a sibling group's key by structure: the tag and
// the whole set of class tokens, sorted, digits dropped.
func structuralSignature(n *html.Node) string {
	tokens := strings.Fields(htmlnode.Attr(n, "class"))
	for k, t := range tokens {
		tokens[k] = strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return -1
			}
			return r
		}, t)
	}
	slices.Sort(tokens)
	return n.Data + "." + strings.Join(slices.Compact(tokens), " ")
}

// anchorPermalinks gives each comment without a permalink of its own the
// fragment link of its record that names its element's id
// (#nook-comments-<id>, #c<id>): the link a comment app puts on a
// comment's date.
func anchorPermalinks(cs []Comment, recs []record, base *url.URL) {
	if base == nil {
		return
	}
	for k := range cs {
		el := recs[k].elem
		id := htmlnode.Attr(el, "id")
		if id == "" || len(id) < 4 {
			continue
		}
		walkElements(el, func(n *html.Node) bool {
			if n != el && recs[k].nested(n) {
				return false
			}
			href := strings.TrimSpace(htmlnode.Attr(n, "href"))
			if n.Data == "a" && strings.HasPrefix(href, "#") && len(href) > len(id) && strings.HasSuffix(href, id) {
				u := *base
				u.Fragment = href[1:]
				cs[k].URL = u.String()
				return false
			}
			return true
		})
	}
}
