package learn

import (
	"math"
	"sort"
	"strings"

	"github.com/blogharvest/blogharvest/harvest/textsim"
	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest/harvest/htmlnode"
)

// CommentRules are the learned rules for a post's comments. Node selects
// the body of every comment; a comment's element is the highest ancestor of
// its body that holds no other body, and Author and Date are relative to
// that element.
type CommentRules struct {
	Node   *Rule `json:"node"`
	Author *Rule `json:"author,omitempty"`
	Date   *Rule `json:"date,omitempty"`
	// IDLevels say where the id the comment feed uses sits, most frequent
	// first: how many levels above the comment element (0: the element
	// itself; -1: its first child with an id; -2, -3: its previous, next
	// element sibling). The first that has an id wins.
	IDLevels []int `json:"id_levels,omitempty"`
}

// commentPage is a training page with comments in its feed, scored
// against each of them.
type commentPage struct {
	p       *trainPage
	targets []CommentTarget
	inter   [][]int32 // per comment, per element: bigrams shared with the comment
	tsize   []int     // per comment: |T|
	match   []*html.Node
}

// commentBatch is how many comments one sweep scores at once.
const commentBatch = 8

// learnComments learns the comment rules from the training pages whose feed
// entries list comments. It returns nil when none do.
func learnComments(pages []*trainPage, min float64) *CommentRules {
	var cps []*commentPage
	for _, p := range pages {
		if len(p.pair.Target.Comments) > 0 {
			cps = append(cps, scoreComments(p))
		}
	}
	if len(cps) == 0 {
		return nil
	}
	node := learnCommentNode(cps, min)
	if node == nil {
		return nil
	}
	cr := &CommentRules{Node: node}
	subs := sample(matchedComments(cps, node), maxSubjects)
	for k := range subs {
		if s := &subs[k]; !s.target.Date.IsZero() {
			s.rend = renderingSets(s.d, s.target.Date, s.lang)
			s.union = unionSet(s.rend, s.d.coder.Size())
		}
	}
	cr.Author = learnSubRule(subs, authorSubScore, min)
	cr.Date = learnSubRule(subs, dateSubScore, min)
	if cr.Date != nil {
		cr.Date.Attr = voteSubAttr(subs, cr.Date)
	}
	cr.IDLevels = voteIDLevels(subs)
	return cr
}

// scoreComments computes every element's overlap with every comment of a
// page.
func scoreComments(p *trainPage) *commentPage {
	cp := &commentPage{p: p, targets: p.pair.Target.Comments}
	for lo := 0; lo < len(cp.targets); lo += commentBatch {
		hi := min(lo+commentBatch, len(cp.targets))
		sets := make([][]bool, 0, hi-lo)
		for _, c := range cp.targets[lo:hi] {
			set, n := p.d.targetSet(textsim.FragmentTexts(c.Content)...)
			sets = append(sets, set)
			cp.tsize = append(cp.tsize, n)
		}
		cp.inter = append(cp.inter, p.d.sweep(sets...)...)
	}
	return cp
}

// commentDice returns the Dice of element i against comment j.
func (cp *commentPage) commentDice(i, j int) float64 {
	return cp.p.d.dice(i, cp.inter[j], cp.tsize[j])
}

// bestFor returns the element that best matches comment j, or -1.
func (cp *commentPage) bestFor(j int) int {
	best, val := -1, 0.3
	for i := range cp.p.d.els {
		if v := cp.commentDice(i, j); v > val {
			best, val = i, v
		}
	}
	return best
}

// learnCommentNode votes on rules describing the elements that best match
// each comment (and their ancestors up to three levels), then scores the
// most voted by maximum-weight matching between the nodes they select and
// the feed's comments.
func learnCommentNode(cps []*commentPage, min float64) *Rule {
	b := newBallot()
	for _, cp := range cps {
		for j := range cp.targets {
			if best := cp.bestFor(j); best >= 0 {
				b.vote(multiCandidates(cp.p.d, best))
			}
		}
	}
	return b.elect(func(r *Rule) { evaluateComments(r, cps) }, min)
}

// multiCandidates returns rules that may select element b together with its
// sibling comments: class tokens and itemprops of b, of the elements with the
// same text, and of up to three ancestors; and anchor/tag steps from b's
// parent.
func multiCandidates(d *bigramIndex, b int) []candidate {
	var out []candidate
	i := b
	for level := 0; level < 4 && i >= 0; level++ {
		for _, k := range equivalents(d, i) {
			for _, a := range anchors(d.els[k]) {
				if a.kind != kindID {
					out = append(out, candidate{"//" + a.xpath, a.kind + level})
				}
			}
		}
		if p := d.parent[i]; p >= 0 {
			for _, a := range anchors(d.els[p]) {
				if a.kind != kindID {
					out = append(out, candidate{"//" + a.xpath + "/" + d.els[i].Data, kindPath + level})
				}
			}
		}
		i = int(d.parent[i])
	}
	return out
}

