package harvest

import (
	"net/url"
	"sort"
)

// knn estimates how many new post links a page holds from the pages already
// fetched: a distance-weighted k-nearest-neighbour regression over URL
// tokens (position-tagged path segments with digits folded, the segment
// count, query keys). Distance is the Jaccard distance of token sets; a
// neighbour weighs 1/(distance+ε). Samples live in a ring of fixed size, so
// memory and prediction time stay bounded however large the blog is.
type knn struct {
	k       int
	max     int
	samples []knnSample
	next    int // ring position of the next sample once full
	prior   float64
}

type knnSample struct {
	tokens []string // sorted
	y      float64
}

const knnEpsilon = 0.05

// newKNN returns an estimator using k neighbours and at most max samples.
func newKNN(k, max int) *knn { return &knn{k: k, max: max, prior: 1} }

// urlTokens returns the sorted feature tokens of u.
func urlTokens(u *url.URL) []string {
	segs := segments(u.Path)
	toks := []string{"n:" + itoa(len(segs))}
	for i, s := range segs {
		if isDigits(s) {
			s = "#" + itoa(len(s))
		}
		toks = append(toks, itoa(i)+":"+s)
	}
	for k := range u.Query() {
		toks = append(toks, "q:"+k)
	}
	sort.Strings(toks)
	return toks
}

// train records that the page at u held y new post links.
func (m *knn) train(u *url.URL, y float64) {
	s := knnSample{tokens: urlTokens(u), y: y}
	if len(m.samples) < m.max {
		m.samples = append(m.samples, s)
		return
	}
	m.samples[m.next] = s
	m.next = (m.next + 1) % m.max
}

// predict estimates how many new post links the page at u holds.
func (m *knn) predict(u *url.URL) float64 {
	if len(m.samples) == 0 {
		return m.prior
	}
	toks := urlTokens(u)
	type nb struct{ d, y float64 }
	best := make([]nb, 0, m.k+1)
	for _, s := range m.samples {
		d := jaccardDistance(toks, s.tokens)
		if len(best) == m.k && d >= best[m.k-1].d {
			continue
		}
		i := sort.Search(len(best), func(i int) bool { return best[i].d > d })
		best = append(best, nb{})
		copy(best[i+1:], best[i:])
		best[i] = nb{d, s.y}
		if len(best) > m.k {
			best = best[:m.k]
		}
	}
	var num, den float64
	for _, b := range best {
		w := 1 / (b.d + knnEpsilon)
		num += w * b.y
		den += w
	}
	return num / den
}

// jaccardDistance returns 1 - |a∩b|/|a∪b| of two sorted token lists.
func jaccardDistance(a, b []string) float64 {
	i, j, inter := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] == b[j]:
			inter++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	union := len(a) + len(b) - inter
	if union == 0 {
		return 0
	}
	return 1 - float64(inter)/float64(union)
}
