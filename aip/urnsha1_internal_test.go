package aip

import (
	"strings"
	"testing"

	"github.com/google/uuid"
)

// TestURNSHA1IsUUIDs compares urnSHA1 with uuid.NewSHA1 for names of every
// length up to past its stack buffer, in two namespaces.
func TestURNSHA1IsUUIDs(t *testing.T) {
	for _, ns := range []uuid.UUID{uuid.NameSpaceURL, uuid.MustParse("0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")} {
		for n := range 600 {
			name := strings.Repeat("é/x#", n)[:n] // bytes of every kind, a rune cut at the end at times
			want := "urn:uuid:" + uuid.NewSHA1(ns, []byte(name)).String()
			if got := urnSHA1(ns, name); got != want {
				t.Fatalf("name of %d bytes: %s, want %s", n, got, want)
			}
		}
	}
}
