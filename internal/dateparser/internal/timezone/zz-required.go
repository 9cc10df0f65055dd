package timezone

import (
	"regexp/syntax"
	"strings"

	"github.com/blogharvest/blogharvest/internal/dateparser/internal/regexp"
)

// requiredAll returns a literal that every match of expr holds, with
// whether it is matched case-folded (blogharvest): the longest literal
// among the parts of expr's top-level concatenation, or "" when there is
// none or expr does not parse; with the other literals of that
// concatenation (each held by every match too) and the literals of its
// first top-level alternation of literals (one of which every match
// holds): "(?:UTC|GMT)\\-03:?30.*" needs "-03", "30" and "UTC" or "GMT".
// PopTzOffset skips an offset whose text lacks them without compiling or
// running its expression, which could not match: upstream ran every
// offset's expression in turn (some 770, compiled at first use) on each
// date string the search expression let through.
func requiredAll(expr string) (lit string, fold bool, rest, anyOf []string) {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return "", false, nil, nil
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
		return "", false, nil, nil
	}
	for _, s := range subs {
		switch {
		case s.Op == syntax.OpLiteral && s != best:
			rest = append(rest, string(s.Rune))
		case s.Op == syntax.OpAlternate && anyOf == nil:
			var alts []string
			for _, a := range s.Sub {
				if a.Op != syntax.OpLiteral {
					alts = nil
					break
				}
				alts = append(alts, string(a.Rune))
			}
			anyOf = alts
		}
	}
	return string(best.Rune), best.Flags&syntax.FoldCase != 0, rest, anyOf
}

// mayMatch reports whether str holds the offset's required literal, as its
// expression matches it (case-folded as Go's regexp folds a literal rune:
// any rune of its unicode.SimpleFold orbit), and its other literals (rest,
// each, and one of anyOf); true when it has none.
func (tod OffsetData) mayMatch(str string) bool {
	switch {
	case tod.need == "":
		return true
	case !tod.fold:
		return strings.Contains(str, tod.need)
	}
	if !regexp.ContainsFold(str, tod.need) {
		return false
	}
	for _, r := range tod.rest {
		if !regexp.ContainsFold(str, r) {
			return false
		}
	}
	if len(tod.anyOf) == 0 {
		return true
	}
	for _, a := range tod.anyOf {
		if regexp.ContainsFold(str, a) {
			return true
		}
	}
	return false
}

// anyMayMatch reports whether some offset may match str (mayMatch)
// (blogharvest): when none may, PopTzOffset's loop, which skips each such
// offset, returns str unchanged whatever the search expression says, so
// PopTzOffset returns before it, without compiling it (6–11 ms, the
// largest expression of a process's first date).
func anyMayMatch(str string) bool {
	for _, o := range timezoneOffsets {
		if o.mayMatch(str) {
			return true
		}
	}
	return false
}
