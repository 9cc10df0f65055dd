package learn

import (
	"strings"
	"unicode"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/textsim"
	"golang.org/x/net/html"
)

// authorSeparators split a byline into parts: "Seth Zenz | USLHC | USA",
// "Ann Lee · Editor".
var authorSeparators = []string{" | ", " · ", " • ", " – ", " — ", " - ", " / ", ", "}

// authorParts returns the parts of a cleaned byline.
func authorParts(s string) []string {
	parts := splitAny(s, authorSeparators)
	for i, p := range parts {
		parts[i] = textsim.CleanAuthor(p)
	}
	return parts
}

// partOf returns the 1-based index of the part of byline s that names
// author, 0 when the whole byline does or no part does.
func partOf(s, author string) int {
	if textsim.SameAuthor(s, author) {
		return 0
	}
	for i, p := range authorParts(s) {
		if textsim.SameAuthor(p, author) {
			return i + 1
		}
	}
	return 0
}

// authorOf returns the author's name in the text of the element a rule
// selects: the whole cleaned text, or the part the rule learned when the
// byline splits into as many parts as in training. A byline split
// otherwise (a title with a comma or a dash in a "Title — Ann Lee, 2023"
// header) gives its one part that is a name once the page's title is
// taken out (namePart). It returns "" when the result is no name
// (plausibleAuthor).
func authorOf(r *Rule, text, title string) string {
	s := textsim.CleanAuthor(text)
	if r != nil && r.Part > 0 {
		parts := authorParts(s)
		switch {
		case r.Parts > 0 && len(parts) != r.Parts:
			s = namePart(s, title)
		case len(parts) >= r.Part && len(parts) > 1:
			s = parts[r.Part-1]
		}
	}
	if !plausibleAuthor(s) {
		return ""
	}
	return s
}

// namePart returns the only part of byline s, the title taken out, that
// may be a name (plausibleAuthor), or "" when none or several are.
func namePart(s, title string) string {
	if t := strings.TrimSpace(title); t != "" {
		s = strings.Replace(s, t, " | ", 1)
	}
	found := ""
	for _, p := range authorParts(s) {
		if p == "" || !plausibleAuthor(p) {
			continue
		}
		if found != "" {
			return ""
		}
		found = p
	}
	return found
}

// plausibleAuthor reports whether s may be a person's or a group's name:
// it has letters and is not a date ("2023", "07/10/2023", "October 7,
// 2023" are never authors).
func plausibleAuthor(s string) bool {
	if !strings.ContainsFunc(s, unicode.IsLetter) {
		return false
	}
	if _, ok := parseMachineDate(s); ok {
		return false
	}
	_, ok := quickDate(s, "")
	return !ok
}

// hasAuthorChild reports whether an element below n is the author's name
// on its own: then a rule selects that node, not a part of n's text.
func hasAuthorChild(n *html.Node, author string) bool {
	found := false
	for c := n.FirstChild; c != nil && !found; c = c.NextSibling {
		if c.Type == html.ElementNode {
			walkElements(c, func(e *html.Node) bool {
				if !found && textsim.SameAuthor(textsim.CleanAuthor(nodeText(e)), author) {
					found = true
				}
				return !found
			})
		}
	}
	return found
}

// maxBylineExtra bounds, in bigrams, how much longer than the author's name
// a byline whose parts are checked may be.
const maxBylineExtra = 60

// scoreBylineParts raises to 1 the score of short elements one part of
// whose text is the author's name ("Seth Zenz | USLHC | USA"), which Dice
// on the whole text ranks below the same name in a far-away list, then
// picks the best element again. inter and t are the bigram intersections
// and target size of the Dice scores.
func scoreBylineParts(d *bigramIndex, f *fieldScores, author string, inter []int32, t, article int) {
	if t == 0 || author == "" {
		return
	}
	raised := false
	for i := range f.score {
		if f.score[i] >= 1 || int(inter[i]) < t || int(d.end[i]-d.start[i]) > t+maxBylineExtra {
			continue
		}
		if s := textsim.CleanAuthor(nodeText(d.els[i])); !textsim.SameAuthor(s, author) && partOf(s, author) > 0 && !hasAuthorChild(d.els[i], author) {
			f.score[i], raised = 1, true
		}
	}
	if raised {
		f.best = nearest(d, f.score, article, 0.5, 0.05)
	}
}

// nearest returns the element with the highest score × 1/(1 + penalty ×
// tree distance to article), among those within slack of the best score.
func nearest(d *bigramIndex, score []float64, article int, slack, penalty float64) int {
	top := 0.0
	for _, s := range score {
		top = max(top, s)
	}
	best, bestVal := -1, -1.0
	for i, s := range score {
		if s == 0 || s < top-slack {
			continue
		}
		v := s
		if article >= 0 {
			v = s / (1 + penalty*float64(d.distance(i, article)))
		}
		if v > bestVal {
			best, bestVal = i, v
		}
	}
	return best
}

// votePart returns the part of the bylines rule r selects that most
// training pages' authors are (0: the whole byline), and the number of
// parts most of those bylines split into.
func votePart(pages []*trainPage, r *Rule) (part, parts int) {
	count := map[int]int{}
	sizes := map[int]map[int]int{}
	for _, p := range pages {
		if a := p.pair.Target.Author; a != "" {
			if n := r.firstIn(p.d.root, p.d.ix); n != nil {
				s := textsim.CleanAuthor(nodeText(n))
				k := partOf(s, a)
				count[k]++
				if sizes[k] == nil {
					sizes[k] = map[int]int{}
				}
				sizes[k][len(authorParts(s))]++
			}
		}
	}
	for k, c := range count {
		if c > count[part] || c == count[part] && k < part {
			part = k
		}
	}
	if part == 0 {
		return 0, 0
	}
	for n, c := range sizes[part] {
		if c > sizes[part][parts] || c == sizes[part][parts] && n < parts {
			parts = n
		}
	}
	return part, parts
}

// minSoleAuthorPages is how many training entries must name the same single
// author before Extract infers it for pages that name nobody.
const minSoleAuthorPages = 3

// soleAuthor returns the author every training entry names, when there is
// one and at least minSoleAuthorPages entries name it, else "".
func soleAuthor(pairs []Pair) string {
	name, n := "", 0
	for _, p := range pairs {
		a := strings.TrimSpace(p.Target.Author)
		switch {
		case a == "":
			return ""
		case n == 0:
			name = a
		case !textsim.SameAuthor(a, name):
			return ""
		}
		n++
	}
	if n < minSoleAuthorPages {
		return ""
	}
	return name
}

// blogAuthor is the last resort for a page's author: the feed's sole
// author, recorded as a heuristic since it is an inference, not something
// the page says.
func (e *extractor) blogAuthor() {
	if e.x.Author == "" && e.rules != nil && e.rules.SoleAuthor != "" {
		e.x.Author = e.rules.SoleAuthor
		e.x.Methods.Set(FieldAuthor, blogharvest.MethodHeuristic)
	}
}
