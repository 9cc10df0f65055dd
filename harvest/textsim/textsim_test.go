package textsim

import (
	"math"
	"math/rand"
	"strings"
	"testing"
	"time"
)

// TestDice checks Dice on bigram sets after normalisation.
func TestDice(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want float64
	}{
		{"night", "nacht", 0.25}, // ni ig gh ht / na ac ch ht: 2·1/8
		{"Hello  World", "hello world", 1},
		{"", "", 1},
		{"abc", "", 0},
		{"Été", "été", 1},
	} {
		if got := Dice(c.a, c.b); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Dice(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestTokenF1 checks word-token F1 and its edge cases.
func TestTokenF1(t *testing.T) {
	if got := TokenF1("the cat sat", "the cat sat on the mat"); math.Abs(got-2*1*0.5/1.5) > 1e-9 {
		t.Errorf("TokenF1 = %v", got)
	}
	if TokenF1("a", "b") != 0 || TokenF1("", "") != 1 {
		t.Error("TokenF1 edge cases")
	}
}

// TestCollapseMatchesFields checks collapse against its definition,
// strings.Join(strings.Fields(s), " "), on random mixes of letters, ASCII
// and Unicode white space and invalid UTF-8.
func TestCollapseMatchesFields(t *testing.T) {
	parts := []string{"a", "é", " ", "  ", "\t", "\n", "\u00a0", "\u0085", "\u2003", "\xff", "\xe2\x80", "Zz", "\v\f\r"}
	rng := rand.New(rand.NewSource(1))
	for range 20000 {
		s := randomMix(rng, parts, 8)
		if got, want := Collapse(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("Collapse(%q) = %q, want %q", s, got, want)
		}
	}
}

// FuzzCollapse compares collapse with strings.Fields on any input.
func FuzzCollapse(f *testing.F) {
	f.Add(" a  b\u00a0c ")
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := Collapse(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Fatalf("Collapse(%q) = %q, want %q", s, got, want)
		}
	})
}

// TestSameAuthor checks author identity across bylines, case and RSS
// "address (Name)" forms.
func TestSameAuthor(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"Ann Walker", "ann  walker", true},
		{"Posted by Ann Walker", "Ann Walker", true},
		{"Ann Walker says:", "Ann Walker", true},
		{"ann@example.org (Ann Walker)", "ann@example.org", true},
		{"Ann Walker", "Ann Walken", false},
		{"", "", false},
	} {
		if got := SameAuthor(c.a, c.b); got != c.want {
			t.Errorf("SameAuthor(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestSameDay checks that a day is the same in either date's zone.
func TestSameDay(t *testing.T) {
	paris := time.FixedZone("", 3600)
	late := time.Date(2013, 8, 28, 23, 30, 0, 0, time.UTC)
	if !SameDay(late.In(paris), late) || !SameDay(time.Date(2013, 8, 29, 0, 30, 0, 0, paris), late) {
		t.Error("same instant or same local day not the same day")
	}
	if SameDay(late, late.AddDate(0, 0, 2)) || SameDay(time.Time{}, late) {
		t.Error("other day or zero time taken for the same day")
	}
}

// TestHTMLText checks that scripts, styles and markup are left out and
// entities decoded.
func TestHTMLText(t *testing.T) {
	got := HTMLText("<p>Fish &amp;\n chips</p><script>var x = 1;</script><style>p{}</style> <b>today</b>")
	if got != "Fish & chips today" {
		t.Errorf("HTMLText = %q", got)
	}
}

// TestHTMLTextMatchesJoin checks HTMLText, which collapses each text node
// as it reads it, against collapsing the joined text nodes, on random
// fragments of markup, entities, white space and invalid UTF-8.
func TestHTMLTextMatchesJoin(t *testing.T) {
	parts := []string{"a", "é", " ", "\t", "\n", "\u00a0", "&nbsp;", "&amp;", "\u2003", "\xff", "\xe2\x80", "<p>", "</p>",
		"<b>", "</b>", "<br>", "<script>x</script>", "<style>", "</style>", "<!-- c -->", "Zz", "<"}
	rng := rand.New(rand.NewSource(2))
	for range 20000 {
		s := randomMix(rng, parts, 10)
		if got, want := HTMLText(s), Collapse(strings.Join(FragmentTexts(s), " ")); got != want {
			t.Fatalf("HTMLText(%q) = %q, want %q", s, got, want)
		}
	}
}

// BenchmarkHTMLText reads the text of a feed entry's content of about
// 20 KB.
func BenchmarkHTMLText(b *testing.B) {
	var src strings.Builder
	for i := 0; src.Len() < 20000; i++ {
		src.WriteString("<p>Paragraph with <a href=\"/x\">a link</a> and &amp; an entity,\n  spread over lines.</p>\n")
	}
	s := src.String()
	b.ReportAllocs()
	for b.Loop() {
		HTMLText(s)
	}
}

// randomMix joins up to max-1 parts drawn at random.
func randomMix(rng *rand.Rand, parts []string, max int) string {
	var b strings.Builder
	for range rng.Intn(max) {
		b.WriteString(parts[rng.Intn(len(parts))])
	}
	return b.String()
}
