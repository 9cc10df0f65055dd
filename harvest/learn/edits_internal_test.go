package learn

import (
	"strings"
	"testing"
)

// TestContainsFold checks containsFold against EqualFold on every window,
// with runes that fold to ASCII letters (the Kelvin sign, long s) and
// bytes that are not UTF-8.
func TestContainsFold(t *testing.T) {
	slow := func(s, sub string) bool {
		for i := 0; i+len(sub) <= len(s); i++ {
			if strings.EqualFold(s[i:i+len(sub)], sub) {
				return true
			}
		}
		return false
	}
	subs := []string{"publish", "created", "modified", "updated", "edited", "lastmod", "last-edit", "k", "s"}
	texts := []string{"", "post-Modified", "UPDATED", "entry-date published", "\u212a", "\u017f", "Last-Edit",
		"date-updat", "\xffmodified", "mod\u0130fied", "cREATED", "publi\u017fh", "lastMOD x"}
	for _, s := range texts {
		for _, sub := range subs {
			if got, want := containsFold(s, sub), slow(s, sub); got != want {
				t.Errorf("containsFold(%q, %q) = %v, want %v", s, sub, got, want)
			}
		}
	}
}
