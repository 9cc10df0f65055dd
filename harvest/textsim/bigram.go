package textsim

import (
	"slices"
	"unicode"
	"unicode/utf8"
)

// asciiBigrams is the number of bigram ids reserved for pairs of ASCII
// characters: such a pair's id is r1<<7 | r2, with no lookup.
const asciiBigrams = 128 * 128

// Coder gives dense int32 ids to character bigrams. ASCII pairs have fixed
// ids; other pairs get ids from asciiBigrams up, in order of appearance. A
// coder is used by one goroutine.
type Coder struct {
	other map[uint64]int32
}

func NewCoder() *Coder { return &Coder{other: make(map[uint64]int32)} }

// Size returns one more than the largest id given so far.
func (c *Coder) Size() int { return asciiBigrams + len(c.other) }

// id returns the id of the bigram (a, b).
func (c *Coder) id(a, b rune) int32 {
	if a < 128 && b < 128 {
		return a<<7 | b
	}
	k := uint64(a)<<32 | uint64(uint32(b))
	if v, ok := c.other[k]; ok {
		return v
	}
	v := int32(c.Size())
	c.other[k] = v
	return v
}

// AppendText appends the bigram ids of s, normalised (case-folded,
// whitespace runs collapsed to one space, trimmed), to dst.
func (c *Coder) AppendText(dst []int32, s string) []int32 {
	dst = slices.Grow(dst, len(s)) // s has at most len(s) bigrams
	prev := rune(-1)
	space := false
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		i += n
		r = fold(r)
		if r == ' ' {
			space = prev >= 0
			continue
		}
		if space {
			dst = append(dst, c.id(prev, ' '))
			prev = ' '
			space = false
		}
		if prev >= 0 {
			dst = append(dst, c.id(prev, r))
		}
		prev = r
	}
	return dst
}

// fold lower-cases r and maps every white space to ' '.
func fold(r rune) rune {
	switch {
	case r >= 'A' && r <= 'Z':
		return r + 'a' - 'A'
	case r < 128:
		if r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v' {
			return ' '
		}
		return r
	case unicode.IsSpace(r):
		return ' '
	}
	return unicode.ToLower(r)
}

// SortedSet sorts ids and removes duplicates, in place.
func SortedSet(ids []int32) []int32 {
	slices.Sort(ids)
	return slices.Compact(ids)
}

// SortedDice returns the Dice coefficient of two sorted sets.
func SortedDice(a, b []int32) float64 {
	if len(a)+len(b) == 0 {
		return 0
	}
	i, j, common := 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			common++
			i++
			j++
		}
	}
	return 2 * float64(common) / float64(len(a)+len(b))
}
