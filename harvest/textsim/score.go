package textsim

import (
	"bytes"
	"strings"
	"time"
	"unicode"
)

// Dice returns the Sørensen–Dice coefficient 2|A∩B|/(|A|+|B|) of the
// character bigram sets of a and b after NormalizeText (case-folded, white
// space collapsed). Two empty texts score 1; one empty text scores 0.
func Dice(a, b string) float64 {
	c := NewCoder()
	sa := SortedSet(c.AppendText(nil, a))
	sb := SortedSet(c.AppendText(nil, b))
	if len(sa) == 0 && len(sb) == 0 {
		if NormalizeText(a) == NormalizeText(b) {
			return 1
		}
		return 0
	}
	return SortedDice(sa, sb)
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
	var b []byte // Collapse(strings.Join(FragmentTexts(s), " ")), written once
	eachFragmentText(s, func(text []byte) {
		for w := range bytes.FieldsSeq(text) {
			if len(b) > 0 {
				b = append(b, ' ')
			}
			b = append(b, w...)
		}
	})
	return string(b)
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
	s = CleanAuthor(s)
	if i := strings.Index(s, "("); i > 0 {
		s = s[:i]
	}
	return strings.Join(tokens(s), " ")
}

// bylinePrefixes are words that introduce an author's name.
var bylinePrefixes = []string{"posted by ", "written by ", "by ", "par ", "von ", "por ", "door ", "di ", "auteur : ", "auteur: ", "author: "}

// bylineSuffixes are words that follow a commenter's name ("Ann says:").
var bylineSuffixes = []string{" says", " said", " a dit", " schreef", " schrieb", " sagte", " dijo", " disse", " ha detto", " ha scritto", " escribió", " wrote"}

// CleanAuthor strips a byline prefix or suffix and trailing separators
// from an author's name.
func CleanAuthor(s string) string {
	s = Collapse(s)
	low := strings.ToLower(s)
	for _, p := range bylinePrefixes {
		if strings.HasPrefix(low, p) {
			s, low = s[len(p):], low[len(p):]
			break
		}
	}
	low = strings.TrimRight(low, " .…:")
	for _, p := range bylineSuffixes {
		if strings.HasSuffix(low, p) {
			s = s[:len(low)-len(p)]
			break
		}
	}
	return strings.Trim(s, " ,|·-–—:")
}

// SameCalendarDay reports whether a and b fall on the same calendar day, each in its
// own zone or both in UTC.
func SameCalendarDay(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	if ay == by && am == bm && ad == bd {
		return true
	}
	ay, am, ad = a.UTC().Date()
	by, bm, bd = b.UTC().Date()
	return ay == by && am == bm && ad == bd
}

// SameDay reports whether a and b fall on the same calendar day, in a's
// zone (the zone a page's date was written in, as Extract reports it) or in
// b's. Neither may be zero.
func SameDay(a, b time.Time) bool {
	if a.IsZero() || b.IsZero() {
		return false
	}
	return SameCalendarDay(a, b.In(a.Location())) || SameCalendarDay(a.In(b.Location()), b)
}
