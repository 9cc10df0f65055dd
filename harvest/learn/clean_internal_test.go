package learn

import (
	"math/rand"
	"strings"
	"testing"
)

// TestHasLowerPrefixMatchesToLower checks hasLowerPrefix against
// lower-casing the whole string, on random mixes of cases, look-alike
// runes and invalid UTF-8.
func TestHasLowerPrefixMatchesToLower(t *testing.T) {
	parts := []string{"j", "J", "ava", "AVA", "s", "S", "\u017f", "\u212a", "\u0130", "cript", "CRIPT", ":", "\xff", " ", "é"}
	rng := rand.New(rand.NewSource(6))
	hits := 0
	for range 50000 {
		s := randomMix(rng, parts, 8)
		if rng.Intn(3) == 0 {
			s = []string{"javascript:", "JavaScript:", "JAVASCRIPT:"}[rng.Intn(3)] + s
		}
		want := strings.HasPrefix(strings.ToLower(s), "javascript:")
		if got := hasLowerPrefix(s, "javascript:"); got != want {
			t.Fatalf("hasLowerPrefix(%q) = %v, want %v", s, got, want)
		}
		if want {
			hits++
		}
	}
	if hits == 0 {
		t.Fatal("no javascript: URL")
	}
}
