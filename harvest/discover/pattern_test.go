package discover_test

import (
	"net/url"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/discover"
)

// pending is the crawl's claims: the pages feed items wait for.
type pending map[string]bool

func (p pending) Pending(u string) bool { return p[u] }

// TestCheckPattern: the checked pattern leaves out the leading segments
// of the feed's URL and of the home page's navigation, tag and paging
// links that it matched, but not of a link a feed item waits for, a link
// that is none of those, or a segment a post starts with; the pattern it
// was given is left as it was.
func TestCheckPattern(t *testing.T) {
	t.Parallel()
	parse := func(raw string) *url.URL {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		return u
	}
	posts := []*url.URL{parse("https://m.example/be-kind/"), parse("https://m.example/less-stuff/"),
		parse("https://m.example/on-walking/")}
	p := discover.LearnPattern(posts)
	site := discover.PatternSite{Home: parse("https://m.example/"), FeedURL: "https://m.example/rss/", Posts: posts,
		Links: []discover.Link{
			{URL: "https://m.example/uncopyright/", Nav: true},   // navigation: no post
			{URL: "https://m.example/walks/", Rel: "tag"},        // a tag page
			{URL: "https://m.example/older/", Rel: "next"},       // paging
			{URL: "https://m.example/newest-post/", Nav: true},   // navigation, but a feed item's page
			{URL: "https://m.example/colophon/"},                 // a plain link says nothing
			{URL: "https://m.example/be-kind/", Rel: "category"}, // a post starts with it
		}}
	q := discover.CheckPattern(p, site, scope{}, pending{"https://m.example/newest-post/": true})
	for _, u := range []string{"https://m.example/uncopyright/", "https://m.example/walks/", "https://m.example/older/",
		"https://m.example/rss/", "https://m.example/tag/", "https://m.example/uncopyright/"} {
		if q.Match(parse(u)) {
			t.Errorf("checked pattern %s matches the non-post %s", q, u)
		}
	}
	for _, u := range []string{"https://m.example/newest-post/", "https://m.example/colophon/", "https://m.example/be-kind/",
		"https://m.example/a-later-post/"} {
		if !q.Match(parse(u)) {
			t.Errorf("checked pattern %s does not match %s", q, u)
		}
	}
	if !p.Match(parse("https://m.example/uncopyright/")) || !p.Match(parse("https://m.example/tag/")) {
		t.Errorf("the pattern given was changed by its check")
	}
	if q.String() != p.String() {
		t.Errorf("checked pattern %q, want the regexps of %q", q, p)
	}
	if discover.CheckPattern(nil, site, scope{}, pending{}) != nil {
		t.Error("a nil pattern checked is not nil")
	}
}
