package discover_test

import (
	"net/url"
	"slices"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/discover"
)

// TestFindHome: the home page is the page read, else the configured URL
// unless it is the feed, else the feed's link, else the feed's URL; the
// configured URL's and allowed origins' other hosts are the blog's; a
// configured URL that is neither the home page nor the feed redirects.
func TestFindHome(t *testing.T) {
	t.Parallel()
	page, _ := url.Parse("https://blog.example/")
	const feedURL = "https://feeds.example/blog.xml"
	for _, tc := range []struct {
		name       string
		cfg        discover.HomeConfig
		site       discover.HomeSite
		home       string
		hosts      []string
		redirected string
	}{
		{name: "page read", cfg: discover.HomeConfig{BlogURL: "http://old.example/", Allow: []string{"https://cdn.example/x", "https://blog.example/y"}},
			site: discover.HomeSite{Page: page, FeedURL: feedURL, FeedLink: "https://link.example/"},
			home: "https://blog.example/", hosts: []string{"old.example", "cdn.example"}, redirected: "http://old.example/"},
		{name: "configured", cfg: discover.HomeConfig{BlogURL: "https://blog.example/"},
			site: discover.HomeSite{FeedURL: feedURL, FeedLink: "https://link.example/"},
			home: "https://blog.example/"},
		{name: "given by its feed", cfg: discover.HomeConfig{BlogURL: feedURL},
			site: discover.HomeSite{FeedURL: feedURL, FeedLink: "https://link.example/"},
			home: "https://link.example/", hosts: []string{"feeds.example"}},
		{name: "feed discovered at the URL", cfg: discover.HomeConfig{BlogURL: "https://blog.example/feed"},
			site: discover.HomeSite{URLIsFeed: true, FeedURL: feedURL, FeedLink: "https://link.example/"},
			home: "https://link.example/", hosts: []string{"blog.example"}, redirected: "https://blog.example/feed"},
		{name: "no link", cfg: discover.HomeConfig{BlogURL: feedURL},
			site: discover.HomeSite{FeedURL: feedURL}, home: feedURL},
	} {
		h := discover.FindHome(tc.cfg, tc.site, scope{})
		if h.URL.String() != tc.home || !slices.Equal(h.Hosts, tc.hosts) || h.Redirected != tc.redirected {
			t.Errorf("%s: home %s, hosts %q, redirected %q; want %s, %q, %q", tc.name, h.URL, h.Hosts, h.Redirected, tc.home, tc.hosts, tc.redirected)
		}
	}
}
