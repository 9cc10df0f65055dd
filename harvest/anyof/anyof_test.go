package anyof

import (
	"bytes"
	"math/rand"
	"testing"
)

// contains is what a Set replaces: one bytes.Contains per string.
func contains(pats []string, page []byte) int {
	for i, p := range pats {
		if bytes.Contains(page, []byte(p)) {
			return i
		}
	}
	return -1
}

// check fails t when s and contains disagree on page.
func check(t *testing.T, pats []string, s *Set, page []byte) {
	t.Helper()
	want := contains(pats, page)
	if got := s.First(page); got != want {
		t.Fatalf("First(%q) over %q = %d, bytes.Contains says %d", page, pats, got, want)
	}
	if got := s.Any(page); got != (want >= 0) {
		t.Fatalf("Any(%q) over %q = %v, bytes.Contains says %v", page, pats, got, want >= 0)
	}
}

// TestSetMatchesContains compares a Set with bytes.Contains on random
// pages over a small alphabet, so that strings overlap, repeat, share
// prefixes, sit at both ends and are cut by the end of the page.
func TestSetMatchesContains(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abcé"[r.Intn(4)]
		}
		return string(b)
	}
	for range 2000 {
		var pats []string
		for range 1 + r.Intn(6) {
			pats = append(pats, word(r.Intn(5)))
		}
		s := New(pats...)
		for range 20 {
			check(t, pats, s, []byte(word(r.Intn(40))))
		}
	}
}

// TestSetMatchesContainsLong is TestSetMatchesContains with strings of
// 6 to 15 bytes, longer than the window a Set reads, over bytes whose
// pairs share keys in the Set's tables (ab and `B, a! and `\x01), on
// pages of up to 300 bytes.
func TestSetMatchesContainsLong(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	for _, alphabet := range []string{"ab", "ab`B", "a!`\x01", "aA\x01\xc1"} {
		word := func(n int) string {
			b := make([]byte, n)
			for i := range b {
				b[i] = alphabet[r.Intn(len(alphabet))]
			}
			return string(b)
		}
		for range 1000 {
			var pats []string
			for range 1 + r.Intn(5) {
				pats = append(pats, word(6+r.Intn(10)))
			}
			s := New(pats...)
			for range 20 {
				check(t, pats, s, []byte(word(r.Intn(300))))
			}
		}
	}
}

// TestSetCases covers the cases by name: none, empty page, a string at
// the very end, order of the list over order in the page.
func TestSetCases(t *testing.T) {
	pats := []string{"disqus_thread", "fyre.co", "x", "ab"}
	s := New(pats...)
	for _, page := range []string{"", "nothing here", "…fyre.co", "fyre.co disqus_thread", "zab", "a", "b"} {
		check(t, pats, s, []byte(page))
	}
	if New().First([]byte("abc")) != -1 || !New("").Any(nil) {
		t.Fatal("empty set or empty string wrong")
	}
}

// FuzzSet compares a Set of up to three strings with bytes.Contains.
func FuzzSet(f *testing.F) {
	f.Add("edit", "Updat", "à jour", []byte("Last edited à jour"))
	f.Add("disqus_thread", "fyre.co", "data-comments=", []byte(`<div id="disqus_thread"></div> fyre.co`))
	f.Add("abcdefghijk", "!bcdefghijk", "ab", []byte("!bcdefghijkabcdefghij"))
	f.Fuzz(func(t *testing.T, a, b, c string, page []byte) {
		pats := []string{a, b, c}
		check(t, pats, New(pats...), page)
	})
}
