package harvest

import (
	"context"

	"github.com/blogharvest/blogharvest/harvest/discover"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// This file gives the discovery stage's sitemap reading
// (harvest/discover) what it asks of the crawl, each behind the stage's
// own small interface: the blog's robots.txt (discoverRobots) and the
// crawl's URLs (discoverURLs: admission, the ledger, the frontier). The
// fetch client, the left-out counts (discovery.left) and the stats
// (warnings) are given as they are.

// discoverRobots is the crawl as the stage's discover.Robots.
type discoverRobots struct{ c *crawl }

// Robots returns the robots.txt of the blog's host (crawl.blogRobots).
func (r discoverRobots) Robots(ctx context.Context) *fetch.Robots { return r.c.blogRobots(ctx) }

// discoverURLs is the crawl as the stage's discover.URLs.
type discoverURLs struct{ c *crawl }

// Queue queues one sitemap URL (crawl.queueSitemapURL).
func (q discoverURLs) Queue(sitemap string, u discover.URL, page, post bool) {
	q.c.queueSitemapURL(sitemap, u, page, post)
}

// Full reports whether the crawl holds Options.MaxURLs URLs.
func (q discoverURLs) Full() bool { return q.c.urlsFull() }

// Warnf records a warning for the Result and logs it (discover.Warner).
func (s *stats) Warnf(format string, args ...any) { s.warnf(format, args...) }
