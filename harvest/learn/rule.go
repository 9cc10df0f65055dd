package learn

import (
	"fmt"
	"strings"
	"sync"

	"github.com/antchfx/htmlquery"
	"github.com/antchfx/xpath"
	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest/harvest/htmlnode"
)

// Rule is a learned XPath for one field, with how well it did on the
// training pages.
type Rule struct {
	XPath      string    `json:"xpath"`
	Confidence float64   `json:"confidence"`  // mean score over all training pages
	Trusted    bool      `json:"trusted"`     // Confidence reached Options.MinConfidence
	Votes      int       `json:"votes"`       // training pages whose best node the rule describes
	PageScores []float64 `json:"page_scores"` // score of the rule's node on each training page (Rules.Pages order)
	// Attr names the attribute holding the value (dates: "datetime",
	// "content", "title"); empty means the element's text.
	Attr string `json:"attr,omitempty"`
	// TextLen is the median length in characters of the text the rule
	// selected in training; Extract uses it to compute Extraction.Score.
	TextLen int `json:"text_len,omitempty"`
	// UTCOffset is the zone, in seconds east of UTC, in which the pages
	// write dates without a zone (dates only); learned from the feed.
	UTCOffset int `json:"utc_offset,omitempty"`
	// FeedZone holds the blog's offsets through the year (dates only), when
	// the feed states more than one (a zone with summer time) and every
	// training page's date without a zone is the day of the feed's instant
	// in the offset the feed stated: one [day of the year, offset in
	// seconds east] pair per training page, by day. A date without a zone
	// is placed in the offset of the nearest day of the year.
	FeedZone [][2]int `json:"feed_zone,omitempty"`
	// LocalAttr says the machine-readable date the rule reads states the
	// blog's local time under a zone label that is not its own (a theme
	// writing the wall clock of a blog two hours east of UTC as
	// "…T20:30:00+00:00"): learned when the feed's instants show every
	// training page's label off by one same offset, which UTCOffset then
	// holds; Extract reads the wall clock in that zone (dates only).
	LocalAttr bool `json:"local_attr,omitempty"`
	// Part is, for authors, the 1-based part of the selected byline that
	// names the author ("Seth Zenz | USLHC | USA": 1); 0 means all of it.
	Part int `json:"part,omitempty"`
	// Parts is, for authors with a Part, how many parts the bylines had
	// in training: a byline split otherwise (a title with a comma or a dash
	// in it) gives no author by position.
	Parts int `json:"parts,omitempty"`
	// Omit names, for titles and articles, the kinds of child elements of
	// the selected element left out of the field (tag, or tag.class by the
	// first class token: "time", "p.postmetadata"): children whose text was
	// outside the feed's title or full content on the training pages and
	// never in it (a <time> inside the <h1>, a "This entry was posted …"
	// line below the post).
	Omit []string `json:"omit,omitempty"`

	once sync.Once
	sel  *selector   // the rule, when of the simple shape Learn writes
	expr *xpath.Expr // else the compiled XPath
	err  error
}

// compile parses the rule on first use.
func (r *Rule) compile() error {
	r.once.Do(func() {
		var ok bool
		if r.sel, ok = parseSelector(r.XPath); ok {
			return
		}
		r.expr, r.err = xpath.Compile(r.XPath)
		if r.err != nil {
			r.err = fmt.Errorf("compile rule %q: %w", r.XPath, r.err)
		}
	})
	return r.err
}

// first returns the first node r selects from top (the document or, for
// relative rules, the context element), or nil.
func (r *Rule) first(top *html.Node) *html.Node { return r.firstIn(top, nil) }

// firstIn is first with the index of top's document, which may be nil.
func (r *Rule) firstIn(top *html.Node, ix *nodeIndex) *html.Node {
	if r == nil || r.compile() != nil {
		return nil
	}
	if r.sel != nil {
		if ns := r.sel.eval(top, true, ix); len(ns) > 0 {
			return ns[0]
		}
		return nil
	}
	return htmlquery.QuerySelector(top, r.expr)
}

