package harvest

import (
	"fmt"
	"net/url"
	"time"

	"github.com/blogharvest/blogharvest/harvest/comments"
	"github.com/blogharvest/blogharvest/harvest/discover"
)

// DefaultMaxURLs bounds the URLs a crawl takes in from sitemaps and links
// when Options.MaxURLs is zero.
const DefaultMaxURLs = 100_000

// DefaultMaxSitemapBytes bounds the sitemap files a crawl reads (and
// keeps in the Blog record) when Options.MaxSitemapBytes is zero: 64 MiB
// as served (compressed or not).
const DefaultMaxSitemapBytes = 64 << 20

// admit reports whether u, named by source (a sitemap or a page), may
// enter the crawl: the ledger knows it already, or it holds fewer than
// Options.MaxURLs URLs. A URL refused is counted against source (what,
// "URLs it lists" or "URLs it links to") and never held: the URLs a crawl
// holds are bounded by configuration, whatever the blog names. Called by
// the coordinator only.
func (c *crawl) admit(u, source, what string) bool {
	if c.ledger.known(u) || c.ledger.size() < c.disc.cfg.maxURLs {
		return true
	}
	c.disc.left.Add(source, u, what, fmt.Sprintf("max_urls %d reached", c.disc.cfg.maxURLs))
	return false
}

// maxURLsOf is Options.MaxURLs, DefaultMaxURLs when unset (a crawl built
// without withDefaults).
func maxURLsOf(o Options) int {
	if o.MaxURLs <= 0 {
		return DefaultMaxURLs
	}
	return o.MaxURLs
}

// sitemapBytesOf is Options.MaxSitemapBytes, DefaultMaxSitemapBytes when
// unset.
func sitemapBytesOf(o Options) int64 {
	if o.MaxSitemapBytes <= 0 {
		return DefaultMaxSitemapBytes
	}
	return o.MaxSitemapBytes
}

// urlsFull reports whether the crawl holds Options.MaxURLs URLs.
func (c *crawl) urlsFull() bool { return c.ledger.size() >= c.disc.cfg.maxURLs }

// settleLeftOut writes what the bounds left out into the ledger, one row
// per source, as over-budget (a shortfall the archive's report shows): a
// sitemap's row says how many URLs it lists were not taken in; a page's
// links, which have no row of their own, are told on the first URL left
// out ("… and N more URLs …"). One warning sums them up.
func (c *crawl) settleLeftOut() {
	total := 0
	for _, lo := range c.disc.left.All() {
		total += lo.N
		switch lo.What {
		case discover.LeftLinks:
			c.ledger.force(lo.First, FateOverBudget, fmt.Sprintf("not taken in, nor %d more URLs %s links to: %s", lo.N-1, lo.Source, lo.Why), "link")
		case discover.LeftUnread:
			c.ledger.force(lo.Source, FateOverBudget, "sitemap not read: "+lo.Why, "sitemap")
		default:
			c.ledger.force(lo.Source, FateOverBudget, fmt.Sprintf("%d %s not taken in: %s", lo.N, lo.What, lo.Why), "sitemap")
		}
	}
	c.disc.left = discover.LeftOuts{}
	if total > 0 {
		c.stats.warnf("%d URLs named by sitemaps and links were not taken in (the crawl's bounds; the ledger names their sources)", total)
	}
}

// discovery is the discovery stage's own state: what the set-up (the
// feed and its pages, the home page, the scope, the post pattern,
// robots.txt and sitemaps, the blog-wide comment feed) and the seeding of
// the frontier with the links of the pages fetched keep between their
// steps, and the part of the policy they read (cfg, built once). What
// the set-up learns of the blog itself is the site, handed to the page
// worker as a value once the set-up is done (crawl.setUp,
// pageWorker.begin).
type discovery struct {
	cfg      discoverConfig
	feedURLs []*url.URL // in-scope item pages, in feed order
	// feeds is the feed stage (harvest/discover.Feeds): the conditional
	// requests, the posts feed and its pages, the first pages received
	// already; built with the client (crawl.newClient).
	feeds   *discover.Feeds
	feedErr error // why the posts feed could not be read (too large); nil when it was
	// left counts, by source, what the crawl's bounds kept out, in the
	// order met (the sitemap stage counts into it too); variants the
	// query-string URLs queued per path (bounded: crawler traps).
	left     discover.LeftOuts
	variants map[string]int
	// siteFeed is what UpdateCrawl's blog-wide comment feed showed
	// (siteCommentPosts, update.go): set up before the drain, then handed
	// to the comment stage (newCommentStage).
	siteFeed comments.SiteFeed
}

// discoverConfig is what discovery reads of the crawl's policy, built
// once (newDiscovery).
type discoverConfig struct {
	// since: UpdateCrawl pages the feeds back to it and takes sitemap
	// URLs whose lastmod is after it (with changedOnly); zero for
	// NewCrawl.
	since       time.Time
	changedOnly bool
	// useState: start from the feed the crawl before knew
	// (Options.State.Feed).
	useState bool
	// settled: no recheck is due, so no sitemap is read (robots.txt is
	// still kept) and the home page's links are not followed.
	settled bool
	// homeLinksOnly: only the post links of the home page are followed.
	homeLinksOnly bool
	// maxURLs is the crawl's bound on the URLs taken in (Options,
	// the default when unset).
	maxURLs int
	// sitemaps is the sitemap stage's config (discover.Sitemaps): settled
	// and the bounds, max_sitemap_bytes among them.
	sitemaps discover.Config
	// feeds is the feed stage's config (discover.Feeds): since,
	// changedOnly, useState, settled, max_feed_pages and the bound on the
	// blog-wide comment feed's pages (the policy's siteCommentPages).
	feeds discover.FeedConfig
	// home is the home stage's config (discover.FindHome): the blog's
	// configured URL and the allowed origins.
	home discover.HomeConfig
}

// newDiscovery returns the discovery stage's state for a crawl with
// policy pol and options o.
func newDiscovery(pol policy, o Options) discovery {
	cfg := discoverConfig{since: pol.since, changedOnly: pol.changedOnly, useState: pol.useState,
		settled: pol.settled, homeLinksOnly: pol.homeLinksOnly,
		maxURLs: maxURLsOf(o)}
	cfg.sitemaps = discover.Config{Settled: cfg.settled, MaxURLs: cfg.maxURLs, MaxSitemapBytes: sitemapBytesOf(o)}
	cfg.feeds = discover.FeedConfig{Since: cfg.since, ChangedOnly: cfg.changedOnly, UseState: cfg.useState,
		Settled: cfg.settled, MaxPages: o.MaxFeedPages, SiteCommentPages: pol.siteCommentPages}
	cfg.home = discover.HomeConfig{BlogURL: o.Blog.URL, Allow: o.Allow}
	return discovery{cfg: cfg, variants: map[string]int{}}
}

// listed returns the feed's in-scope item pages (feedURLs) by URL: the
// archived URLs the move stage need not ask for
// (discover.Moves.ProbeArchive).
func (d *discovery) listed() map[string]bool {
	out := map[string]bool{}
	for _, u := range d.feedURLs {
		out[u.String()] = true
	}
	return out
}
