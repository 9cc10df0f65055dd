package learn

import (
	"strings"
	"unicode"
)

// This file holds the scoring functions of the evaluation (DESIGN §8). They
// are exported for the eval module, which scores every extractor with them.

// Dice returns the Sørensen–Dice coefficient 2|A∩B|/(|A|+|B|) of the
// character bigram sets of a and b after NormalizeText (case-folded, white
// space collapsed). Two empty texts score 1; one empty text scores 0.
func Dice(a, b string) float64 {
	c := newCoder()
	sa := sortedSet(c.appendText(nil, a))
	sb := sortedSet(c.appendText(nil, b))
	if len(sa) == 0 && len(sb) == 0 {
		if NormalizeText(a) == NormalizeText(b) {
			return 1
		}
		return 0
	}
	return sortedDice(sa, sb)
}

// TokenF1 returns the F1 score of the word tokens of got against want:
// words are runs of letters and digits, case-folded, counted as multisets.
// Two empty texts score 1.
func TokenF1(got, want string) float64 {
	g, w := tokens(got), tokens(want)
	if len(g) == 0 && len(w) == 0 {
		return 1
	}
	if len(g) == 0 || len(w) == 0 {
		return 0
	}
	count := make(map[string]int, len(w))
	for _, t := range w {
		count[t]++
	}
	common := 0
	for _, t := range g {
		if count[t] > 0 {
			count[t]--
			common++
		}
	}
	if common == 0 {
		return 0
	}
	p := float64(common) / float64(len(g))
	r := float64(common) / float64(len(w))
	return 2 * p * r / (p + r)
}

// tokens splits s into case-folded words.
func tokens(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// HTMLText returns the visible text of an HTML fragment (or of plain text),
// its text nodes joined by spaces, white space collapsed: the form feed
// content is compared in.
func HTMLText(s string) string {
	return collapse(strings.Join(fragmentTexts(s), " "))
}

// SameAuthor reports whether two author names are equal after
// normalisation: case-folded, byline prefixes ("by", "Posted by") removed,
// punctuation and white space collapsed.
func SameAuthor(a, b string) bool {
	na, nb := authorKey(a), authorKey(b)
	return na != "" && na == nb
}

// authorKey normalises an author's name for comparison.
func authorKey(s string) string {
	s = cleanAuthor(s)
	if i := strings.Index(s, "("); i > 0 {
		s = s[:i]
	}
	return strings.Join(tokens(s), " ")
}
