package harvest

import (
	"context"
	"net/url"

	"github.com/blogharvest/blogharvest/harvest/discover"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// This file gives the discovery stage (harvest/discover) what it asks of
// the crawl, each behind the stage's own small interface: for the
// sitemaps, the blog's robots.txt (discoverRobots) and the crawl's URLs
// (discoverURLs: admission, the ledger, the frontier); for the home page,
// the canonical form of URLs (discoverCanon); for the feed's items, the
// blog's scope (discoverScope) and the crawl's side of the items
// (discoverItems: the ledger, the claims, the frontier). The fetch
// client, the left-out counts (discovery.left) and the stats (warnings)
// are given as they are.

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

// discoverCanon is Canonical as the stage's discover.Canon.
type discoverCanon struct{}

// Canonical is Canonical.
func (discoverCanon) Canonical(raw string) (string, error) { return Canonical(raw) }

// discoverScope is the blog's scope as the feed stage's discover.Scope.
type discoverScope struct{ s *scope }

// Canonical is the crawl's canonicaliser (scope.identity): the feed's
// http links of an https blog name its pages. Without side effect: the
// links folded get their ledger rows once, from crawl.noteFeedTwins.
func (d discoverScope) Canonical(raw string) (string, error) { return d.s.identity(raw) }

// Excluded reports whether the blog's exclude patterns leave u out.
func (d discoverScope) Excluded(u *url.URL) bool { return d.s.excluded(u) }

// Page reports whether u is in the blog's scope and not media, an asset
// or a machine endpoint (isBinaryURL).
func (d discoverScope) Page(u *url.URL) bool { return d.s.contains(u) && !isBinaryURL(u) }

// discoverCommented is commentedPost as the feed stage's
// discover.Commented.
type discoverCommented struct{}

// Post returns the post a comment's link names (commentedPost), nil when
// none or when it is no page (isBinaryURL).
func (discoverCommented) Post(link string) *url.URL {
	if p := commentedPost(link); p != nil && !isBinaryURL(p) {
		return p
	}
	return nil
}

// Of returns the post a comment's link names (commentedPost), page or
// not.
func (discoverCommented) Of(link string) *url.URL { return commentedPost(link) }

// discoverItems is the crawl as the feed stage's discover.Items: the
// ledger, the claims and the frontier.
type discoverItems struct{ c *crawl }

// Met notes u in the ledger, met through the feed.
func (d discoverItems) Met(u string) { d.c.ledger.met(u, "feed") }

// Excluded gives an item's link excluded by the patterns its ledger row.
func (d discoverItems) Excluded(link string) {
	d.c.ledger.set(link, FateOutOfScope, "excluded by the blog's exclude patterns", "feed")
}

// Elsewhere gives an item's link outside the blog its ledger row, naming
// the guid page used instead.
func (d discoverItems) Elsewhere(link, page string) {
	d.c.ledger.set(link, FateOutOfScope, "feed item link outside the blog; its guid "+page+" is used", "feed")
}

// Queue makes it wait for u (claims) and queues u as a post, its
// priority above prioPost by rank.
func (d discoverItems) Queue(u string, it *feed.Item, rank int) bool {
	if !d.c.claims.await(u, it, false) {
		return false
	}
	d.c.front.push(task{url: u, prio: prioPost + float64(rank), kind: "post"})
	return true
}

// discoverPending is the crawl's claims as the pattern check's
// discover.Pending.
type discoverPending struct{ c *crawl }

// Pending reports whether a feed item waits for u (claims.isPending).
func (d discoverPending) Pending(u string) bool { return d.c.claims.isPending(u) }

// discoverStub is a page's redirect stub as the move stage's
// discover.Stub: the stub's target of the page resp is, read as
// pageWorker.pageOf reads it (stubbedPage; an archived URL answered by a
// page that only sends the reader on, as Hugo's aliases do, names the
// post's new URL as a 301 would).
type discoverStub struct{}

// Stub returns the target of the redirect stub resp is, "" when none.
func (discoverStub) Stub(resp *fetch.Response) string {
	if !isHTML(resp) {
		return ""
	}
	if pg, err := stubbedPage(resp); err == nil {
		return pg.stub
	}
	return ""
}

// discoverKey is itemKey as the move stage's discover.ItemKey.
type discoverKey struct{}

// Key returns the key of it in State.Items (itemKey).
func (discoverKey) Key(it *feed.Item) string { return itemKey(it) }

// discoverProgress is the crawl's progress (crawl.step) as the move
// stage's discover.Progress.
type discoverProgress struct{ c *crawl }

// Step tells Options.Progress what the crawl does now.
func (p discoverProgress) Step(what string) { p.c.step(what) }
