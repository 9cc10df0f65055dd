package harvest

import (
	"net/url"
	"testing"
)

// TestReadPageLicense: the first rel=license link of a page, <link> or
// <a> (a Creative Commons badge), resolved against the page, is its license.
func TestReadPageLicense(t *testing.T) {
	base, _ := url.Parse("https://blog.example.org/")
	for page, want := range map[string]string{
		`<html><head><link rel="license" href="https://creativecommons.org/licenses/by/4.0/"></head></html>`:   "https://creativecommons.org/licenses/by/4.0/",
		`<p><a rel="license noopener" href="/licence/">CC BY-SA</a> <a rel="license" href="/other/">x</a></p>`: "https://blog.example.org/licence/",
		`<p><a rel="nofollow" href="/licence/">licence</a></p>`:                                                "",
	} {
		if got := readBytes([]byte(page), base).license; got != want {
			t.Errorf("license of %s = %q, want %q", page, got, want)
		}
	}
}
