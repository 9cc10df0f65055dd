package learn

import (
	"bytes"
	"fmt"

	"golang.org/x/net/html"
)

// doc is a parsed page with, for every element, the range of its text's
// bigram ids and the number of distinct bigrams under it (|N|). Elements are
// numbered in post-order, so an element's range is contiguous and ranges end
// in non-decreasing order.
type doc struct {
	root   *html.Node
	coder  *coder
	vals   []int32      // bigram ids of the page's visible text, in document order
	els    []*html.Node // elements in post-order
	start  []int32      // first position of each element's bigrams in vals
	end    []int32      // one past the last
	depth  []int32      // depth of each element (html = 0)
	parent []int32      // index of each element's parent element, -1 for the root
	idx    map[*html.Node]int32
	size   []int32 // |N|: distinct bigrams of each element
}

// parseDoc parses page HTML and indexes it.
func parseDoc(b []byte) (*doc, error) {
	root, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("parse html: %w", err)
	}
	return indexDoc(root), nil
}

// indexDoc indexes a parsed tree.
func indexDoc(root *html.Node) *doc {
	d := &doc{root: root, coder: newCoder(), idx: make(map[*html.Node]int32)}
	d.walk(root, 0)
	d.parent = make([]int32, len(d.els))
	for i, n := range d.els {
		d.parent[i] = -1
		if p, ok := d.idx[n.Parent]; ok {
			d.parent[i] = p
		}
	}
	d.size = d.sweep(nil)[0]
	return d
}

// walk appends the text bigrams and elements under n in post-order.
func (d *doc) walk(n *html.Node, depth int32) {
	switch n.Type {
	case html.TextNode:
		d.vals = d.coder.appendText(d.vals, n.Data)
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

// sweep counts, for every element, the distinct bigrams under it that belong
// to each target set (a membership table indexed by bigram id; ids beyond
// its length are not members). A nil target counts every bigram. It runs in
// O(M log M) for M bigram positions: one left-to-right pass keeps, per
// target, a Fenwick tree with a 1 at the last occurrence of each member
// bigram seen so far; the distinct members of a range ending at the current
// position are then the sum over that range.
func (d *doc) sweep(targets ...[]bool) [][]int32 {
	if len(targets) == 0 {
		targets = [][]bool{nil}
	}
	n := len(d.vals)
	last := make([]int32, d.coder.size())
	bits := make([][]int32, len(targets))
	out := make([][]int32, len(targets))
	for k := range targets {
		bits[k] = make([]int32, n+1)
		out[k] = make([]int32, len(d.els))
	}
	e := 0
	for i := 0; ; i++ {
		for ; e < len(d.els) && int(d.end[e]) == i; e++ {
			for k := range targets {
				out[k][e] = fenSum(bits[k], i) - fenSum(bits[k], int(d.start[e]))
			}
		}
		if i == n {
			break
		}
		v := d.vals[i]
		p := last[v]
		last[v] = int32(i + 1)
		for k, t := range targets {
			if t != nil && (int(v) >= len(t) || !t[v]) {
				continue
			}
			if p > 0 {
				fenAdd(bits[k], int(p-1), -1)
			}
			fenAdd(bits[k], i, 1)
		}
	}
	return out
}

// fenAdd adds x at position i of a Fenwick tree.
func fenAdd(t []int32, i int, x int32) {
	for i++; i < len(t); i += i & -i {
		t[i] += x
	}
}

// fenSum returns the sum of positions [0, i) of a Fenwick tree.
func fenSum(t []int32, i int) int32 {
	var s int32
	for ; i > 0; i -= i & -i {
		s += t[i]
	}
	return s
}

// targetSet returns the membership table of the bigrams of texts, coded
// with d's coder, and its size |T|.
func (d *doc) targetSet(texts ...string) ([]bool, int) {
	var ids []int32
	for _, t := range texts {
		ids = d.coder.appendText(ids, t)
	}
	set := make([]bool, d.coder.size())
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
func (d *doc) dice(i int, inter []int32, t int) float64 {
	den := int(d.size[i]) + t
	if den == 0 {
		return 0
	}
	return 2 * float64(inter[i]) / float64(den)
}

// distance returns the number of edges between elements i and j.
func (d *doc) distance(i, j int) int {
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
