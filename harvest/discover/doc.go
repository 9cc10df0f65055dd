// Package discover is the crawl's discovery stage, as far as it is a
// package of its own: finding the posts feed and fetching the home page
// (Feeds.Find, Feeds.FetchHome), asking for the feeds conditionally and
// reading the posts feed with its further pages and the blog-wide comment
// feed (Feeds), seeding the crawl with the feed's items (SeedFeed), the
// post pattern learned from them and its check (LearnPattern,
// CheckPattern), deciding the blog's home page and hosts (FindHome),
// reading robots.txt and the blog's sitemaps (Sitemaps), the counts of
// what the crawl's bounds kept out (LeftOuts), and for an UpdateCrawl a
// blog that moved (Moves: whether the known feed may have moved, finding
// it again with Feeds.FindMoved, suspecting a move, asking for the
// archived URLs; matching a post with an archived one and weighing
// whether the site is still the blog: MoveIndex, and, when no feed is
// found again, asking for the newest archived posts: AskNewest), and the
// gone check
// (Gone: the archived posts asked for when the feed dropped them or they
// answered 404 or 410 before). The
// stage reads no policy and no harvest type: what it reads of the crawl's
// policy and options is its configs (Config, FeedConfig, HomeConfig,
// MoveConfig, GoneConfig), what it reads of the blog as set up before it
// is a value (Site, HomeSite, the feed's items), and what it asks of the
// crawl goes through small interfaces (Deps' Fetcher, Robots, URLs, Left,
// Warner; Scope, Items, Commented and Canon for the feeds' items and the
// home page; Pending for the pattern's check; MoveDeps' Stub, ItemKey and
// Progress for a move; GoneDeps' Requester for the gone check) that
// harvest/discoverdeps.go implements. What it found comes back as a value
// (Found: the files the Blog record keeps, the first sitemap read; Read:
// the feed, its files, its validators; Discovered: the feed's URL, the
// home page's capture (HomePage); SiteComments: the comment feed's
// validators, files, the posts commented and its pages parsed for the
// comment stage; Unchanged: whether the feeds changed, their validators
// now; Seeded: the item pages queued, the URLs the post pattern is learned
// from, the feed-only items; Home: the home page, the blog's other hosts,
// a configured URL that redirects; the Pattern learned and the one
// checked; FeedMove, Suspicion and Probed: the feed found again, whether a
// move is suspected, the archived URLs' redirects, with the ledger lines
// to write as LedgerLine values; MoveIndex's answers: the archived post
// a post is and how it was matched, Identity: what shows the site is the
// blog; Asked: the newest archived posts' answers; GoneCheck: State.Gone as the gone check
// leaves it, its events and ledger lines), which the crawl applies.
// Deciding what a sitemap URL is (post, page, listing), admitting it
// within the crawl's bounds, the ledger, the claims and the frontier stay
// the crawl's (crawl.queueSitemapURL, discoverItems). Feeds fetches with
// the crawl's *fetch.Client, which harvest/feed's paging takes.
//
// The rest of the set-up (applying a match: the entry's alias, the
// ledger, State.Moved; the IdentityError; the posts commented) is
// still harvest's: it writes the coordinator's ledger, claims, frontier,
// kNN model and Result, which a package would reach through more
// interfaces of this kind.
//
// Where to change what:
//
//   - How the posts feed is found (a configured feed, an UpdateCrawl's
//     known feed, feed.Discover at the blog's URL), when the home page is
//     fetched and what its capture says of the blog (status, hosting
//     address, encoding): find.go (Feeds.Find, Feeds.FetchHome,
//     CaptureOf); whether the home page is due, the errors' wording and
//     the Blog record's fields: harvest's crawl.discover, keepHome and
//     homeFile (blog.go). Where feed.Discover looks: harvest/feed.
//   - How post URLs are generalised from the feed's (the shapes, a
//     segment's regexp, the shapes too small to count), which leading
//     segments are listings', and which pages the check holds against the
//     pattern (the home page, the feed, the home page's navigation, tag,
//     category, author and paging links that no feed item waits for):
//     pattern.go (LearnPattern, Pattern, CheckPattern); where the crawl
//     keeps it: harvest's crawl.seedFeed and crawl.verifyPattern
//     (seed.go).
//   - The conditional requests of an UpdateCrawl (which feeds, when they
//     are asked, what counts as unchanged, the base ETag), reading the
//     posts feed and its pages (the paging options an UpdateCrawl uses),
//     a first page received already and not fetched again, a feed's
//     validators: feed.go (Feeds.Unchanged, Feeds.Read, Feeds.Pages,
//     Feeds.Keep, ValidatorsOf; the ETag's compression suffix is
//     dropped by fetch's client). The blog-wide comment feed
//     (which one: the home page's or the last crawl's, at the paths
//     harvest/platform.SiteCommentFeed names; its bound of pages, which
//     comments count, the posts they name, its pages parsed once for the
//     comment stage and its comments by post): feed.go (SiteCommentFeed,
//     Feeds.SiteComments); what the crawl keeps of it (the validators, the
//     Blog record's file, the comment stage's comments.SiteFeed): harvest's
//     crawl.siteCommentPosts (update.go). Paging itself is
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
//   - A blog that moved: which failures of the known feed send an
//     UpdateCrawl looking for it again (Moves.FeedMayHaveMoved), how it is
//     found again and what the move's ledger line says (Feeds.FindMoved),
//     when a move is suspected (Moves.Suspect; the stage keeps it:
//     Moves.Moving, which harvest's homeDue, reuseRules, askDropped and
//     change test read), which archived URLs are
//     asked for and what their answers say (Moves.Probe, MaxMoveProbes):
//     moves.go; what the crawl does with them (the feed's URL, the home
//     page's capture, the ledger lines written, the pages counted):
//     harvest's applyFeedMove and keepAsked (moves.go), ledger.apply.
//   - Reading the archive's posts when a move is suspected, indexing them
//     with the redirects the probe found, which archived post each
//     emitted post continues (State.Moved's first, the posts matched
//     already) and State.Moved as the crawl leaves it
//     (Moves.ProbeArchive, Identify, Moved; MoveConfig.Moved,
//     MoveDeps.Posts): matching.go; what the crawl does with a post that
//     moved (the alias, the ledger's redirect line, Result.Moved):
//     harvest's crawl.emitEntry (coordinator.go).
//   - Matching a post at a new URL with an archived one (the evidence, its
//     order: a redirect, the guid, title and day and text; the thresholds
//     MoveThreshold and MoveUndatedThreshold; a catch-all redirect; what
//     one day is), a post archived under one of its URLs already, and
//     whether a feed's items show the site is still the blog (FoundAgain,
//     Identity, StrangerThreshold): match.go (MoveIndex); what the crawl
//     does with the answers is the move stage's (matching.go; the
//     evidence of a stranger: Moves.CheckIdentity in stranger.go) and
//     harvest's (the alias, the ledger: crawl.emitEntry; the
//     IdentityError: crawl.stranger, stranger.go).
//   - A stranger when the archived feed is gone and none is found again:
//     which archived posts are asked for (StrangerProbes, the newest),
//     what an answer says (Answered: a stranger may be there or the blog
//     is down; a page with the post's text, StrangerThreshold) and the
//     ledger lines: stranger.go (Moves.AskNewest); when it is asked and
//     the evidence (Moves.NoFeed, MoveConfig.AcceptIdentity): stranger.go;
//     the IdentityError: harvest's crawl.stranger, called from
//     crawl.readFeed (blog.go).
//   - The gone check: which posts are asked (the ones dropped from the
//     feed's first page when it lost more than it gained; the suspected
//     and withdrawn ones that are due), with which validators, what a 404,
//     410, a page or a 5xx makes of them, the backoff, the ledger lines
//     and warnings: gone.go (Gone.AskGone, Gone.AskDropped); what the
//     crawl keeps (State.Gone, the events that make an UpdateCrawl write
//     the Blog record) and when it asks: harvest's gone.go (askGone,
//     askDropped, keepGone, goneState).
//   - What happens to each URL a sitemap lists (kind, priority, the
//     update's lastmod test, scope, the ledger): harvest's
//     crawl.queueSitemapURL (seed.go), through discoverdeps.go.
package discover