// allIn returns every node r selects from top, with the index of top's
// document, which may be nil.
func (r *Rule) allIn(top *html.Node, ix *nodeIndex) []*html.Node {
	if r == nil || r.compile() != nil {
		return nil
	}
	if r.sel != nil {
		return r.sel.eval(top, false, ix)
	}
	return htmlquery.QuerySelectorAll(top, r.expr)
}

// usable reports whether r exists and is trusted.
func (r *Rule) usable() bool { return r != nil && r.Trusted }

// Rule kinds, most to least preferred.
const (
	kindID = iota
	kindClass
	kindTag
	kindPath
)

// candidate is one XPath that describes a node.
type candidate struct {
	xpath string
	kind  int
}

// maxTokens bounds the class tokens considered per element.
const maxTokens = 4

// candidates returns the rules that select element n of a page: by stable
// id, by class token, by semantic tag, and by paths from up to three
// ancestors that have an id or class.
func candidates(n *html.Node, relTo *html.Node) []candidate {
	prefix := "//"
	if relTo != nil {
		prefix = ".//"
	}
	var out []candidate
	for _, a := range anchors(n) {
		out = append(out, candidate{prefix + a.xpath, a.kind})
	}
	if semanticTags[n.Data] {
		out = append(out, candidate{prefix + n.Data, kindTag})
	}
	steps, seen := "", 0
	a := n
	for ; a != nil && a != relTo && a.Type == html.ElementNode && seen < 3; a = a.Parent {
		if a != n {
			if c := anchors(a); len(c) > 0 {
				seen++
				for _, c := range c {
					out = append(out, candidate{prefix + c.xpath + steps, kindPath})
				}
			}
		}
		steps = "/" + step(a) + steps
	}
	switch {
	case relTo != nil && a == relTo:
		out = append(out, candidate{"." + steps, kindPath + 1})
	case relTo == nil && strings.HasPrefix(steps, "/html"):
		out = append(out, candidate{steps, kindPath + 1})
	}
	return out
}

// semanticTags are elements whose tag alone can be a rule.
var semanticTags = map[string]bool{"article": true, "main": true, "h1": true, "time": true, "address": true, "title": true}

// anchors returns the one-step XPaths (without the leading //) that select
// element n by a stable-looking id or by each of its class tokens.
func anchors(n *html.Node) []candidate {
	var out []candidate
	if id := htmlnode.Attr(n, "id"); stableName(id) {
		out = append(out, candidate{fmt.Sprintf("*[@id='%s']", id), kindID})
	}
	for _, k := range namingAttrs {
		if v := htmlnode.Attr(n, k); stableName(v) && (k == "itemprop" || n.Data == "meta") {
			out = append(out, candidate{fmt.Sprintf("%s[@%s='%s']", n.Data, k, v), kindClass})
		}
	}
	for i, tok := range strings.Fields(htmlnode.Attr(n, "class")) {
		if i >= maxTokens {
			break
		}
		if stableName(tok) {
			out = append(out, candidate{fmt.Sprintf("%s[contains(concat(' ',normalize-space(@class),' '),' %s ')]", n.Data, tok), kindClass})
		}
	}
	return out
}

// namingAttrs are attributes that name what an element holds: microdata
// itemprop, and the property or name of a meta element.
var namingAttrs = []string{"itemprop", "property", "name"}

// stableName reports whether an id or class token may be stable across
// pages: non-empty, quotable, and without a run of three or more digits
// (post-1234, comment-98765 name one post, not a template slot). Tokens that
// merely look stable are still put to the vote across pages.
func stableName(s string) bool {
	if s == "" || len(s) > 64 || strings.ContainsAny(s, `'"`) {
		return false
	}
	run := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			if run++; run >= 3 {
				return false
			}
		} else {
			run = 0
		}
	}
	return true
}

// step returns the XPath step selecting n among its siblings: tag[k].
func step(n *html.Node) string {
	k := 1
	for s := n.PrevSibling; s != nil; s = s.PrevSibling {
		if s.Type == html.ElementNode && s.Data == n.Data {
			k++
		}
	}
	return fmt.Sprintf("%s[%d]", n.Data, k)
}
