// Copyright 2019 Richard Lehane. All rights reserved.
//
// Licensed under the Apache License, Version 2.0 (the "License");
// you may not use this file except in compliance with the License.
// You may obtain a copy of the License at
//
//     http://www.apache.org/licenses/LICENSE-2.0
//
// Unless required by applicable law or agreed to in writing, software
// distributed under the License is distributed on an "AS IS" BASIS,
// WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
// See the License for the specific language governing permissions and
// limitations under the License.

// This file implements Aho Corasick searching for the bytematcher package
package dwac

// out function
type out struct {
	max      int64 // maximum offset at which can occur
	seqIndex int   // index within all the Seqs in the Wac
	subIndex int   // index of the Choice within the Seq
	length   int   // length of byte slice
}

func contains(op []out, o out) bool {
	if op == nil {
		return false
	}
	for _, o1 := range op {
		if o == o1 {
			return true
		}
	}
	return false
}

func addOutput(op []out, o out, outMax int64, outMaxL int) ([]out, int64, int) {
	if op == nil {
		return []out{o}, o.max, o.length
	}
	if outMax > -1 && (o.max == -1 || o.max > outMax) {
		outMax = o.max
	}
	if o.length > outMaxL {
		outMaxL = o.length
	}
	return append(op, o), outMax, outMaxL
}

// regular node
type node struct {
	val     byte
	key     byte    // the first byte with a goto (blogharvest)
	only    *node   // the goto of key, nil for a node with no goto (blogharvest)
	more    *fanout // the goto function of a node with more than one key (blogharvest)
	fail    *node   // the fail function
	output  []out   // the output function
	outMax  int64
	outMaxL int
}

// fanout is the goto function of a node with more than one key
// (blogharvest: upstream kept a [256]*node table in every node; a node's
// first goto is inline, key and only, and the few nodes with more keys
// keep them here, so that a node is 72 bytes, not 120 as when every node
// held the lists).
type fanout struct {
	keys  []byte      // the bytes with a goto, in the order they were added
	next  []*node     // next[i] is the goto for keys[i]
	dense *[256]*node // the goto function as a table, for a node with more than denseAt keys
}

// denseAt is the number of keys above which a node keeps its goto function
// as a table too (blogharvest: upstream kept a [256]*node table in every
// node, 2 KiB each, 58 MB for PRONOM's signatures; of its 26 539 nodes
// 19 067 have one key and 4 987 none; a node with up to denseAt keys finds
// its goto among its keys, one comparison for one key and a scan of at
// most denseAt bytes otherwise, so that only the few nodes with many keys
// pay for a table).
const denseAt = 8

// transit returns the goto of byt, or nil.
func (n *node) transit(byt byte) *node {
	if n.key == byt { // nil, or the first key's goto
		return n.only
	}
	if m := n.more; m != nil {
		if m.dense != nil {
			return m.dense[byt]
		}
		for i := 1; i < len(m.keys); i++ { // at most denseAt keys
			if m.keys[i] == byt {
				return m.next[i]
			}
		}
	}
	return nil
}

// children returns the node's gotos in the order their keys were added;
// one, an array of the caller's, holds a node's only goto.
func (n *node) children(one *[1]*node) []*node {
	if n.more != nil {
		return n.more.next
	}
	if n.only == nil {
		return nil
	}
	one[0] = n.only
	return one[:]
}

// nodes hands out an automaton's nodes from blocks (blogharvest: upstream
// allocated every node, and its lists of keys and gotos, one by one: some
// 75 000 allocations for PRONOM's 26 539 nodes at a process's first
// identification). A block grows from 16 to 1024 nodes, so that the small
// automata of a resumed scan (addGotosIndexes) stay small.
type nodes struct {
	n     int // the nodes handed out
	block []node
	size  int
}

// new returns a zero node with the value val.
func (a *nodes) new(val byte) *node {
	if len(a.block) == 0 {
		a.size = min(max(2*a.size, 16), 1024)
		a.block = make([]node, a.size)
	}
	n := &a.block[0]
	a.block = a.block[1:]
	a.n++
	n.val = val
	return n
}

// child returns the goto of byt, adding a new node for it (from a) if
// there is none.
func (n *node) child(byt byte, a *nodes) *node {
	if c := n.transit(byt); c != nil {
		return c
	}
	c := a.new(byt)
	switch m := n.more; {
	case n.only == nil:
		n.key, n.only = byt, c
	case m == nil:
		n.more = &fanout{keys: []byte{n.key, byt}, next: []*node{n.only, c}}
	default:
		m.keys = append(m.keys, byt)
		m.next = append(m.next, c)
		switch {
		case m.dense != nil:
			m.dense[byt] = c
		case len(m.keys) > denseAt:
			m.dense = new([256]*node)
			for i, k := range m.keys {
				m.dense[k] = m.next[i]
			}
		}
	}
	return c
}

