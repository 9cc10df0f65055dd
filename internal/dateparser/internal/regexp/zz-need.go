//go:build !(re2_wasm || re2_cgo) || !cgo

package regexp

import (
	"regexp/syntax"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Word-bounded expressions (blogharvest): go-dateparser's simplifications
// are mostly `(?i)(\A|[^\pL\pM\d_])WORDS(\z|[^\pL\pM\d_])`, whose Unicode
// classes, case-folded, cost 0.1–4 ms each to compile (about 20 of them
// at a process's first English date, issue 43).
const (
	wordStart = `(?i)(\A|[^\pL\pM\d_])`
	wordEnd   = `(\z|[^\pL\pM\d_])`
)

// needs holds, for each expression asked about, the literal every match of
// it holds, with whether it is case-folded.
var needs sync.Map // *Regexp → need

type need struct {
	lit  string
	fold bool
}

// MayMatch reports whether re may match s without compiling re
// (blogharvest): false only when re is word-bounded (wordStart, a middle,
// wordEnd) and s lacks the longest literal of the middle's top-level
// concatenation, a literal every match holds (the middle parsed alone, a
// few runes, not the costly classes). Simplify skips such an expression,
// which could not match; TestWordNeedIsTopLevelLiteral checks, for every
// locale's simplification, that the literal is one the whole expression
// requires.
func (re *Regexp) MayMatch(s string) bool {
	n := re.need()
	switch {
	case n.lit == "":
		return true
	case !n.fold:
		return strings.Contains(s, n.lit)
	}
	return ContainsFold(s, n.lit)
}

// ContainsFold reports whether s holds lit, each rune of s equal to lit's
// or in its case-folding orbit, as Go's regexp folds a literal
// (blogharvest; the time zones' pre-check uses it too).
func ContainsFold(s, lit string) bool {
	for i := 0; i < len(s); {
		if hasPrefixFold(s[i:], lit) {
			return true
		}
		_, w := utf8.DecodeRuneInString(s[i:])
		i += w
	}
	return false
}

// Required returns the literal MayMatch looks for, with whether it is
// case-folded ("" when MayMatch is always true).
func (re *Regexp) Required() (string, bool) {
	n := re.need()
	return n.lit, n.fold
}

// need returns re's required literal (MayMatch), computed once.
func (re *Regexp) need() need {
	if v, ok := needs.Load(re); ok {
		return v.(need)
	}
	n := wordNeed(re.src)
	needs.Store(re, n)
	return n
}

// wordNeed returns the literal every match of the word-bounded expression
// src holds, or a zero need when src is not word-bounded, its middle does
// not parse alone or has no literal part.
func wordNeed(src string) need {
	if !strings.HasPrefix(src, wordStart) || !strings.HasSuffix(src, wordEnd) || len(src) < len(wordStart)+len(wordEnd) {
		return need{}
	}
	mid := src[len(wordStart) : len(src)-len(wordEnd)]
	re, err := syntax.Parse(`(?i)`+mid, syntax.Perl)
	if err != nil {
		return need{}
	}
	subs := []*syntax.Regexp{re}
	if re.Op == syntax.OpConcat {
		subs = re.Sub
	}
	var best *syntax.Regexp
	for _, s := range subs {
		if s.Op == syntax.OpLiteral && (best == nil || len(s.Rune) > len(best.Rune)) {
			best = s
		}
	}
	if best == nil {
		return need{}
	}
	return need{string(best.Rune), best.Flags&syntax.FoldCase != 0}
}

// hasPrefixFold reports whether s begins with lit, rune by rune, each rune
// of s equal to lit's or in its fold orbit (as Go's regexp folds a literal
// rune).
func hasPrefixFold(s, lit string) bool {
	for _, r := range lit {
		if s == "" {
			return false
		}
		c, n := utf8.DecodeRuneInString(s)
		if c != r && !sameFold(c, r) {
			return false
		}
		s = s[n:]
	}
	return true
}

// sameFold reports whether c is in r's case-folding orbit.
func sameFold(c, r rune) bool {
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f == c {
			return true
		}
	}
	return false
}
