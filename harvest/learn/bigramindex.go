package learn

import (
	"github.com/blogharvest/blogharvest/harvest/textsim"
	"golang.org/x/net/html"
)

// bigramIndex is a parsed page with, for every element, the range of its text's
// bigram ids and the number of distinct bigrams under it (|N|). Elements are
// numbered in post-order, so an element's range is contiguous, children
// come before their parent, and ranges end in non-decreasing order.
type bigramIndex struct {
	root   *html.Node
	coder  *textsim.Coder
	vals   []int32      // bigram ids of the page's visible text, in document order
	owner  []int32      // per position: the element whose own text holds it
	meet   []int32      // per position: the deepest element holding it and the previous occurrence of its bigram, -1 if none
	els    []*html.Node // elements in post-order
	start  []int32      // first position of each element's bigrams in vals
	end    []int32      // one past the last
	depth  []int32      // depth of each element (html = 0)
	parent []int32      // index of each element's parent element, -1 for the root
	idx    map[*html.Node]int32
	size   []int32 // |N|: distinct bigrams of each element
	ix     *nodeIndex
	runs   []textRun // text nodes, for owner
}

// textRun is the positions of one text node and its parent element.
type textRun struct {
	from, to int32
	parent   *html.Node
}

// indexPage indexes a page, parsing it when it has no tree yet.
func indexPage(p Page) (*bigramIndex, error) {
	root, err := p.root()
	if err != nil {
		return nil, err
	}
	return newBigramIndex(root), nil
}

// newBigramIndex indexes a parsed tree.
func newBigramIndex(root *html.Node) *bigramIndex {
	text, texts, els := countIndexed(root)
	d := &bigramIndex{root: root, coder: textsim.NewCoder(), idx: make(map[*html.Node]int32, els),
		vals: make([]int32, 0, text), runs: make([]textRun, 0, texts),
		els: make([]*html.Node, 0, els), start: make([]int32, 0, els), end: make([]int32, 0, els), depth: make([]int32, 0, els)}
	d.walk(root, 0)
	d.parent = make([]int32, len(d.els))
	for i, n := range d.els {
		d.parent[i] = -1
		if p, ok := d.idx[n.Parent]; ok {
			d.parent[i] = p
		}
	}
	d.setOwners()
	d.setMeets()
	d.size = d.sweep(nil)[0]
	d.ix = newIndex(root)
	d.runs = nil
	return d
}

// countIndexed counts what walk will index under n: the bytes of its text
// nodes (at least as many as their bigrams), the text nodes and the
// elements. newBigramIndex sizes its slices and map with them once,
// instead of growing them by doubling through the walk, each step a copy
// and, for vals, zeroed memory (issue 43).
func countIndexed(n *html.Node) (text, texts, els int) {
	switch n.Type {
	case html.TextNode:
		return len(n.Data), 1, 0
	case html.ElementNode:
		if skipped(n) {
			return 0, 0, 0
		}
		els = 1
	case html.DocumentNode:
	default:
		return 0, 0, 0
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		t, ts, e := countIndexed(c)
		text, texts, els = text+t, texts+ts, els+e
	}
	return text, texts, els
}

// walk appends the text bigrams and elements under n in post-order.
func (d *bigramIndex) walk(n *html.Node, depth int32) {
	switch n.Type {
	case html.TextNode:
		from := int32(len(d.vals))
		d.vals = d.coder.AppendText(d.vals, n.Data)
		if to := int32(len(d.vals)); to > from {
			d.runs = append(d.runs, textRun{from, to, n.Parent})
		}
		return
	case html.ElementNode:
		if skipped(n) {
			return
		}
	case html.DocumentNode:
	default:
		return
	}
	start := int32(len(d.vals))
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		d.walk(c, depth+1)
	}
	if n.Type != html.ElementNode {
		return
	}
	d.idx[n] = int32(len(d.els))
	d.els = append(d.els, n)
	d.start = append(d.start, start)
	d.end = append(d.end, int32(len(d.vals)))
	d.depth = append(d.depth, depth)
}

// setOwners records the element that holds each text position. Text
// directly under the document node (none in practice) belongs to no
// element and is owned by the root element.
func (d *bigramIndex) setOwners() {
	d.owner = make([]int32, len(d.vals))
	top := int32(len(d.els) - 1)
	for _, r := range d.runs {
		o, ok := d.idx[r.parent]
		if !ok {
			o = top
		}
		for i := r.from; i < r.to; i++ {
			d.owner[i] = o
		}
	}
}

// setMeets finds, for each position, the previous occurrence of its bigram
// and the deepest element holding both: climbing from the position's owner
// to the first ancestor that starts at or before the previous occurrence.
func (d *bigramIndex) setMeets() {
	d.meet = make([]int32, len(d.vals))
	last := make([]int32, d.coder.Size())
	for i, v := range d.vals {
		p := last[v] - 1
		last[v] = int32(i + 1)
		if p < 0 {
			d.meet[i] = -1
			continue
		}
		e := d.owner[i]
		for e >= 0 && d.start[e] > p {
			e = d.parent[e]
		}
		d.meet[i] = e
	}
}

// sweep counts, for every element, the distinct bigrams under it that belong
// to each target set (a membership table indexed by bigram id; ids beyond
// its length are not members). A nil target counts every bigram. Each count
// is linear: every position of a member bigram adds 1 to its owner and
// takes 1 from the deepest element that also holds the bigram's previous
// occurrence (so each distinct bigram counts once per element), and the
// counts are then summed bottom-up, children before parents.
func (d *bigramIndex) sweep(targets ...[]bool) [][]int32 {
	if len(targets) == 0 {
		targets = [][]bool{nil}
	}
	out := make([][]int32, len(targets))
	for k, t := range targets {
		cnt := make([]int32, len(d.els))
		for i, v := range d.vals {
			if t != nil && (int(v) >= len(t) || !t[v]) {
				continue
			}
			cnt[d.owner[i]]++
			if m := d.meet[i]; m >= 0 {
				cnt[m]--
			}
		}
		for e, p := range d.parent {
			if p >= 0 {
				cnt[p] += cnt[e]
			}
		}
		out[k] = cnt
	}
	return out
}

// targetSet returns the membership table of the bigrams of texts, coded
// with d's coder, and its size |T|.
func (d *bigramIndex) targetSet(texts ...string) ([]bool, int) {
	n := 0
	for _, t := range texts {
		n += len(t) // at least the bigrams of t: ids allocated once
	}
	ids := make([]int32, 0, n)
	for _, t := range texts {
		ids = d.coder.AppendText(ids, t)
	}
	set := make([]bool, d.coder.Size())
	count := 0
	for _, v := range ids {
		if !set[v] {
			set[v] = true
			count++
		}
	}
	return set, count
}

// dice returns the Sørensen–Dice coefficient of element i against a target
// of size t with inter bigrams in common.
func (d *bigramIndex) dice(i int, inter []int32, t int) float64 {
	den := int(d.size[i]) + t
	if den == 0 {
		return 0
	}
	return 2 * float64(inter[i]) / float64(den)
}

// distance returns the number of edges between elements i and j.
func (d *bigramIndex) distance(i, j int) int {
	steps := 0
	for i != j {
		if d.depth[i] >= d.depth[j] {
			i = int(d.parent[i])
		} else {
			j = int(d.parent[j])
		}
		steps++
		if i < 0 || j < 0 {
			return steps + 64
		}
	}
	return steps
}