// evaluateComments scores a comment node rule on each page: the total Dice
// of the maximum-weight matching between the nodes it selects and the feed
// comments, divided by the number of comments, times √(comments/nodes)
// when it selects more nodes than there are comments.
func evaluateComments(r *Rule, cps []*commentPage) {
	r.PageScores = make([]float64, len(cps))
	sum := 0.0
	for k, cp := range cps {
		nodes := r.allIn(cp.p.d.root, cp.p.d.ix)
		w, idx := cp.weights(nodes)
		if len(idx) == 0 {
			continue
		}
		a := maxAssignment(w)
		score := assignmentWeight(w, a) / float64(len(cp.targets))
		if len(idx) > len(cp.targets) {
			score *= math.Sqrt(float64(len(cp.targets)) / float64(len(idx)))
		}
		r.PageScores[k] = round3(score)
		sum += r.PageScores[k]
	}
	r.Confidence = round3(sum / float64(len(cps)))
}

// weights returns the comment × node Dice matrix for the indexed nodes
// among nodes, and their element indices.
func (cp *commentPage) weights(nodes []*html.Node) ([][]float64, []int) {
	var idx []int
	for _, n := range nodes {
		if i, ok := cp.p.d.idx[n]; ok {
			idx = append(idx, int(i))
		}
	}
	w := make([][]float64, len(cp.targets))
	for j := range w {
		w[j] = make([]float64, len(idx))
		for k, i := range idx {
			w[j][k] = cp.commentDice(i, j)
		}
	}
	return w, idx
}

// subject is one training comment matched to its element on a page.
type subject struct {
	d      *bigramIndex
	elem   *html.Node
	target *CommentTarget
	lang   string
	rend   [][]int32 // bigram sets of the renderings of the comment's date
	union  []bool    // their union
}

// matchedComments matches each page's comments to the nodes the rule
// selects and returns the matched comments with their comment elements.
func matchedComments(cps []*commentPage, r *Rule) []subject {
	var out []subject
	for _, cp := range cps {
		nodes := r.allIn(cp.p.d.root, cp.p.d.ix)
		w, idx := cp.weights(nodes)
		if len(idx) == 0 {
			continue
		}
		elems := commentElements(nodes)
		pos := map[int]int{}
		for k, n := range nodes {
			if i, ok := cp.p.d.idx[n]; ok {
				pos[int(i)] = k
			}
		}
		for j, col := range maxAssignment(w) {
			if col >= 0 && w[j][col] >= 0.5 {
				out = append(out, subject{d: cp.p.d, elem: elems[pos[idx[col]]], target: &cp.targets[j], lang: cp.p.pair.Page.Lang})
			}
		}
	}
	return out
}

// maxSubjects bounds the comments the sub-rules are learned from.
const maxSubjects = 40

// sample returns at most n subjects, evenly spread.
func sample(subs []subject, n int) []subject {
	if len(subs) <= n {
		return subs
	}
	out := make([]subject, n)
	for i := range out {
		out[i] = subs[i*len(subs)/n]
	}
	return out
}

// commentElements returns, for each comment body, its comment element:
// climbing from the body through ancestors that hold no other body, the
// first that has an id (comment containers carry the comment's id), else
// the highest.
func commentElements(bodies []*html.Node) []*html.Node {
	count := map[*html.Node]int{}
	for _, b := range bodies {
		for a := b; a != nil; a = a.Parent {
			count[a]++
		}
	}
	out := make([]*html.Node, len(bodies))
	for k, b := range bodies {
		e := b
		for htmlnode.Attr(e, "id") == "" && e.Parent != nil && e.Parent.Type == html.ElementNode && count[e.Parent] == 1 {
			e = e.Parent
		}
		out[k] = e
	}
	return out
}

// subScore scores element i of a comment's page as the value of one field
// of the comment, returning the score and the attribute that matched.
type subScore func(s subject, i int) (float64, string)

// learnSubRule learns a rule relative to the comment element: the best
// element of each comment (inside the comment element or in a sibling next
// to it, for flat <dt>/<dd> layouts) votes for its relative candidates; the
// most voted are evaluated on every comment.
func learnSubRule(subs []subject, score subScore, min float64) *Rule {
	b := newBallot()
	for _, s := range subs {
		best, part := bestInRecord(s, score)
		if best < 0 {
			continue
		}
		var cands []candidate
		for _, i := range equivalents(s.d, best) {
			cands = append(cands, partCandidates(s.d.els[i], part)...)
		}
		b.vote(cands)
	}
	r := b.elect(func(r *Rule) { evaluateSub(r, subs, score) }, min)
	if r != nil {
		r.PageScores = nil // per comment, not per page: too long to be useful
	}
	return r
}

// recordPart is the comment element or one of its element siblings, with
// the XPath from the comment element to it.
type recordPart struct {
	node *html.Node
	path string // "." for the element itself
}

