package anyof

import "bytes"

// Set is a list of byte strings to look for; its methods give the same
// answers as one bytes.Contains per string, in list order. A Set is
// read-only after New: safe for concurrent use.
//
// It scans as Wu and Manber's matcher does, on pairs of bytes: a window
// of m bytes (m the length of the shortest string of 2 bytes or more)
// moves along the page; the pair of bytes that ends it says how far the
// window may move without skipping the first m bytes of a string; where
// it may not move, the strings that begin at the window are compared.
type Set struct {
	pats    [][]byte
	m       int            // the length of the shortest string of 2 bytes or more; 0 when none
	shift   [1 << 16]uint8 // how far the window may move, by the pair of bytes that ends it
	byFirst [256][]int32   // indexes of the strings of 2 bytes or more, by first byte, ascending
	short   int            // lowest index of a string shorter than 2 bytes, or len(pats)
}

// New returns the Set of patterns, in this order.
func New(patterns ...string) *Set {
	s := &Set{short: len(patterns)}
	for i, p := range patterns {
		s.pats = append(s.pats, []byte(p))
		if len(p) < 2 {
			s.short = min(s.short, i)
			continue
		}
		s.byFirst[p[0]] = append(s.byFirst[p[0]], int32(i))
		if s.m == 0 || len(p) < s.m {
			s.m = min(len(p), 255)
		}
	}
	for k := range s.shift {
		s.shift[k] = uint8(max(s.m-1, 0))
	}
	for _, p := range s.pats {
		for q := 1; q < s.m && len(p) >= s.m; q++ {
			k := uint16(p[q-1])<<8 | uint16(p[q])
			s.shift[k] = min(s.shift[k], uint8(s.m-1-q))
		}
	}
	return s
}

// First returns the index of the first string, in list order, that page
// holds, or -1.
func (s *Set) First(page []byte) int { return s.scan(page, 0) }

// Any reports whether page holds one of the strings.
func (s *Set) Any(page []byte) bool { return s.scan(page, len(s.pats)-1) >= 0 }

// scan returns the index of the first string, in list order, that page
// holds, or -1; it stops as soon as it has found one of index stop or
// lower.
func (s *Set) scan(page []byte, stop int) int {
	best := s.firstShort(page)
	for j := s.m - 1; s.m > 0 && j < len(page) && best > stop; {
		if sh := s.shift[uint16(page[j-1])<<8|uint16(page[j])]; sh > 0 {
			j += int(sh)
			continue
		}
		at := page[j-s.m+1:]
		for _, p := range s.byFirst[at[0]] {
			if int(p) >= best {
				break
			}
			if bytes.HasPrefix(at, s.pats[p]) {
				best = int(p)
				break
			}
		}
		j++
	}
	if best == len(s.pats) {
		return -1
	}
	return best
}

// firstShort returns the index of the first string shorter than 2 bytes
// that page holds, or len(s.pats).
func (s *Set) firstShort(page []byte) int {
	for i := s.short; i < len(s.pats); i++ {
		if len(s.pats[i]) < 2 && bytes.Contains(page, s.pats[i]) {
			return i
		}
	}
	return len(s.pats)
}
