// Package discover is the crawl's discovery stage, as far as it is a
// package of its own: asking for the feeds conditionally and reading the
// posts feed with its further pages and the blog-wide comment feed
// (Feeds), seeding the crawl with the
// feed's items (SeedFeed), deciding the blog's home page and hosts
// (FindHome), reading robots.txt and the blog's sitemaps (Sitemaps), and
// the counts of what the crawl's bounds kept out (LeftOuts). The stage
// reads no policy and no harvest type: what it reads of the crawl's policy
// and options is its configs (Config, FeedConfig, HomeConfig), what it
// reads of the blog as set up before it is a value (Site, HomeSite, the
// feed's items), and what it asks of the crawl goes through small
// interfaces (Deps' Fetcher, Robots, URLs, Left, Warner; Scope, Items,
// Commented and Canon for the feeds' items and the home page) that
// harvest/discoverdeps.go implements. What it found comes back as a value
// (Found: the files the Blog record keeps, the first sitemap read; Read:
// the feed, its files, its validators; SiteComments: the comment feed's
// validators, files and the posts commented; Unchanged: whether the feeds
// changed, their validators now; Seeded: the item pages queued, the URLs
// the post pattern is learned from, the feed-only items; Home: the home
// page, the blog's other hosts, a configured URL that redirects), which
// the crawl applies. Deciding what a sitemap URL is (post, page,
// listing), admitting it within the crawl's bounds, the ledger, the claims
// and the frontier stay the crawl's (crawl.queueSitemapURL,
// discoverItems). Feeds fetches with the crawl's *fetch.Client, which
// harvest/feed's paging takes.
//
// The rest of the set-up (feed discovery and the home page's fetch, which
// comment feed is read, the post pattern and its check, a feed that
// moved, the posts moved or withdrawn) is still harvest's crawl.setUp: it
// writes the coordinator's ledger, claims, frontier, kNN model and
// Result, which a package would reach through more interfaces of this
// kind.
//
// Where to change what:
//
//   - The conditional requests of an UpdateCrawl (which feeds, when they
//     are asked, what counts as unchanged, the base ETag), reading the
//     posts feed and its pages (the paging options an UpdateCrawl uses),
//     a first page received already and not fetched again, a feed's
//     validators: feed.go (Feeds.Unchanged, Feeds.Read, Feeds.Pages,
//     Feeds.Keep, ValidatorsOf, BaseETag). The blog-wide comment feed
//     (its bound of pages, which comments count, the posts they name):
//     feed.go (Feeds.SiteComments); which comment feed, and the parsed
//     pages the comment stage reads: harvest's crawl.siteCommentPosts
//     (update.go). Paging itself is
//     harvest/feed's (FetchAll, FetchFrom). What the crawl does when the
//     feeds are unchanged: harvest's crawl.feedsUnchanged (polite.go).
//   - Which of the feed's items are queued, excluded or feed-only, an
//     item's page (link or guid), their order and rank: items.go
//     (SeedFeed, ItemURL); their ledger rows, claims and priority:
//     harvest's discoverItems (discoverdeps.go).
//   - Which URL is the blog's home page and which hosts are the blog's
//     besides its own: home.go (FindHome); the scope built from them:
//     harvest's crawl.setScope (seed.go).
//   - Which sitemaps are read (robots.txt's Sitemap: lines, platforms'
//     well-known paths), in what order and within which bounds
//     (MaxSitemaps, Config.MaxSitemapBytes, URLs.Full), what is counted
//     as left out and the warnings: sitemaps.go (Sitemaps, candidates,
//     readSitemap); the well-known paths themselves are
//     harvest/platform.Sitemaps.
//   - Parsing a sitemap or sitemap index (gzip, <lastmod> layouts, the
//     protocol's 50 MB bound, pages' and posts' sitemaps by name):
//     sitemap.go.
//   - What a left-out count holds and the kinds counted: leftout.go; how
//     they become ledger rows: harvest's crawl.settleLeftOut.
//   - What happens to each URL a sitemap lists (kind, priority, the
//     update's lastmod test, scope, the ledger): harvest's
//     crawl.queueSitemapURL (seed.go), through discoverdeps.go.
package discover
