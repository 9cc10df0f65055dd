package learn_test

import (
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/textsim"
)

// fuzzLangs are the languages FuzzParseDate picks from.
var fuzzLangs = []string{"", "en", "fr", "de", "es", "it", "pt", "nl", "fr-CA", "en-GB", "xx"}

// FuzzParseDate checks that ParseDate never panics and never reports a
// zero time as parsed, on any text; and that every unambiguous rendering
// DateRenderings gives for a day in the page's language (month written as
// a word, or ISO and RFC forms) parses back to that day.
func FuzzParseDate(f *testing.F) {
	f.Add("Posted on 3 mars 2021 by Ann", uint8(2), int64(1614729600))
	f.Add("2024-02-30T25:61:00Z", uint8(0), int64(0))
	f.Add("Sunday, 1er janvier 2023", uint8(2), int64(-86400*365*20))
	f.Add("\u00a0\u2028il y a 3 jours", uint8(8), int64(4102444800))
	f.Fuzz(func(t *testing.T, s string, langIdx uint8, unix int64) {
		lang := fuzzLangs[int(langIdx)%len(fuzzLangs)]
		if got, ok := learn.ParseDate(s, lang); ok && got.IsZero() {
			t.Fatalf("ParseDate(%q, %q) = zero time, ok", s, lang)
		}
		const from, span = 631152000, 50 * 365 * 86400 // 1990 … 2039
		day := time.Unix(from+(unix%span+span)%span, 0).UTC().Truncate(24 * time.Hour).Add(12 * time.Hour)
		renderIn := lang
		if renderIn == "" {
			renderIn = "en" // with no language, ParseDate reads English only
		}
		for _, r := range learn.DateRenderings(day, renderIn) {
			if !unambiguous(r) {
				continue
			}
			got, ok := learn.ParseDate(r, lang)
			if !ok || !textsim.SameDay(got, day) {
				t.Fatalf("ParseDate(%q, %q) = %v, %v; want %s", r, lang, got, ok, day.Format("2006-01-02"))
			}
		}
	})
}

// unambiguous reports whether a rendering names its month by a word or is
// in year-month-day order.
func unambiguous(r string) bool {
	if len(r) >= 10 && r[4] == '-' && r[7] == '-' {
		return true
	}
	return strings.IndexFunc(r, func(c rune) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c > 0x7f }) >= 0
}
