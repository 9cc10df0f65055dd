package marc

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Problem is one finding of Lint. Tag is the field's tag, or "LDR" for the
// leader.
type Problem struct {
	Tag     string
	Message string
}

// Error implements error.
func (p Problem) Error() string { return "marc " + p.Tag + ": " + p.Message }

var _ error = Problem{}

// Lint reports what MARC21slim.xsd cannot check, every problem in record
// order; nil when there is none:
//   - the leader is 24 characters with 05 record status one of acdnp, 06
//     type of record one of acdefgijkmoprt, 07 bibliographic level one of
//     abcdims, 09 a (UCS/Unicode), 10-11 22 and 20-23 4500;
//   - 008 is 40 characters and 00-05 (date entered) six digits;
//   - 001, 245 and 980 are present, and 001 is not empty;
//   - tags are three digits, control fields are 00X and data fields are not;
//   - indicators are a digit, a lowercase letter or a space (never '#');
//   - a data field has subfields, each with a lowercase letter or a digit
//     as code and a non-empty value.
func Lint(r *Record) []Problem {
	var ps []Problem
	ps = append(ps, lintLeader(r.Leader)...)
	for _, f := range r.Control {
		ps = append(ps, lintControl(f)...)
	}
	for _, f := range r.Data {
		ps = append(ps, lintData(f)...)
	}
	return append(ps, lintRequired(r)...)
}

// leaderRules are the coded leader positions Lint checks, with the values
// each may take.
var leaderRules = []struct {
	from, to int
	name     string
	allowed  []string
}{
	{5, 6, "record status", strings.Split("acdnp", "")},
	{6, 7, "type of record", strings.Split("acdefgijkmoprt", "")},
	{7, 8, "bibliographic level", strings.Split("abcdims", "")},
	{9, 10, "character coding scheme", []string{"a"}},
	{10, 12, "indicator and subfield code counts", []string{"22"}},
	{20, 24, "entry map", []string{"4500"}},
}

func lintLeader(l string) []Problem {
	if len(l) != 24 || !utf8.ValidString(l) {
		return []Problem{{"LDR", fmt.Sprintf("leader %q is not 24 characters", l)}}
	}
	var ps []Problem
	for _, rule := range leaderRules {
		if v := l[rule.from:rule.to]; !contains(rule.allowed, v) {
			ps = append(ps, Problem{"LDR", fmt.Sprintf("position %02d (%s) is %q, want one of %q",
				rule.from, rule.name, v, rule.allowed)})
		}
	}
	return ps
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func lintControl(f ControlField) []Problem {
	var ps []Problem
	switch {
	case !digits(f.Tag):
		ps = append(ps, Problem{f.Tag, "tag is not three digits"})
	case !strings.HasPrefix(f.Tag, "00"):
		ps = append(ps, Problem{f.Tag, "control field outside 001-009"})
	}
	if f.Value == "" {
		ps = append(ps, Problem{f.Tag, "empty control field"})
	}
	if f.Tag == "008" {
		ps = append(ps, lint008(f.Value)...)
	}
	return ps
}

func lint008(v string) []Problem {
	if n := utf8.RuneCountInString(v); n != 40 {
		return []Problem{{"008", fmt.Sprintf("%d characters, want 40", n)}}
	}
	if !digitsN(v[:6], 6) {
		return []Problem{{"008", fmt.Sprintf("positions 00-05 (date entered) %q are not yymmdd", v[:6])}}
	}
	return nil
}

func lintData(f DataField) []Problem {
	var ps []Problem
	switch {
	case !digits(f.Tag):
		ps = append(ps, Problem{f.Tag, "tag is not three digits"})
	case strings.HasPrefix(f.Tag, "00"):
		ps = append(ps, Problem{f.Tag, "data field with a control field tag (00X)"})
	}
	for i, ind := range []byte{f.Ind1, f.Ind2} {
		if !(ind == ' ' || ind >= '0' && ind <= '9' || ind >= 'a' && ind <= 'z') {
			ps = append(ps, Problem{f.Tag, fmt.Sprintf("indicator %d is %q, want a digit, a lowercase letter or a space", i+1, ind)})
		}
	}
	if len(f.Subfields) == 0 {
		ps = append(ps, Problem{f.Tag, "no subfields"})
	}
	for _, s := range f.Subfields {
		if !(s.Code >= '0' && s.Code <= '9' || s.Code >= 'a' && s.Code <= 'z') {
			ps = append(ps, Problem{f.Tag, fmt.Sprintf("subfield code %q is not a lowercase letter or a digit", s.Code)})
		}
		if s.Value == "" {
			ps = append(ps, Problem{f.Tag, fmt.Sprintf("empty subfield $%c", s.Code)})
		}
	}
	return ps
}

func lintRequired(r *Record) []Problem {
	var ps []Problem
	if _, ok := r.ControlValue("001"); !ok {
		ps = append(ps, Problem{"001", "missing"})
	}
	for _, tag := range []string{"245", "980"} {
		if len(r.Fields(tag)) == 0 {
			ps = append(ps, Problem{tag, "missing"})
		}
	}
	return ps
}

// digits reports whether s is three ASCII digits.
func digits(s string) bool { return digitsN(s, 3) }

func digitsN(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < n; i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
