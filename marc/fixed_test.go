package marc_test

import (
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/marc"
)

// positions checks 008 character positions from, to (inclusive) against
// want, as the MARC 21 documentation numbers them.
func positions(t *testing.T, f008 string, from, to int, want string) {
	t.Helper()
	if len(f008) != 40 {
		t.Fatalf("008 %q has %d characters, want 40", f008, len(f008))
	}
	if got := f008[from : to+1]; got != want {
		t.Errorf("008/%02d-%02d = %q, want %q (008 %q)", from, to, got, want, f008)
	}
}

func TestControlFields(t *testing.T) {
	o := marc.Options{ID: "urn:uuid:abc", Updated: time.Date(2024, 12, 31, 23, 59, 58, 960_000_000, time.FixedZone("", -5*3600))}
	r := marc.FromEntry(&blogharvest.Entry{Kind: blogharvest.KindPost}, o)
	if got, _ := r.ControlValue("001"); got != "abc" {
		t.Errorf("001 = %q, want abc", got)
	}
	// 23:59:58.96 at UTC-5 is 04:59:58.9 UTC the next day (truncated, not rounded).
	if got, _ := r.ControlValue("005"); got != "20250101045958.9" {
		t.Errorf("005 = %q, want 20250101045958.9", got)
	}
	if r.Leader != "00000naa a22000007n 4500" {
		t.Errorf("entry leader %q", r.Leader)
	}
	if b := marc.FromBlog(&blogharvest.Blog{}, o); b.Leader != "00000nai a22000007n 4500" {
		t.Errorf("blog leader %q", b.Leader)
	}
	var tags []string
	for _, f := range marc.FromEntry(fullEntry(), o).Control {
		tags = append(tags, f.Tag)
	}
	if len(tags) != 3 || tags[0] != "001" || tags[1] != "005" || tags[2] != "008" {
		t.Errorf("control tags %v, want [001 005 008]", tags)
	}
}

func TestFixed008Blog(t *testing.T) {
	f, _ := marc.FromBlog(fullBlog(), marc.Options{Updated: updated}).ControlValue("008")
	positions(t, f, 0, 5, "240305") // captured, not updated
	positions(t, f, 6, 14, "uuuuuuuuu")
	positions(t, f, 15, 17, "xx ")
	positions(t, f, 18, 23, " x w o")
	positions(t, f, 24, 28, "     ")
	positions(t, f, 29, 29, "0")
	positions(t, f, 30, 34, "    2")
	positions(t, f, 35, 37, "gre")
	positions(t, f, 38, 39, " d")
}

func TestFixed008Entry(t *testing.T) {
	e := fullEntry()
	e.Created = time.Date(2013, 12, 31, 23, 0, 0, 0, time.FixedZone("", -3600)) // 2014 in UTC; the author's year counts
	f, _ := marc.FromEntry(e, marc.Options{Language: "pt-BR"}).ControlValue("008")
	positions(t, f, 0, 5, "240305")
	positions(t, f, 6, 14, "s2013    ")
	positions(t, f, 15, 17, "xx ")
	positions(t, f, 18, 22, "|||| ")
	positions(t, f, 23, 23, "o")
	positions(t, f, 24, 28, "     ")
	positions(t, f, 29, 31, "000")
	positions(t, f, 32, 34, " ||")
	positions(t, f, 35, 37, "por")
	positions(t, f, 38, 39, " d")

	f, _ = marc.FromEntry(&blogharvest.Entry{}, marc.Options{Updated: updated}).ControlValue("008")
	positions(t, f, 0, 5, "240305") // from Updated when not captured
	positions(t, f, 6, 14, "nuuuu    ")
	positions(t, f, 35, 37, "und")

	f, _ = marc.FromComment(fullComment(), fullEntry(), marc.Options{}).ControlValue("008")
	positions(t, f, 0, 5, "240305") // the entry's capture date
	positions(t, f, 6, 10, "s2013")
	positions(t, f, 35, 37, "und")
}

func TestLanguageCode(t *testing.T) {
	for tag, want := range map[string]string{
		"en": "eng", "en-GB": "eng", "EN_us": "eng", "de": "ger", "deu": "ger", "ger": "ger",
		"zh-Hant-TW": "chi", "el": "gre", "fil": "fil", "": "und", "xx": "und", "qaa": "und", "en-": "eng",
		" fr ": "fre", "iw": "heb", "e": "und", "éng": "und",
	} {
		if got := marc.LanguageCode(tag); got != want {
			t.Errorf("LanguageCode(%q) = %q, want %q", tag, got, want)
		}
	}
}
