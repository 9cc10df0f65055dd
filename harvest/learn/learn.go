package learn

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"

	"golang.org/x/net/html"
)

// Rules are the extraction rules learned for one blog. They serialise to
// JSON (json.Marshal is what `blogharvest learn` prints) and work again after
// json.Unmarshal.
type Rules struct {
	Article  *Rule         `json:"article,omitempty"`
	Title    *Rule         `json:"title,omitempty"`
	Author   *Rule         `json:"author,omitempty"`
	Date     *Rule         `json:"date,omitempty"`
	Comments *CommentRules `json:"comments,omitempty"`
	// MinConfidence is the threshold the rules were judged against.
	MinConfidence float64 `json:"min_confidence"`
	// Pages are the URLs of the training pages, in the order of every
	// Rule.PageScores.
	Pages []string `json:"pages"`
	// Lang is the language of the training pages, used to parse dates.
	Lang string `json:"lang,omitempty"`
	// SoleAuthor is the author every training entry named (at least three
	// of them), which Extract infers for pages that name no author.
	SoleAuthor string `json:"sole_author,omitempty"`
	// Skipped are the training pages left out because they could not be
	// parsed (such as a page nested deeper than the HTML parser allows);
	// the rules were learned from the others.
	Skipped []SkippedPage `json:"skipped,omitempty"`
}

// SkippedPage is a training page Learn left out, and why.
type SkippedPage struct {
	URL    string `json:"url"`
	Reason string `json:"reason"`
}

// ErrNoPairs is returned by Learn when it is given nothing to learn from.
var ErrNoPairs = errors.New("learn: no page/feed pairs")

// fieldScores are one field's scores on one training page: the score of
// every element (by post-order index) and the best element, -1 if none.
type fieldScores struct {
	score []float64
	best  int
}

// trainPage is one parsed training page with its per-field scores.
type trainPage struct {
	d        *bigramIndex
	pair     *Pair
	article  fieldScores
	title    fieldScores
	author   fieldScores
	date     fieldScores
	dateAttr []string // per element, the attribute that matched the date ("" for text)
}

// Learn learns extraction rules from pages and what their feed entries say
// about them. It parses each page once. A field the feed never gives, or
// whose best rule scores below opts.MinConfidence, gets an untrusted rule or
// none, and Extract falls back to other methods for it.
func Learn(pairs []Pair, opts Options) (*Rules, error) {
	if len(pairs) == 0 {
		return nil, ErrNoPairs
	}
	pages, skipped, err := prepare(pairs)
	if err != nil {
		return nil, err
	}
	pairs = make([]Pair, len(pages))
	for i, p := range pages {
		pairs[i] = *p.pair
	}
	min := opts.minConfidence()
	r := &Rules{MinConfidence: min, Lang: pairs[0].Page.Lang, Skipped: skipped}
	for _, p := range pairs {
		r.Pages = append(r.Pages, p.Page.URL)
	}
	for _, f := range fields {
		rule := learnField(pages, f.scores, min)
		if rule != nil && f.tune != nil {
			f.tune(rule, pages)
		}
		*f.rule(r) = rule
	}
	r.SoleAuthor = soleAuthor(pairs)
	r.Comments = learnComments(pages, min)
	return r, nil
}

// prepare parses and scores every page, in parallel. A page that cannot be
// parsed is one bad training page: it is skipped (and reported) while the
// others are kept; only when no page is left does prepare fail.
func prepare(pairs []Pair) ([]*trainPage, []SkippedPage, error) {
	pages := make([]*trainPage, len(pairs))
	errs := make([]error, len(pairs))
	var wg sync.WaitGroup
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	for i := range pairs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			pages[i], errs[i] = scorePage(&pairs[i])
		}()
	}
	wg.Wait()
	var good []*trainPage
	var skipped []SkippedPage
	for i, err := range errs {
		if err != nil {
			skipped = append(skipped, SkippedPage{URL: pairs[i].Page.URL, Reason: err.Error()})
			continue
		}
		good = append(good, pages[i])
	}
	if len(good) == 0 {
		return nil, nil, fmt.Errorf("learn from %s: %w", pairs[0].Page.URL, errs[0])
	}
	return good, skipped, nil
}

