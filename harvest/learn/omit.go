package learn

import (
	"slices"
	"sort"
	"strings"

	"github.com/blogharvest/blogharvest/harvest/textsim"
	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest/harvest/htmlnode"
)

// This file learns which children of the element a rule selects are not
// part of the field. The title rule selects the element whose text matches
// the feed's title best, but that element may hold more than the title: a
// <time> or a date in spans inside the <h1>, a subtitle in a <small>, a
// comment count. The article rule's element may hold the theme's "This
// entry was posted on … and is filed under …" line or a tag list below the
// post. Matching each child's text against the feed's value on the
// training pages tells which children never belong to it; Extract leaves
// them out (Rule.Omit).

// omitContained is the share of a child's shingles that must be in the
// feed's value for the child to count as part of it.
const omitContained = 0.5

// omitFullArticle is the Dice score the article rule's element must reach
// on a training page, against a full-text feed entry, for its children to
// be matched: below it the entry may be a summary, outside which lies
// part of the post.
const omitFullArticle = 0.8

// articleShingle is the length of the shingles an article's children are
// matched by: five characters, a syllable or two of Chinese, a short word
// and its neighbours' edges in English.
const articleShingle = 5

// omitTarget gives, for training page i, the feed text the children of
// the rule's element are matched against; "" leaves the page out.
type omitTarget func(p *trainPage, r *Rule, i int) string

// titleOmitTarget matches a title's children against the feed's title.
func titleOmitTarget(p *trainPage, _ *Rule, _ int) string { return p.pair.Target.Title }

// articleOmitTarget matches an article's children against the feed's
// content, on pages whose entry is the whole post: marked full text, and
// matching the element the rule selects closely (omitFullArticle).
func articleOmitTarget(p *trainPage, r *Rule, i int) string {
	if !p.pair.Target.FullText || i >= len(r.PageScores) || r.PageScores[i] < omitFullArticle {
		return ""
	}
	return textsim.HTMLText(p.pair.Target.Content)
}

// learnOmit returns the kinds of child elements (childKind) of the
// elements r selects whose text was never part of the feed's value on the
// training pages (target) and was outside it on at least minOutside pages
// (a child is part of the value when omitContained of its shingle-character
// shingles are in the value's: bigrams suit a title, but a long article
// holds most bigrams of any sentence, so articles compare longer ones):
// those children are left out of the field. Children without bigrams (a
// lone "|" or digit) count neither way; a kind of which one child holds
// media, code, a table or a quotation (keepsContent) is never left out.
func learnOmit(pages []*trainPage, r *Rule, target omitTarget, shingle, minOutside int) []string {
	type tally struct {
		outside, inside int
		seen            bool // counted on the current page
	}
	kinds := map[string]*tally{}
	for i, p := range pages {
		want := target(p, r, i)
		if want == "" {
			continue
		}
		n := r.firstIn(p.d.root, p.d.ix)
		if n == nil {
			continue
		}
		set := shingles(want, shingle)
		for _, t := range kinds {
			t.seen = false
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || skipped(c) {
				continue
			}
			k := childKind(c)
			t := kinds[k]
			if t == nil {
				t = &tally{}
				kinds[k] = t
			}
			if keepsContent(c) {
				t.inside++
				continue
			}
			share, ok := containment(nodeText(c), shingle, set)
			switch {
			case !ok:
			case share >= omitContained:
				t.inside++
			case !t.seen: // a page counts once
				t.outside++
				t.seen = true
			}
		}
	}
	var out []string
	for k, t := range kinds {
		if t.inside == 0 && t.outside >= minOutside {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// keepsContent reports whether element n holds what a post's text may not
// show but its feed may leave out: media, code, a table, math, or a
// quotation (an embedded post is a <blockquote> whose feed copy may lack
// the text the page's script fills in).
func keepsContent(n *html.Node) bool {
	found := false
	walkElements(n, func(c *html.Node) bool {
		switch c.Data {
		case "img", "picture", "video", "audio", "iframe", "object", "embed", "canvas", "svg", "math",
			"pre", "code", "table", "blockquote":
			found = true
		}
		return !found
	})
	return found
}

// childKind names a child element by its tag and first class token
// ("time", "span.date").
func childKind(n *html.Node) string {
	if f := strings.Fields(htmlnode.Attr(n, "class")); len(f) > 0 {
		return n.Data + "." + f[0]
	}
	return n.Data
}

// shingles returns the set of n-character shingles of s, case-folded
// with white space collapsed (n = 2: the bigrams Dice compares), each
// hashed (FNV-1a over its runes).
func shingles(s string, n int) map[uint64]struct{} {
	rs := []rune(textsim.NormalizeText(s))
	set := make(map[uint64]struct{}, max(0, len(rs)-n+1))
	for i := 0; i+n <= len(rs); i++ {
		h := uint64(14695981039346656037)
		for _, r := range rs[i : i+n] {
			h = (h ^ uint64(r)) * 1099511628211
		}
		set[h] = struct{}{}
	}
	return set
}

// containment returns the share of part's n-character shingles in whole
// (made by shingles with the same n); false when part has none.
func containment(part string, n int, whole map[uint64]struct{}) (float64, bool) {
	p := shingles(part, n)
	if len(p) == 0 {
		return 0, false
	}
	in := 0
	for h := range p {
		if _, ok := whole[h]; ok {
			in++
		}
	}
	return float64(in) / float64(len(p)), true
}

// omitted returns a test of whether node c is a child of n of a kind in
// omit; nil when omit is empty.
func omitted(n *html.Node, omit []string) func(c *html.Node) bool {
	if len(omit) == 0 {
		return nil
	}
	return func(c *html.Node) bool {
		return c.Parent == n && c.Type == html.ElementNode && slices.Contains(omit, childKind(c))
	}
}

// textOmitting returns n's visible text without its children of the kinds
// in omit; n's whole text when that leaves nothing.
func textOmitting(n *html.Node, omit []string) string {
	skip := omitted(n, omit)
	if skip == nil {
		return nodeText(n)
	}
	var w spaceWriter
	writeTextWithout(&w, n, skip)
	if len(w.b) == 0 {
		return nodeText(n)
	}
	return string(w.b)
}
