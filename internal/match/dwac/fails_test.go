package dwac

import (
	"math/rand"
	"reflect"
	"testing"
)

// TestFailsAsUpstream (blogharvest) builds automata from random sequences
// over a small alphabet (shared prefixes and suffixes, repeated
// alternatives: long chains of fails and repeated outputs) and checks that
// addFails gives every node the fail and the outputs, in order, with
// outMax and outMaxL, that upstream's addFails (upstreamAddFails, its code
// with transit as a method) gives the same tree; and the same for
// addGotosIndexes' automata of the resumed scan.
func TestFailsAsUpstream(t *testing.T) {
	r := rand.New(rand.NewSource(43))
	for round := 0; round < 300; round++ {
		seqs := randomSeqs(r, 1+r.Intn(40), 2+r.Intn(3))
		var a, b nodes
		got, want := a.new(0), b.new(0)
		got.addGotos(seqs, &a)
		want.addGotos(seqs, &b)
		checkGotos(t, round, got, seqs, nil)
		got.addFails(a.n)
		want.upstreamAddFails()
		compareAutomata(t, round, got, want)

		idxs := []SeqIndex{}
		for i, s := range seqs {
			if len(s.Choices) > 1 && r.Intn(2) == 0 {
				idxs = append(idxs, SeqIndex{i, 1 + r.Intn(len(s.Choices)-1)})
			}
		}
		var c, d nodes
		got, want = c.new(0), d.new(0)
		got.addGotosIndexes(idxs, seqs, &c)
		want.addGotosIndexes(idxs, seqs, &d)
		checkGotos(t, round, got, seqs, idxs)
		got.addFails(c.n)
		want.upstreamAddFails()
		compareAutomata(t, round, got, want)
	}
}

// checkGotos fails unless the goto function of the automaton rooted at root
// is the trie of the alternatives of seqs (of the choices idxs name, or of
// all when idxs is nil): for every node, the path to it, every byte, a goto
// exactly when path and byte begin an alternative, and a node's children
// in the order their paths first occur among the alternatives.
func checkGotos(t *testing.T, round int, root *node, seqs []Seq, idxs []SeqIndex) {
	t.Helper()
	first := map[string]int{"": 0} // prefix: order of first occurrence
	add := func(alt []byte) {
		for l := 1; l <= len(alt); l++ {
			if _, ok := first[string(alt[:l])]; !ok {
				first[string(alt[:l])] = len(first)
			}
		}
	}
	if idxs == nil {
		for _, s := range seqs {
			for _, c := range s.Choices {
				for _, alt := range c {
					add(alt)
				}
			}
		}
	} else {
		for _, idx := range idxs {
			for _, c := range seqs[idx[0]].Choices[idx[1]:] {
				for _, alt := range c {
					add(alt)
				}
			}
		}
	}
	var one [1]*node
	queue, paths, n := []*node{root}, []string{""}, 0
	for i := 0; i < len(queue); i++ {
		n++
		last := -1
		for b := 0; b < 256; b++ {
			_, want := first[paths[i]+string([]byte{byte(b)})]
			if got := queue[i].transit(byte(b)); (got != nil) != want || (got != nil && got.val != byte(b)) {
				t.Fatalf("round %d: node %q, byte %d: goto %v, want one: %v", round, paths[i], b, got != nil, want)
			}
		}
		for _, c := range queue[i].children(&one) {
			p := paths[i] + string([]byte{c.val})
			if queue[i].transit(c.val) != c || first[p] < last {
				t.Fatalf("round %d: node %q: child %q out of order or not its goto", round, paths[i], p)
			}
			last = first[p]
			queue, paths = append(queue, c), append(paths, p)
		}
	}
	if n != len(first) {
		t.Fatalf("round %d: %d nodes, %d prefixes", round, n, len(first))
	}
}

// randomSeqs returns n sequences of up to three choices of up to three
// alternatives, each of 1 to 6 bytes of an alphabet of k letters.
func randomSeqs(r *rand.Rand, n, k int) []Seq {
	seqs := make([]Seq, n)
	for i := range seqs {
		nc := 1 + r.Intn(3)
		seqs[i].MaxOffsets = make([]int64, nc)
		seqs[i].Choices = make([]Choice, nc)
		for j := range seqs[i].Choices {
			seqs[i].MaxOffsets[j] = int64(r.Intn(20)) - 1
			na := 1 + r.Intn(3)
			for range na {
				if len(seqs[i].Choices[j]) > 0 && r.Intn(5) == 0 { // an alternative twice
					seqs[i].Choices[j] = append(seqs[i].Choices[j], seqs[i].Choices[j][0])
					continue
				}
				alt := make([]byte, 1+r.Intn(6))
				for l := range alt {
					alt[l] = 'a' + byte(r.Intn(k))
				}
				seqs[i].Choices[j] = append(seqs[i].Choices[j], alt)
			}
		}
	}
	return seqs
}

// compareAutomata fails unless the two automata, built from the same
// gotos, have the same fails, outputs, outMax and outMaxL at every node.
func compareAutomata(t *testing.T, round int, got, want *node) {
	t.Helper()
	index := func(root *node) ([]*node, map[*node]int) {
		var one [1]*node
		order, at := []*node{root}, map[*node]int{root: 0}
		for i := 0; i < len(order); i++ {
			for _, c := range order[i].children(&one) {
				at[c] = len(order)
				order = append(order, c)
			}
		}
		return order, at
	}
	g, gat := index(got)
	w, wat := index(want)
	if len(g) != len(w) {
		t.Fatalf("round %d: %d nodes, upstream's gotos %d", round, len(g), len(w))
	}
	for i := range g {
		if gat[g[i].fail] != wat[w[i].fail] {
			t.Errorf("round %d, node %d: fails to %d, upstream to %d", round, i, gat[g[i].fail], wat[w[i].fail])
		}
		if !reflect.DeepEqual(g[i].output, w[i].output) || g[i].outMax != w[i].outMax || g[i].outMaxL != w[i].outMaxL {
			t.Errorf("round %d, node %d: outputs %v (%d, %d), upstream %v (%d, %d)", round, i,
				g[i].output, g[i].outMax, g[i].outMaxL, w[i].output, w[i].outMax, w[i].outMaxL)
		}
	}
}

// upstreamAddFails is upstream's addFails (match v1.0.5), the goto table
// read through transit and keys.
func (start *node) upstreamAddFails() {
	// root and its children fail to root
	start.fail = start
	for _, byt := range start.keys() {
		start.transit(byt).fail = start
	}
	// traverse tree in breadth first search adding fails
	queue := make([]*node, 0, 50)
	queue = append(queue, start)
	for len(queue) > 0 {
		pop := queue[0]
		for _, byt := range pop.keys() {
			node := pop.transit(byt)
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
			// another traverse back to root following the fails. This time add any unique out functions to the node
			fail = node.fail
			for fail != start {
				for _, o := range fail.output {
					if !contains(node.output, o) {
						node.output, node.outMax, node.outMaxL = addOutput(node.output, o, node.outMax, node.outMaxL)
					}
				}
				fail = fail.fail
			}
		}
		queue = queue[1:]
	}
}

// keys returns the bytes with a goto, in the order they were added.
func (n *node) keys() []byte {
	switch {
	case n.more != nil:
		return n.more.keys
	case n.only != nil:
		return []byte{n.key}
	}
	return nil
}