// scorePage parses one page and scores its elements for every field.
func scorePage(pair *Pair) (*trainPage, error) {
	d, err := indexPage(pair.Page)
	if err != nil {
		return nil, err
	}
	p := &trainPage{d: d, pair: pair}
	var sets [][]bool
	var sizes []int
	for _, f := range fields {
		if f.target != nil {
			set, size := d.targetSet(f.target(&pair.Target)...)
			sets, sizes = append(sets, set), append(sizes, size)
		}
	}
	inter := d.sweep(sets...)
	k := 0
	for _, f := range fields {
		if f.target == nil {
			f.score(p, nil, 0)
			continue
		}
		f.score(p, inter[k], sizes[k])
		k++
	}
	return p, nil
}

// none is the score of a field that cannot be learned on a page.
func none(n int) fieldScores { return fieldScores{score: make([]float64, n), best: -1} }

// articleScores scores elements against the article's bigrams: Sørensen–Dice
// for full-text feeds; for summaries, containment |N∩T|/|T| (a summary's
// bigrams are nearly a subset of the article's), after which the best node
// climbs out of the paragraph that holds the summary to its block container.
func articleScores(d *bigramIndex, inter []int32, t int, full bool) fieldScores {
	if t == 0 {
		return none(len(d.els))
	}
	f := fieldScores{score: make([]float64, len(d.els)), best: -1}
	for i := range f.score {
		if full {
			f.score[i] = d.dice(i, inter, t)
		} else {
			f.score[i] = float64(inter[i]) / float64(t)
		}
		if f.best < 0 || f.score[i] > f.score[f.best] {
			f.best = i
		}
	}
	if !full && f.best >= 0 {
		f.best = climbToContainer(d, f.best, f.score)
	}
	return f
}

// containerTags are the elements a summary's paragraph climbs to.
var containerTags = map[string]bool{
	"div": true, "article": true, "section": true, "main": true, "td": true, "body": true, "html": true,
}

// climbToContainer climbs from element i to the nearest container element,
// as long as the containment does not drop below 90 % of i's.
func climbToContainer(d *bigramIndex, i int, score []float64) int {
	floor := 0.9 * score[i]
	for !containerTags[d.els[i].Data] {
		p := int(d.parent[i])
		if p < 0 || score[p] < floor {
			break
		}
		i = p
	}
	return i
}

// nearScores scores elements by Dice against a short target. Among elements
// within slack of the best Dice, the best is the one with the highest Dice
// × 1/(1 + penalty × tree distance to the article element), so the byline
// next to the article wins over the same name in a sidebar. With penalty 0,
// the nearest element within slack wins.
func nearScores(d *bigramIndex, inter []int32, t, article int, slack, penalty float64) fieldScores {
	if t == 0 {
		return none(len(d.els))
	}
	f := fieldScores{score: make([]float64, len(d.els)), best: -1}
	max := 0.0
	for i := range f.score {
		f.score[i] = d.dice(i, inter, t)
		if f.score[i] > max {
			max = f.score[i]
		}
	}
	if max == 0 {
		return f
	}
	bestVal, bestDist := math.Inf(-1), 0
	for i, s := range f.score {
		if s < max-slack || s == 0 {
			continue
		}
		dist := 0
		if article >= 0 {
			dist = d.distance(i, article)
		}
		v := s / (1 + penalty*float64(dist))
		if penalty == 0 {
			v = -float64(dist)
		}
		if v > bestVal || v == bestVal && dist < bestDist {
			f.best, bestVal, bestDist = i, v, dist
		}
	}
	return f
}

// shortlist is how many of the most voted candidates are evaluated on every
// training page.
const shortlist = 12

// learnField learns the rule of one field: the candidates describing each
// page's best element are voted on, the most voted are evaluated on every
// page, and the one with the highest mean score wins (ties: more votes, then
// the preferred kind).
func learnField(pages []*trainPage, field func(*trainPage) *fieldScores, min float64) *Rule {
	b := newBallot()
	for _, p := range pages {
		f := field(p)
		if f.best < 0 || f.score[f.best] <= 0 {
			continue
		}
		var cands []candidate
		for _, i := range equivalents(p.d, f.best) {
			cands = append(cands, candidates(p.d.els[i], nil)...)
		}
		b.vote(cands)
	}
	return b.elect(func(r *Rule) { evaluate(r, pages, field) }, min)
}

