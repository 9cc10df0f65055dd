package learn

import (
	"slices"
	"sort"
	"strings"

	"github.com/blogharvest/blogharvest/harvest/textsim"
	"golang.org/x/net/html"
)

// This file learns which children of a title element are not part of the
// title. The title rule selects the element whose text matches the feed's
// title best, but that element may hold more than the title: a <time> or
// a date in spans inside the <h1>, a subtitle in a <small>, a comment
// count. Matching each child's text against the feed's title on the
// training pages tells which children never belong to it; Extract leaves
// them out (Rule.Omit).

// omitContained is the share of a child's bigrams that must be in the
// feed's title for the child to count as part of it.
const omitContained = 0.5

// learnOmit returns the kinds of child elements (childKind) of the
// elements r selects whose text was never part of the feed's title on the
// training pages and was outside it on at least one: those children are
// left out of the title. Children without bigrams (a lone "|" or digit)
// count neither way.
func learnOmit(pages []*trainPage, r *Rule) []string {
	type tally struct{ outside, inside int }
	kinds := map[string]*tally{}
	for _, p := range pages {
		title := p.pair.Target.Title
		if title == "" {
			continue
		}
		n := r.firstIn(p.d.root, p.d.ix)
		if n == nil {
			continue
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || skipped(c) {
				continue
			}
			share, ok := containment(nodeText(c), title)
			if !ok {
				continue
			}
			k := childKind(c)
			t := kinds[k]
			if t == nil {
				t = &tally{}
				kinds[k] = t
			}
			if share >= omitContained {
				t.inside++
			} else {
				t.outside++
			}
		}
	}
	var out []string
	for k, t := range kinds {
		if t.inside == 0 && t.outside > 0 {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// childKind names a child element by its tag and first class token
// ("time", "span.date").
func childKind(n *html.Node) string {
	if f := strings.Fields(attr(n, "class")); len(f) > 0 {
		return n.Data + "." + f[0]
	}
	return n.Data
}

// containment returns the share of part's distinct bigrams (case-folded,
// white space collapsed) that whole holds; false when part has none.
func containment(part, whole string) (float64, bool) {
	c := textsim.NewCoder()
	p := textsim.SortedSet(c.AppendText(nil, part))
	if len(p) == 0 {
		return 0, false
	}
	w := textsim.SortedSet(c.AppendText(nil, whole))
	in, j := 0, 0
	for _, id := range p {
		for j < len(w) && w[j] < id {
			j++
		}
		if j < len(w) && w[j] == id {
			in++
		}
	}
	return float64(in) / float64(len(p)), true
}

// textOmitting returns n's visible text without its children of the kinds
// in omit; n's whole text when that leaves nothing.
func textOmitting(n *html.Node, omit []string) string {
	if len(omit) == 0 {
		return nodeText(n)
	}
	var w spaceWriter
	writeTextWithout(&w, n, func(c *html.Node) bool {
		return c.Parent == n && c.Type == html.ElementNode && slices.Contains(omit, childKind(c))
	})
	if len(w.b) == 0 {
		return nodeText(n)
	}
	return string(w.b)
}
