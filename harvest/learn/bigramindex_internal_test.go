package learn

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// randomHTML returns a random nested page with repeated words.
func randomHTML(r *rand.Rand) string {
	words := []string{"ab", "ba", "abc", "été", "xy", "Yx", "  ", "ab ab", "ça"}
	var b strings.Builder
	var gen func(depth int)
	gen = func(depth int) {
		for k := r.IntN(4); k >= 0; k-- {
			if depth < 5 && r.IntN(2) == 0 {
				tag := []string{"div", "p", "span", "b", "script"}[r.IntN(5)]
				fmt.Fprintf(&b, "<%s>", tag)
				gen(depth + 1)
				fmt.Fprintf(&b, "</%s>", tag)
			} else {
				b.WriteString(words[r.IntN(len(words))])
			}
		}
	}
	b.WriteString("<html><body>")
	gen(0)
	b.WriteString("</body></html>")
	return b.String()
}

// TestSweepAgainstBruteForce checks the linear distinct counts against
// sets built naively from each element's range of bigram ids.
func TestSweepAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 300; trial++ {
		d, err := indexPage(Page{HTML: []byte(randomHTML(r))})
		if err != nil {
			t.Fatal(err)
		}
		member := make([]bool, d.coder.Size())
		for v := range member {
			member[v] = r.IntN(2) == 0
		}
		got := d.sweep(nil, member)
		for e := range d.els {
			all, in := map[int32]bool{}, map[int32]bool{}
			for _, v := range d.vals[d.start[e]:d.end[e]] {
				all[v] = true
				if member[v] {
					in[v] = true
				}
			}
			if int(got[0][e]) != len(all) || int(got[1][e]) != len(in) || int(d.size[e]) != len(all) {
				t.Fatalf("trial %d element %d <%s>: sizes %d/%d, in-target %d, want %d, %d", trial, e, d.els[e].Data, got[0][e], d.size[e], got[1][e], len(all), len(in))
			}
		}
	}
}