// ballot counts how many training examples propose each candidate rule.
type ballot struct {
	votes, kinds map[string]int // by XPath: the examples that propose it, its kind
}

func newBallot() *ballot { return &ballot{votes: map[string]int{}, kinds: map[string]int{}} }

// vote records the candidates one example proposes, each XPath once.
func (b *ballot) vote(cands []candidate) {
	seen := map[string]bool{}
	for _, c := range cands {
		if !seen[c.xpath] {
			seen[c.xpath] = true
			b.votes[c.xpath]++
			b.kinds[c.xpath] = c.kind
		}
	}
}

// elect evaluates the most voted candidates with evaluate and returns the
// one of highest confidence, trusted when that reaches min; nil when no
// example voted.
func (b *ballot) elect(evaluate func(*Rule), min float64) *Rule {
	var best *Rule
	for _, x := range rankCandidates(b.votes, b.kinds) {
		r := &Rule{XPath: x, Votes: b.votes[x]}
		evaluate(r)
		if best == nil || r.Confidence > best.Confidence+1e-9 {
			best = r
		}
	}
	if best != nil {
		best.Trusted = best.Confidence >= min
	}
	return best
}

// equivalents returns element i with the ancestors and descendants that
// hold exactly the same text: wrappers such as <a><span class="date">,
// whose rules describe the same value.
func equivalents(d *bigramIndex, i int) []int {
	out := []int{i}
	for p := int(d.parent[i]); p >= 0 && sameText(d, p, i); p = int(d.parent[p]) {
		out = append(out, p)
	}
	for c := onlyChild(d, i); c >= 0 && sameText(d, c, i); c = onlyChild(d, c) {
		out = append(out, c)
	}
	return out
}

// sameText reports whether elements i and j cover the same bigrams.
func sameText(d *bigramIndex, i, j int) bool {
	return d.start[i] == d.start[j] && d.end[i] == d.end[j]
}

// onlyChild returns the index of element i's only element child, or -1.
func onlyChild(d *bigramIndex, i int) int {
	var only *html.Node
	for c := d.els[i].FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			if only != nil {
				return -1
			}
			only = c
		}
	}
	if j, ok := d.idx[only]; ok && only != nil {
		return int(j)
	}
	return -1
}

// rankCandidates orders candidate XPaths by votes, kind and length, and keeps
// the shortlist.
func rankCandidates(votes, kinds map[string]int) []string {
	xs := make([]string, 0, len(votes))
	for x := range votes {
		xs = append(xs, x)
	}
	sort.Slice(xs, func(i, j int) bool {
		a, b := xs[i], xs[j]
		if votes[a] != votes[b] {
			return votes[a] > votes[b]
		}
		if kinds[a] != kinds[b] {
			return kinds[a] < kinds[b]
		}
		if len(a) != len(b) {
			return len(a) < len(b)
		}
		return a < b
	})
	if len(xs) > shortlist {
		xs = xs[:shortlist]
	}
	return xs
}

// evaluate fills r's page scores and confidence: the score of the first
// element r selects on each page, 0 where it selects nothing.
func evaluate(r *Rule, pages []*trainPage, field func(*trainPage) *fieldScores) {
	r.PageScores = make([]float64, len(pages))
	sum := 0.0
	for i, p := range pages {
		if n := r.firstIn(p.d.root, p.d.ix); n != nil {
			if j, ok := p.d.idx[n]; ok {
				r.PageScores[i] = round3(field(p).score[j])
			}
		}
		sum += r.PageScores[i]
	}
	r.Confidence = round3(sum / float64(len(pages)))
}

// round3 rounds x to three decimals, for readable JSON.
func round3(x float64) float64 { return float64(int(x*1000+0.5)) / 1000 }

// medianTextLen returns the median text length of what r selects on the
// training pages.
func medianTextLen(pages []*trainPage, r *Rule) int {
	var lens []int
	for _, p := range pages {
		if n := r.firstIn(p.d.root, p.d.ix); n != nil {
			lens = append(lens, len(nodeText(n)))
		}
	}
	if len(lens) == 0 {
		return 0
	}
	sort.Ints(lens)
	return lens[len(lens)/2]
}

// rawTextTags are elements whose content is not text a reader sees.
var rawTextTags = map[string]bool{"script": true, "style": true, "noscript": true, "template": true, "iframe": true, "svg": true, "object": true}
