package learn

import (
	"math/rand"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestTextClassCoversSpaces checks that every white space rune starts
// with a byte textClass marks as white space or possible white space, and
// that no ASCII byte is misclassed.
func TestTextClassCoversSpaces(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if !utf8.ValidRune(r) {
			continue
		}
		lead := []byte(string(r))[0]
		switch c := textClass[lead]; {
		case r < utf8.RuneSelf && unicode.IsSpace(r) != (c == textSpace || c == textOtherSpace):
			t.Fatalf("textClass[%q] = %d", r, c)
		case r >= utf8.RuneSelf && unicode.IsSpace(r) && c != textMaybeSpace:
			t.Fatalf("white space %U starts with %#x, class %d", r, lead, c)
		}
	}
}

// TestSpaceWriterMatchesFields checks spaceWriter against collapsing the
// whole text with strings.Fields, on random texts written in pieces with
// line breaks between some of them.
func TestSpaceWriterMatchesFields(t *testing.T) {
	parts := []string{"a", "bc", "é", " ", "  ", "\t", "\n", "\u00a0", "\u0085", "\u2003", "\u3000", "\u205f", "\u1680",
		"\xff", "\xe2\x80", "\xc2", "\xe2\x80\xa8", "ア", "Zz", "\v\f\r", "x y", "\u00c2", "©", "€", "\u1e00"}
	rng := rand.New(rand.NewSource(4))
	for range 30000 {
		var w spaceWriter
		var all strings.Builder
		for range rng.Intn(5) {
			if rng.Intn(4) == 0 {
				w.space = true
				all.WriteByte(' ')
			}
			b := randomMix(rng, parts, 8)
			w.writeString(b)
			all.WriteString(b)
		}
		if got, want := string(w.b), strings.Join(strings.Fields(all.String()), " "); got != want {
			t.Fatalf("spaceWriter of %q = %q, want %q", all.String(), got, want)
		}
	}
}

// FuzzSpaceWriter compares spaceWriter with strings.Fields on any input
// written in two pieces.
func FuzzSpaceWriter(f *testing.F) {
	f.Add(" a  b\u00a0c ", "\u3000d")
	f.Fuzz(func(t *testing.T, a, b string) {
		var w spaceWriter
		w.writeString(a)
		w.writeString(b)
		if got, want := string(w.b), strings.Join(strings.Fields(a+b), " "); got != want {
			t.Fatalf("spaceWriter of %q, %q = %q, want %q", a, b, got, want)
		}
	})
}

// TestPlainBlockMatchesBytes checks plainBlock's word-at-a-time tests
// against reading the 8 bytes one by one, on random blocks of bytes near
// the edges of its classes.
func TestPlainBlockMatchesBytes(t *testing.T) {
	alphabet := []byte{0, 1, '\t', '\n', 0x1f, ' ', ' ', ' ', '!', 'a', 'Z', 0x7f, 0x80, 0xa0, 0xc2, 0xff}
	rng := rand.New(rand.NewSource(7))
	plain := 0
	for range 200000 {
		var b [8]byte
		for k := range b {
			b[k] = alphabet[rng.Intn(len(alphabet))]
		}
		open := rng.Intn(2) == 0
		want := (open || b[0] != ' ') && b[7] != ' '
		for k, c := range b {
			want = want && c >= ' ' && c < utf8.RuneSelf && !(c == ' ' && k > 0 && b[k-1] == ' ')
		}
		if got := plainBlock(load64(string(b[:]), 0), open); got != want {
			t.Fatalf("plainBlock(%q, %v) = %v, want %v", b, open, got, want)
		}
		if want {
			plain++
		}
	}
	if plain == 0 {
		t.Fatal("no plain block")
	}
}
