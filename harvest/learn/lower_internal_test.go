package learn

import (
	"math/rand/v2"
	"testing"
)

// TestASCIILower compares asciiLower with lower-casing byte by byte, on
// every byte value at every offset of pages of many lengths.
func TestASCIILower(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 200; n++ {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		if n > 0 {
			b[r.IntN(n)] = 'Z'
		}
		got := asciiLower(b)
		for i, c := range b {
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if got[i] != c {
				t.Fatalf("len %d: byte %d (%#x) lowered to %#x, want %#x", n, i, b[i], got[i], c)
			}
		}
	}
}

// BenchmarkASCIILower lowers a 28 KB page.
func BenchmarkASCIILower(b *testing.B) {
	page := make([]byte, 28<<10)
	for i := range page {
		page[i] = byte('A' + i%60)
	}
	out := make([]byte, len(page))
	b.SetBytes(int64(len(page)))
	for b.Loop() {
		asciiLowerInto(out, page)
	}
}
