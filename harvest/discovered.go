package harvest

import (
	"fmt"
	"net/url"
	"time"

	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// DefaultMaxURLs bounds the URLs a crawl takes in from sitemaps and links
// when Options.MaxURLs is zero.
const DefaultMaxURLs = 100_000

// DefaultMaxSitemapBytes bounds the sitemap files a crawl reads (and
// keeps in the Blog record) when Options.MaxSitemapBytes is zero: 64 MiB
// as served (compressed or not).
const DefaultMaxSitemapBytes = 64 << 20

// maxSitemaps bounds the sitemap files read per crawl (and the children
// of sitemap indexes queued).
const maxSitemaps = 200

// leftOut counts what one source (a sitemap, a page's links, a sitemap
// index) named that the crawl's bounds kept out of it.
type leftOut struct {
	source string // the sitemap's or the page's URL
	first  string // the first URL left out
	n      int
	what   string // "URLs it lists", "sitemaps it indexes", "URLs it links to"
	why    string // the bound, with its value
}

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
	c.disc.left.add(source, u, what, fmt.Sprintf("max_urls %d reached", c.disc.cfg.maxURLs))
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

// leftOuts are the leftOut counts of a crawl, by source and what, in the
// order first met; the zero value is empty.
type leftOuts struct {
	by    map[string]*leftOut
	order []string
}

// add counts u, named by source, as left out for why.
func (l *leftOuts) add(source, u, what, why string) {
	key := source + "\x00" + what
	lo := l.by[key]
	if lo == nil {
		if l.by == nil {
			l.by = map[string]*leftOut{}
		}
		lo = &leftOut{source: source, first: u, what: what, why: why}
		l.by[key] = lo
		l.order = append(l.order, key)
	}
	lo.n++
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
	for _, key := range c.disc.left.order {
		lo := c.disc.left.by[key]
		total += lo.n
		switch lo.what {
		case leftLinks:
			c.ledger.force(lo.first, FateOverBudget, fmt.Sprintf("not taken in, nor %d more URLs %s links to: %s", lo.n-1, lo.source, lo.why), "link")
		case leftUnread:
			c.ledger.force(lo.source, FateOverBudget, "sitemap not read: "+lo.why, "sitemap")
		default:
			c.ledger.force(lo.source, FateOverBudget, fmt.Sprintf("%d %s not taken in: %s", lo.n, lo.what, lo.why), "sitemap")
		}
	}
	c.disc.left = leftOuts{}
	if total > 0 {
		c.stats.warnf("%d URLs named by sitemaps and links were not taken in (the crawl's bounds; the ledger names their sources)", total)
	}
}

// What a leftOut counts.
const (
	leftSitemapURLs = "URLs it lists"
	leftChildren    = "sitemaps it indexes"
	leftLinks       = "URLs it links to"
	leftUnread      = "sitemap not read"
)

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
	feedURLs []*url.URL                 // in-scope item pages, in feed order
	pre      map[string]*fetch.Response // feed first pages received already (Discover, askFeed), by URL
	feedErr  error                      // why the posts feed could not be read (too large); nil when it was
	// left counts, by source, what the crawl's bounds kept out, in the
	// order met; wellKnown are the sitemap candidates no one named
	// (platforms' paths); variants the query-string URLs queued per path
	// (bounded: crawler traps).
	left      leftOuts
	wellKnown map[string]bool
	variants  map[string]int
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
	// still kept).
	settled bool
	// homeLinksOnly: only the post links of the home page are followed.
	homeLinksOnly bool
	// siteCommentPages bounds the pages of the blog-wide comment feed
	// read.
	siteCommentPages int
	// maxURLs and maxSitemapBytes are the crawl's bounds on the URLs
	// taken in and the sitemap bytes read (Options, defaults when unset).
	maxURLs         int
	maxSitemapBytes int64
}

// newDiscovery returns the discovery stage's state for a crawl with
// policy pol and options o.
func newDiscovery(pol policy, o Options) discovery {
	return discovery{cfg: discoverConfig{since: pol.since, changedOnly: pol.changedOnly, useState: pol.useState,
		settled: pol.settled, homeLinksOnly: pol.homeLinksOnly, siteCommentPages: pol.siteCommentPages,
		maxURLs: maxURLsOf(o), maxSitemapBytes: sitemapBytesOf(o)},
		pre: map[string]*fetch.Response{}, wellKnown: map[string]bool{}, variants: map[string]int{}}
}
