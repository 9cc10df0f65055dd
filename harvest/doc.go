// Package harvest crawls a blog and streams what it finds as blogharvest
// records: NewCrawl harvests a blog from scratch, UpdateCrawl harvests what
// changed since a date. Both are stateless: everything they need comes from
// the web and their arguments (for UpdateCrawl, Options.State: what the
// crawl before left in its Result.State).
//
// A crawl runs in phases:
//
//  1. Discovery: the feed (feed.Discover unless Options.Blog.FeedURL is
//     set) and the home page, whose final URL fixes the scope (the blog's
//     hosts, with and without "www.", under its path prefix, plus the
//     Include and minus the Exclude patterns). Underneath, the fetch
//     client holds every page request, redirect hops included, to the
//     blog's origins (Blog.URL, Blog.FeedURL or the discovered feed,
//     Options.Allow); media are subresources, from any public address.
//  2. The feed with its older pages. The in-scope item URLs are
//     generalised into a post-URL pattern (per path segment `\d+`,
//     a literal or `[^/]+`), verified against pages known not to be posts.
//  3. robots.txt and sitemaps (robots Sitemap: lines, /sitemap.xml,
//     /wp-sitemap.xml, indexes, gzip) queue posts, platform pages
//     (wp-sitemap-posts-page) and listings.
//  4. Rules are learned (harvest/learn) from the pages of the newest feed
//     items and their feed values; the Blog record is emitted, then the
//     training entries.
//  5. The frontier, a priority queue, is drained by Options.PerHost
//     workers: posts first, other pages ranked by a distance-weighted kNN
//     estimate of the new post links they hold, trained on the pages
//     fetched so far. Canonical URLs (rel=canonical in scope, else
//     normalised: see Canonical) decide identity; each page is processed
//     once; MaxPages bounds the pages fetched.
//
// Each entry takes its fields from the feed (MethodFeed) where the feed has
// them and from the page otherwise (the learned rules, else fallbacks);
// comments from the comment feed are merged with those found on the page
// and its further comment pages. In RenderAuto mode a page is rendered in
// Chromium when its static HTML lacks the article, shows a JavaScript
// comment system (a script or iframe the browser may load), or holds fewer
// comments than the feeds say exist. The browser a crawl starts reaches the
// network only through a filtering proxy of the crawl's own
// (fetch.BrowserProxy) that applies the client's scope and address rules
// to every request and carries it through the crawl's upstream proxy;
// refused hosts become warnings and refused frames are not captured. Media
// inside the article are captured within limits; failures become
// Entry.Problems, never errors.
//
// UpdateCrawl emits only entries published, edited or commented after its
// since: new feed items (paging back to since), comment feeds of the items
// still in the feed, posts the blog-wide comment feed shows commented since,
// sitemap URLs with a later lastmod, and the post links of the home page.
// Its Result.Watermark (the crawl's start less WatermarkMargin) is the since
// of the next run.
//
// Given the State of the crawl before, UpdateCrawl is polite. It first asks
// for the posts feed and the blog-wide comment feed conditionally
// (If-None-Match, If-Modified-Since), and stops there, having emitted
// nothing, when both answer 304 or a body identical to the last one
// (Result.Unchanged): an unchanged blog costs two requests. robots.txt is
// reused for fetch.RobotsLifetime (24 h) from State.Robots and the rules
// from State.Rules. Otherwise it reads the home page and the feeds (the
// feed URL is known: no discovery), and re-reads only the posts something
// says changed: published or edited after since, commented (site comment
// feed), or whose feed item's signature (modification date and comment
// count, or the item itself when the feed dates no edits) differs from
// State.Items. Sitemaps, the home page's post links and the first-page
// posts that give no change signal are read once per Options.RecheckPosts
// (24 h by default).
//
// Memory does not grow with the blog: a page is dropped once its entry is
// emitted; only the URL set, the frontier and a bounded kNN sample ring
// stay.
package harvest
