package learn

import "math"

// maxAssignment solves the assignment problem on a weight matrix w of n
// rows and m ≥ n columns: it returns, for each row, the column it is matched
// to, such that no column is used twice and the total weight is maximal. It
// is the Hungarian algorithm (Kuhn–Munkres with potentials, O(n²m)). Rows
// beyond the number of columns are matched to -1.
func maxAssignment(w [][]float64) []int {
	n := len(w)
	if n == 0 {
		return nil
	}
	m := len(w[0])
	if m < n {
		return maxAssignmentTransposed(w)
	}
	// 1-based arrays as in the classic formulation; cost = -weight.
	u, v := make([]float64, n+1), make([]float64, m+1)
	p, way := make([]int, m+1), make([]int, m+1)
	minv, used := make([]float64, m+1), make([]bool, m+1)
	for i := 1; i <= n; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j], used[j] = math.Inf(1), false
		}
		for p[j0] != 0 || j0 == 0 {
			used[j0] = true
			i0, delta, j1 := p[j0], math.Inf(1), 0
			for j := 1; j <= m; j++ {
				if used[j] {
					continue
				}
				if cur := -w[i0-1][j-1] - u[i0] - v[j]; cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for j := 0; j <= m; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
			if p[j0] == 0 {
				break
			}
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	out := make([]int, n)
	for j := 1; j <= m; j++ {
		if p[j] != 0 {
			out[p[j]-1] = j - 1
		}
	}
	return out
}

// maxAssignmentTransposed handles more rows than columns by solving the
// transposed problem.
func maxAssignmentTransposed(w [][]float64) []int {
	n, m := len(w), len(w[0])
	t := make([][]float64, m)
	for j := range t {
		t[j] = make([]float64, n)
		for i := range w {
			t[j][i] = w[i][j]
		}
	}
	cols := maxAssignment(t)
	out := make([]int, n)
	for i := range out {
		out[i] = -1
	}
	for j, i := range cols {
		out[i] = j
	}
	return out
}

// assignmentWeight returns the total weight of an assignment.
func assignmentWeight(w [][]float64, a []int) float64 {
	s := 0.0
	for i, j := range a {
		if j >= 0 {
			s += w[i][j]
		}
	}
	return s
}