func (start *node) addGotos(seqs []Seq, a *nodes) (int64, bool) {
	var maxOff int64
	var hasWild bool
	// iterate through byte sequences adding goto links to the link matrix
	for id, seq := range seqs {
		for i, choice := range seq.Choices {
			for _, byts := range choice {
				curr := start
				for _, byt := range byts {
					curr = curr.child(byt, a)
				}
				curr.output, curr.outMax, curr.outMaxL = addOutput(
					curr.output,
					out{seq.MaxOffsets[i], id, i, len(byts)},
					curr.outMax,
					curr.outMaxL)
				if seq.MaxOffsets[i] > maxOff {
					maxOff = seq.MaxOffsets[i]
				}
				if seq.MaxOffsets[i] == -1 {
					hasWild = true
				}
			}
		}
	}
	return maxOff, hasWild
}

func (start *node) addGotosIndexes(idxs []SeqIndex, seqs []Seq, a *nodes) {
	for _, idx := range idxs {
		for i, choice := range seqs[idx[0]].Choices[idx[1]:] {
			for _, byts := range choice {
				curr := start
				for _, byt := range byts {
					curr = curr.child(byt, a)
				}
				curr.output, curr.outMax, curr.outMaxL = addOutput(
					curr.output,
					out{-1, idx[0], i + idx[1], len(byts)},
					curr.outMax,
					curr.outMaxL)
			}
		}
	}
}

// distinct reports whether op holds no output twice.
func distinct(op []out) bool {
	for i := 1; i < len(op); i++ {
		if contains(op[:i], op[i]) {
			return false
		}
	}
	return true
}

// addFails adds the fail function, and to each node's outputs those of
// the nodes its fails lead to, breadth first from start, the root of an
// automaton of n nodes (blogharvest: the same fails and outputs, in the same
// order, as upstream's, which grew its queue one node at a time and walked
// each node's whole chain of fails for their outputs, checking each against
// the node's list). The chain's outputs are its first fail's, which already
// holds those of the fails after it, without repeats and in the chain's
// order; a node with no output of its own shares its fail's list when that
// holds no output twice (no output is added to a node once it has been
// reached), and one with
// outputs of its own adds those of its fail's list it lacks, in a list
// grown once.
func (start *node) addFails(n int) {
	// root and its children fail to root
	var one [1]*node
	start.fail = start
	for _, c := range start.children(&one) {
		c.fail = start
	}
	// traverse tree in breadth first search adding fails
	queue := make([]*node, 1, n)
	queue[0] = start
	for i := 0; i < len(queue); i++ {
		pop := queue[i]
		for _, node := range pop.children(&one) {
			queue = append(queue, node)
			// starting from the node's parent, follow the fails back towards root,
			// and stop at the first fail that has a goto to the node's value
			fail := pop.fail
			ok := fail.transit(node.val)
			for fail != start && ok == nil {
				fail = fail.fail
				ok = fail.transit(node.val)
			}
			fnode := fail.transit(node.val)
			if fnode != nil && fnode != node {
				node.fail = fnode
			} else {
				node.fail = start
			}
			// the outputs of the node's fails: its fail's, which hold those of
			// the rest of the chain (blogharvest)
			fail = node.fail
			if fail == start || len(fail.output) == 0 {
				continue
			}
			if len(node.output) == 0 && distinct(fail.output) {
				node.output, node.outMax, node.outMaxL = fail.output, fail.outMax, fail.outMaxL
				continue
			}
			if want := len(node.output) + len(fail.output); cap(node.output) < want {
				node.output = append(make([]out, 0, want), node.output...)
			}
			for _, o := range fail.output {
				if !contains(node.output, o) {
					node.output, node.outMax, node.outMaxL = addOutput(node.output, o, node.outMax, node.outMaxL)
				}
			}
		}
	}
}

// preconditions ensure that subsequent (>0) Choices in a Seq are only sent when previous Choices have already matched
// previous matches are stored as offsets to prevent overlapping matches resulting in false positives
type precons [][]int64

func newPrecons(t []int) *precons {
	p := make(precons, len(t))
	for i, v := range t {
		p[i] = make([]int64, v)
	}
	return &p
}

func clear(p precons) *precons {
	for i := range p {
		for j := range p[i] {
			p[i][j] = 0
		}
	}
	return &p
}

func makeT(s []Seq) []int {
	t := make([]int, len(s))
	for i := range s {
		t[i] = len(s[i].Choices)
	}
	return t
}

func preconsFn(s []Seq) func() interface{} {
	t := makeT(s)
	return func() interface{} {
		return newPrecons(t)
	}
}
