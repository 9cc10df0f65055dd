// Package discover is the crawl's discovery stage, as far as it is a
// package of its own: reading robots.txt and the blog's sitemaps
// (Sitemaps), and the counts of what the crawl's bounds kept out
// (LeftOuts). The stage reads no policy and no harvest type: what it
// reads of the crawl's policy and options is its Config, what it reads of
// the blog as set up before it is its Site, and what it asks of the crawl
// goes through Deps, small interfaces (Fetcher, Robots, URLs, Left,
// Warner) that harvest/discoverdeps.go implements. What it found comes
// back as a value (Found: the files the Blog record keeps, the first
// sitemap read); deciding what a sitemap URL is (post, page, listing),
// admitting it within the crawl's bounds, the ledger and the frontier
// stay the crawl's (crawl.queueSitemapURL).
//
// The rest of the set-up (the feed and its pages, the home page, the
// scope, the post pattern, the blog-wide comment feed, the posts moved
// or withdrawn) is still harvest's crawl.setUp: it writes the
// coordinator's ledger, claims, frontier, kNN model and Result, which a
// package would reach through more interfaces of this kind.
//
// Where to change what:
//
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