// recordParts returns the comment element and its nearest element sibling
// on each side.
func recordParts(elem *html.Node) []recordPart {
	parts := []recordPart{{elem, "."}}
	for _, dir := range []int{-1, 1} {
		for c := next(elem, dir); c != nil; c = next(c, dir) {
			if c.Type == html.ElementNode {
				axis := map[int]string{-1: "preceding-sibling", 1: "following-sibling"}[dir]
				parts = append(parts, recordPart{c, "./" + axis + "::" + c.Data + "[1]"})
				break
			}
		}
	}
	return parts
}

// partCandidates returns the rules, relative to the comment element, that
// select n inside part.
func partCandidates(n *html.Node, part recordPart) []candidate {
	if part.path == "." {
		return candidates(n, part.node)
	}
	if n == part.node {
		return []candidate{{part.path, kindPath}}
	}
	var out []candidate
	for _, c := range candidates(n, part.node) {
		out = append(out, candidate{part.path + strings.TrimPrefix(c.xpath, "."), c.kind + 1})
	}
	return out
}

// bestInRecord returns the best-scoring element of a comment's record and
// the part that holds it, or -1.
func bestInRecord(s subject, score subScore) (int, recordPart) {
	best, val, where := -1, 0.5, recordPart{}
	for _, part := range recordParts(s.elem) {
		root, ok := s.d.idx[part.node]
		if !ok {
			continue
		}
		for i := int(root); i >= 0 && isInside(s.d.els[i], part.node); i-- {
			if v, _ := score(s, i); v > val {
				best, val, where = i, v, part
			}
		}
	}
	return best, where
}

// isInside reports whether n is a or a descendant of a.
func isInside(n, a *html.Node) bool {
	for ; n != nil; n = n.Parent {
		if n == a {
			return true
		}
	}
	return false
}

// evaluateSub sets r's confidence to its mean score over the comments.
func evaluateSub(r *Rule, subs []subject, score subScore) {
	sum, n := 0.0, 0
	for _, s := range subs {
		if !hasField(s, score) {
			continue
		}
		n++
		if x := r.first(s.elem); x != nil {
			if i, ok := s.d.idx[x]; ok {
				v, _ := score(s, int(i))
				sum += v
			}
		}
	}
	if n > 0 {
		r.Confidence = round3(sum / float64(n))
	}
}

// hasField reports whether the comment's feed entry gives the field score
// looks at.
func hasField(s subject, score subScore) bool {
	v, _ := score(s, -1)
	return v >= 0
}

// authorSubScore scores element i as the comment's author: Dice of its
// text against the author's name. With i < 0 it returns -1 when the
// comment has no author.
func authorSubScore(s subject, i int) (float64, string) {
	if s.target.Author == "" {
		return -1, ""
	}
	if i < 0 {
		return 0, ""
	}
	return smallDice(s.d, i, s.target.Author), ""
}

// dateSubScore scores element i as the comment's date. With i < 0 it
// returns -1 when the comment has no date.
func dateSubScore(s subject, i int) (float64, string) {
	if s.target.Date.IsZero() {
		return -1, ""
	}
	if i < 0 {
		return 0, ""
	}
	var which string
	if v := attrDateScore(s.d.els[i], s.target.Date, &which); v > 0 {
		return v, which
	}
	return textDateScore(s.d, i, s.rend, s.union, nil), ""
}

// smallDice returns the Dice of element i's text against text, or 0 when
// the element holds much more text than a name.
func smallDice(d *bigramIndex, i int, text string) float64 {
	s, e := d.start[i], d.end[i]
	if e-s > maxDateRange {
		return 0
	}
	a := textsim.SortedSet(append([]int32(nil), d.vals[s:e]...))
	b := textsim.SortedSet(d.coder.AppendText(nil, text))
	return textsim.SortedDice(a, b)
}

// idLevelOrder is the order id holders are tried in: the comment element,
// its ancestors, its first child with an id, its siblings.
var idLevelOrder = []int{0, 1, 2, 3, childIDLevel, prevIDLevel, nextIDLevel}

// voteIDLevels returns the levels around the comment element whose id
// equals the feed's comment id, most frequent first.
func voteIDLevels(subs []subject) []int {
	count := map[int]int{}
	for _, s := range subs {
		if s.target.ID == "" {
			continue
		}
		for _, k := range idLevelOrder {
			if h := idHolder(s.elem, k); h != nil && htmlnode.Attr(h, "id") == s.target.ID {
				count[k]++
				break
			}
		}
	}
	var levels []int
	for _, k := range idLevelOrder {
		if count[k] > 0 {
			levels = append(levels, k)
		}
	}
	sort.SliceStable(levels, func(i, j int) bool { return count[levels[i]] > count[levels[j]] })
	return levels
}

// voteSubAttr returns the attribute most comments' dates were read from.
func voteSubAttr(subs []subject, r *Rule) string {
	count := map[string]int{}
	for _, s := range subs {
		if x := r.first(s.elem); x != nil {
			if i, ok := s.d.idx[x]; ok {
				if v, a := dateSubScore(s, int(i)); v > 0 {
					count[a]++
				}
			}
		}
	}
	best, max := "", 0
	for a, c := range count {
		if c > max || c == max && a < best {
			best, max = a, c
		}
	}
	return best
}
