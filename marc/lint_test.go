package marc_test

import (
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/marc"
)

// TestLint breaks a valid record in one way per rule and checks that Lint
// reports exactly that.
func TestLint(t *testing.T) {
	cases := []struct {
		name  string
		spoil func(r *marc.Record)
		tag   string
		msg   string
	}{
		{"short leader", func(r *marc.Record) { r.Leader = r.Leader[:23] }, "LDR", "not 24 characters"},
		{"leader status", func(r *marc.Record) { r.Leader = set(r.Leader, 5, 'x') }, "LDR", "position 05"},
		{"leader type", func(r *marc.Record) { r.Leader = set(r.Leader, 6, 'b') }, "LDR", "position 06"},
		{"leader level", func(r *marc.Record) { r.Leader = set(r.Leader, 7, 'z') }, "LDR", "position 07"},
		{"leader coding", func(r *marc.Record) { r.Leader = set(r.Leader, 9, ' ') }, "LDR", "position 09"},
		{"leader counts", func(r *marc.Record) { r.Leader = set(r.Leader, 11, '3') }, "LDR", "position 10"},
		{"leader entry map", func(r *marc.Record) { r.Leader = set(r.Leader, 23, '1') }, "LDR", "position 20"},
		{"008 length", func(r *marc.Record) { r.Control[len(r.Control)-1].Value += " " }, "008", "41 characters"},
		{"008 date", func(r *marc.Record) {
			r.Control[len(r.Control)-1].Value = set(r.Control[len(r.Control)-1].Value, 0, ' ')
		}, "008", "00-05"},
		{"missing 001", func(r *marc.Record) { r.Control = r.Control[1:] }, "001", "missing"},
		{"empty control", func(r *marc.Record) { r.Control[0].Value = "" }, "001", "empty control field"},
		{"missing 245", func(r *marc.Record) { retag(r, "245", "246") }, "245", "missing"},
		{"missing 980", func(r *marc.Record) { retag(r, "980", "981") }, "980", "missing"},
		{"tag letters", func(r *marc.Record) { retag(r, "520", "52a") }, "52a", "not three digits"},
		{"control tag", func(r *marc.Record) { r.Control[1].Tag = "010" }, "010", "outside 001-009"},
		{"control tag letters", func(r *marc.Record) { r.Control[1].Tag = "0a5" }, "0a5", "not three digits"},
		{"data as control", func(r *marc.Record) { retag(r, "520", "007") }, "007", "control field tag"},
		{"indicator #", func(r *marc.Record) { r.Data[0].Ind1 = '#' }, "024", "indicator 1"},
		{"indicator upper", func(r *marc.Record) { r.Data[0].Ind2 = 'A' }, "024", "indicator 2"},
		{"no subfields", func(r *marc.Record) { r.Data[0].Subfields = nil }, "024", "no subfields"},
		{"code upper", func(r *marc.Record) { r.Data[0].Subfields[0].Code = 'A' }, "024", "subfield code"},
		{"code punct", func(r *marc.Record) { r.Data[0].Subfields[0].Code = '$' }, "024", "subfield code"},
		{"empty subfield", func(r *marc.Record) { r.Data[0].Subfields[0].Value = "" }, "024", "empty subfield $a"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := marc.FromEntry(fullEntry(), fullOptions("e"))
			if ps := marc.Lint(r); len(ps) != 0 {
				t.Fatalf("valid record: %v", ps)
			}
			c.spoil(r)
			ps := marc.Lint(r)
			if len(ps) != 1 || ps[0].Tag != c.tag || !strings.Contains(ps[0].Message, c.msg) {
				t.Errorf("Lint = %v, want one problem in %s saying %q", ps, c.tag, c.msg)
			}
			if len(ps) > 0 && !strings.HasPrefix(ps[0].Error(), "marc "+c.tag+": ") {
				t.Errorf("Error() = %q", ps[0].Error())
			}
		})
	}
}

// TestLintReportsAll checks that Lint does not stop at the first problem.
func TestLintReportsAll(t *testing.T) {
	r := &marc.Record{Leader: "bad", Data: []marc.DataField{{Tag: "2x5", Ind1: '#', Ind2: ' '}}}
	if ps := marc.Lint(r); len(ps) != 7 { // leader, tag, indicator, no subfields, 001, 245, 980
		t.Errorf("Lint = %d problems %v, want 7", len(ps), ps)
	}
}

// set returns s with the byte at i replaced by c.
func set(s string, i int, c byte) string { return s[:i] + string(c) + s[i+1:] }

// retag changes the tag of the first field tagged from.
func retag(r *marc.Record, from, to string) {
	for i := range r.Data {
		if r.Data[i].Tag == from {
			r.Data[i].Tag = to
			return
		}
	}
}
