package harvest

import (
	"bytes"
	"net/url"
	"testing"

	"golang.org/x/net/html"
)

// TestResolveCachedMatchesResolve resolves every href and src of the
// fixture blogs' and ../shared/corpus's pages against two different
// pages, through the cache (filled by the first) and without: an answer
// that depended on the page would show.
func TestResolveCachedMatchesResolve(t *testing.T) {
	t.Parallel()
	hrefs := []string{"http://A.example/x/../y/", "HTTPS://a.example:443/p?utm_source=x#f", "http://a.example/./", " http://a.example/", "//a.example/p", "/p", "p", "http:p", "http://[bad", "/a/../../b/./c?x=1#y", "/ spaced", "/%zz", "/\\evil.example/"}
	// The tokenizer gives every tag's attributes, unescaped as the parser
	// gives them, without building a tree: some 2 600 pages (101 MB). Each
	// distinct value is tried once: a site's navigation repeats on every
	// page, and the cache's hits are exercised by pages three and five,
	// which share page one's origin.
	seen := map[string]bool{}
	eachTestPage(t, func(_ string, data []byte) {
		z := html.NewTokenizer(bytes.NewReader(data))
		for tt := z.Next(); tt != html.ErrorToken; tt = z.Next() {
			if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
				continue
			}
			for more := true; more; {
				var k, v []byte
				k, v, more = z.TagAttr()
				if (string(k) == "href" || string(k) == "src") && !seen[string(v)] {
					seen[string(v)] = true
					hrefs = append(hrefs, string(v))
				}
			}
		}
	})
	one, _ := url.Parse("http://one.example/2020/01/post/")
	two, _ := url.Parse("https://two.example:8443/a/b/c.html")
	three, _ := url.Parse("http://one.example/about") // page one's origin, another path
	four, _ := url.Parse("http://user@one.example/")  // userinfo: not cached
	five, _ := url.Parse("HTTP://One.Example/")       // the same origin, spelt otherwise
	absResolved.Lock()
	clear(absResolved.m)
	absResolved.Unlock()
	for _, h := range hrefs {
		if got, want := resolveCached(one, h), resolve(one, h); got != want {
			t.Fatalf("%q on page one: cached %q, resolve %q", h, got, want)
		}
		if got, want := resolveCached(two, h), resolve(two, h); got != want {
			t.Fatalf("%q on page two: cached %q, resolve %q", h, got, want)
		}
		for _, b := range []*url.URL{three, four, five} {
			if got, want := resolveCached(b, h), resolve(b, h); got != want {
				t.Fatalf("%q on %s: cached %q, resolve %q", h, b, got, want)
			}
		}
	}
	t.Logf("%d hrefs", len(hrefs))
}
