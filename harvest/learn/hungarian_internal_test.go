package learn

import (
	"math"
	"math/rand/v2"
	"testing"
)

// bruteAssignment returns the best total weight over every assignment of
// rows to distinct columns (rows beyond the columns stay unmatched).
func bruteAssignment(w [][]float64) float64 {
	n, m := len(w), len(w[0])
	used := make([]bool, m)
	var rec func(i, free int) float64
	rec = func(i, free int) float64 {
		if i == n {
			return 0
		}
		best := math.Inf(-1)
		if n-i > free {
			best = rec(i+1, free) // leave row i unmatched
		}
		for j := 0; j < m; j++ {
			if !used[j] {
				used[j] = true
				best = math.Max(best, w[i][j]+rec(i+1, free-1))
				used[j] = false
			}
		}
		return best
	}
	return rec(0, m)
}

func TestMaxAssignmentAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 500; trial++ {
		n, m := 1+r.IntN(6), 1+r.IntN(6)
		w := make([][]float64, n)
		for i := range w {
			w[i] = make([]float64, m)
			for j := range w[i] {
				w[i][j] = math.Round(r.Float64()*100) / 100
				if r.IntN(4) == 0 {
					w[i][j] = 0
				}
			}
		}
		a := maxAssignment(w)
		seen := map[int]bool{}
		for _, j := range a {
			if j >= 0 && seen[j] {
				t.Fatalf("column %d used twice in %v", j, a)
			}
			seen[j] = true
		}
		got, want := assignmentWeight(w, a), bruteAssignment(w)
		if math.Abs(got-want) > 1e-9 {
			t.Fatalf("trial %d: %d×%d weight %v, brute force %v\nw=%v a=%v", trial, n, m, got, want, w, a)
		}
	}
}
