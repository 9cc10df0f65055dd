package anyof

import (
	"bytes"
	"math/bits"
)

// Set is a list of byte strings to look for; its methods give the same
// answers as one bytes.Contains per string, in list order. A Set is
// read-only after New: safe for concurrent use.
//
// It reads the page at fixed steps through a filter on pairs of bytes.
// Let m be the length of the shortest string of 2 bytes or more (at
// most maxWindow). A string that occurs at offset s puts the pairs of its
// first m bytes at the page offsets s+1 … s+m-1 (the offset of a pair is
// that of its second byte): m-1 offsets in a row, one of them a multiple
// of m-1. So the scan reads only the pair at each multiple j of m-1; a
// table (ends) says at which offsets q of some string's first m bytes
// that pair stands, and for each such q where the pair at j-q begins some
// string (starts), the strings of that first byte are compared at j-q.
// No step depends on the one before, so the processor overlaps them (the
// shifts of Wu and Manber's matcher, which this replaced, each waited for
// the last). The tables are keyed on 13 bits of each pair (pairKey):
// 8 KB, they stay in the fastest cache; a collision costs a comparison,
// never an answer.
type Set struct {
	pats    [][]byte
	m       int                       // the length of the shortest string of 2 bytes or more, at most maxWindow; 0 when none
	ends    [1 << keyBits]uint8       // by pairKey: bit q-1 set when the pair stands at offset q of a string's first m bytes
	starts  [1 << keyBits / 64]uint64 // by pairKey: bit set when a string begins with the pair
	byFirst [256][]int32              // indexes of the strings of 2 bytes or more, by first byte, ascending
	short   int                       // lowest index of a string shorter than 2 bytes, or len(pats)
}

// maxWindow bounds m: the offsets 1 … m-1 fit in the 8 bits of ends.
const maxWindow = 9

// keyBits is the size of a pairKey in bits.
const keyBits = 13

// pairKey is the key of the pair of bytes a, b in Set's tables: a
// shifted by 5 bits, xor b (the mask changes nothing but spares the
// bounds checks).
func pairKey(a, b byte) int { return (int(a)<<5 ^ int(b)) & (1<<keyBits - 1) }

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
			s.m = min(len(p), maxWindow)
		}
	}
	for _, p := range s.pats {
		if len(p) < 2 {
			continue
		}
		k := pairKey(p[0], p[1])
		s.starts[k/64] |= 1 << (k % 64)
		for q := 1; q < s.m; q++ {
			s.ends[pairKey(p[q-1], p[q])] |= 1 << (q - 1)
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
	step := s.m - 1
	for j := step; step > 0 && j < len(page) && best > stop; j += step {
		if q := s.ends[pairKey(page[j-1], page[j])]; q != 0 {
			best = s.compare(page, j, q, best, stop)
		}
	}
	if best == len(s.pats) {
		return -1
	}
	return best
}

// compare compares the strings of index below best with page at j-q, for
// each offset q set in offsets (bit q-1), and returns the lowest index
// found, or best; it stops once that is stop or lower.
func (s *Set) compare(page []byte, j int, offsets uint8, best, stop int) int {
	for ; offsets != 0 && best > stop; offsets &= offsets - 1 {
		at := j - 1 - bits.TrailingZeros8(offsets)
		if k := pairKey(page[at], page[at+1]); s.starts[k/64]&(1<<(k%64)) == 0 {
			continue
		}
		for _, p := range s.byFirst[page[at]] {
			if int(p) >= best {
				break
			}
			if bytes.HasPrefix(page[at:], s.pats[p]) {
				best = int(p)
				break
			}
		}
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
