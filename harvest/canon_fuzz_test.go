package harvest_test

import (
	"net/url"
	"testing"

	"github.com/blogharvest/blogharvest/harvest"
)

// FuzzCanonical checks that Canonical never panics, that what it accepts
// is an absolute http(s) URL with a host and no fragment or user-info, and
// that it is idempotent: canonicalising twice is canonicalising once.
func FuzzCanonical(f *testing.F) {
	for _, s := range []string{
		"https://Example.ORG:443/a/./b/../c/index.html?utm_source=x&b=2&a=1#frag",
		"http://user:pass@blog.example.blogspot.co.uk./2024/01/post.html?m=1",
		"HTTP://[::1]:80/%2e%2e/x?%zz", "https://h/a//b/?q=%20&q=+", "https://h/%61/",
		"http://h?#", "//h/p", "mailto:x@y", " https://h/ ",
		"https://B\u00dcCHER.example./caf\u00e9", "https://evil.example\uff20b.example/", "http://\u4f8b\u3048.jp:8080/",
		"https://b%C3%BCcher.example/", "https://ex%41mple.example%2Fb/", "https://a%25b.example/",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		c, err := harvest.Canonical(raw)
		if err != nil {
			return
		}
		u, err := url.Parse(c)
		if err != nil {
			t.Fatalf("Canonical(%q) = %q, which does not parse: %v", raw, c, err)
		}
		if u.Scheme != "http" && u.Scheme != "https" || u.Host == "" || u.User != nil || u.Fragment != "" {
			t.Fatalf("Canonical(%q) = %q: not an absolute http(s) URL without user-info and fragment", raw, c)
		}
		again, err := harvest.Canonical(c)
		if err != nil || again != c {
			t.Fatalf("Canonical(%q) = %q, but Canonical(%q) = %q, %v", raw, c, c, again, err)
		}
	})
}
