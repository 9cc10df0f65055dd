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
		got.addFails(a.n)
		want.upstreamAddFails()
		compareAutomata(t, round, got, want)

		var idxs []SeqIndex
		for i, s := range seqs {
			if len(s.Choices) > 1 && r.Intn(2) == 0 {
				idxs = append(idxs, SeqIndex{i, 1 + r.Intn(len(s.Choices)-1)})
			}
		}
		var c, d nodes
		got, want = c.new(0), d.new(0)
		got.addGotosIndexes(idxs, seqs, &c)
		want.addGotosIndexes(idxs, seqs, &d)
		got.addFails(c.n)
		want.upstreamAddFails()
		compareAutomata(t, round, got, want)
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
		order, at := []*node{root}, map[*node]int{root: 0}
		for i := 0; i < len(order); i++ {
			for _, c := range order[i].next {
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
// read through transit.
func (start *node) upstreamAddFails() {
	// root and its children fail to root
	start.fail = start
	for _, byt := range start.keys {
		start.transit(byt).fail = start
	}
	// traverse tree in breadth first search adding fails
	queue := make([]*node, 0, 50)
	queue = append(queue, start)
	for len(queue) > 0 {
		pop := queue[0]
		for _, byt := range pop.keys {
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
