// Package harvest crawls a blog and streams what it finds as blogharvest
// records: NewCrawl harvests a blog from scratch, UpdateCrawl harvests what
// changed since a date. Both are stateless: everything they need comes from
// the web and their arguments (for UpdateCrawl, Options.State: what the
// crawl before left in its Result.State).
//
// A crawl runs in phases:
//
//  1. Discovery: the feed (feed.Discover unless Options.Blog.FeedURL is
//     set; harvest/discover: Feeds.Find) and the home page, whose final URL fixes the scope (the blog's
//     hosts, with and without "www.", under its path prefix, plus the
//     Include and minus the Exclude patterns). Underneath, the fetch
//     client holds every page request, redirect hops included, to the
//     blog's origins (Blog.URL, Blog.FeedURL or the discovered feed,
//     Options.Allow); media are subresources, from any public address.
//  2. The feed with its older pages. The in-scope item URLs are
//     generalised into a post-URL pattern (per path segment `\d+`,
//     a literal or `[^/]+`), verified against pages known not to be posts
//     (harvest/discover: LearnPattern, CheckPattern).
//  3. robots.txt and sitemaps (robots Sitemap: lines, /sitemap.xml,
//     /wp-sitemap.xml, indexes, gzip) queue posts, platform pages
//     (wp-sitemap-posts-page) and listings; each sitemap is read as a
//     stream (harvest/discover: Sitemaps), never held parsed.
//  4. Rules are learned (harvest/learn) from the pages of the newest feed
//     items and their feed values; the training entries are emitted.
//  5. The frontier, a priority queue, is drained by Options.PerHost
//     workers: posts first, other pages ranked by a distance-weighted kNN
//     estimate of the new post links they hold, trained on the pages
//     fetched so far. Canonical URLs (rel=canonical in scope, else
//     normalised: see Canonical) decide identity; each page is processed
//     once; a URL of the blog's hosts under the other scheme (http for a
//     blog at https, or the reverse; no port) is the blog's scheme's page,
//     its own URL a duplicate in the ledger and an alias of the entry.
//     One canonicaliser decides it, without side effect (scope.identity,
//     scope.fold): feed items, sitemap URLs, links, commented posts,
//     redirects' targets, rel=canonical, stubs' targets and side feeds
//     pass there, and the ledger row of a URL folded is written where the
//     crawl decides its fate (crawl.noteFolded, noteFeedTwins,
//     pageWorker.noteRedirect); MaxPages bounds the pages fetched. The
//     Blog record, with the crawl ledger, comes last.
//
// Each entry takes its fields from the feed (MethodFeed) where the feed has
// them and from the page otherwise (the learned rules, else fallbacks);
// comments from the comment feed are merged with those found on the page
// and its further comment pages; two comments are one only with the same
// platform id, or the same author, text and time to the precision both
// give, never by time alone. A page inside the post pattern that no feed
// item names and that is a listing (its main content several articles none
// of which holds most of their text, related-post cards in asides aside:
// listing.go; or no article, links to many posts and to a sibling page
// index3.html, /page/3/) is no entry; a page met by a link or a sitemap
// outside the pattern gets a content test, and is a post when it reads as
// one (a long article, its own title, a date by rule or structured data);
// the test demotes a page on a sign of a summary or of a part of a post
// (a title or heading linking away, a permalink or post link beside the
// article, a URL under a post's that it links back to, more post links
// than the blog's posts hold) only when fewer than a quarter of the
// blog's own feed-matched posts, read in training, show it (postsigns.go;
// no training pages, no demotion): a sign they share is the theme's. A feed item outside the post pattern the other
// items make (a generator's feed listing /about/; one or two URLs of a
// shape beside three or more of another are no post shape) is an entry
// of kind page, a post when its page reads as one. One post is one entry:
// an entry read again for a redirect stub met late keeps its feed item
// (by its URL, a stub leading to it or its guid). Page dates keep their
// precision (Entry.CreatedPrecision) and the page's "Last edited" date is
// Entry.Modified when the feed gives none. In RenderAuto mode a page is rendered in
// Chromium when its static HTML lacks the article, shows a JavaScript
// comment system (a script or iframe the browser may load), or holds fewer
// comments than the feeds say exist. A comment system in no platform table
// is detected by its signs (commentsignals.go): an empty or placeholder
// element whose id, class or label names comments or a discussion, a
// script or iframe URL or an inline loader naming comments, a noscript
// asking for JavaScript for comments, a JSON-LD commentCount; the reason
// is logged. A script widget named only by its product (an inline init
// call naming an API URL and mounting into an element the static page
// leaves empty, or an element with an API URL in a data-attribute) is
// found without any comment word (widgetsignal.go), and so is one whose
// mount element a script creates at run time, as a site generator's
// injector does (an inline script, or a script of the blog's own read
// through the requisite cache, that creates an element and calls a
// widget's init with an element key and a service URL), or a page naming
// a script whose requests drew comments in an earlier render of the blog
// (State.WidgetScripts; scriptwidget.go). Every reason has a
// name (renderdecision.go: ReasonNoArticle, ReasonAPIWidget, …); a post
// whose comment feed holds every comment its item counts is not rendered
// for comments, guessed reasons stop after renders that added nothing,
// Options.MaxRenders bounds a crawl's renders, and Options.RenderTimeout
// each page's time in the browser; Result.Renders and
// Result.NotRendered count the renders. A rendered page's comments come first
// from the JSON its scripts fetched (render.Result.API,
// learn.APIComments) when the page shows those records, read whole: what
// those answers say is left (a next page, a cursor, a reply count above
// the replies given) is asked for the way the app asks, within the
// post's comment bounds, the rest named in the ledger (harvest/comments: threadmore.go);
// else a rendered
// page and its frames whose comments the rules miss are read by
// learn.RenderedComments. The browser a crawl starts reaches the
// network only through a filtering proxy of the crawl's own
// (fetch.BrowserProxy) that applies the client's scope and address rules
// to every request and carries it through the crawl's upstream proxy;
// refused hosts become warnings and refused frames are not captured. Media
// inside the article are captured within limits; failures become
// Entry.Problems, never errors. A media URL the archive already holds for
// the entry (Options.Archived) is not fetched again: the archived File,
// with File.Reused, takes its place (media.go). Likewise UpdateCrawl takes
// the earlier comments of a post the blog-wide comment feed shows newly
// commented from the comment feeds archived with it, and the new ones from
// the blog-wide feed, asking for the post's own comment feed only when
// they do not line up: a count other than the feed item's, a comment
// edited, an archive that cannot be read (harvest/comments: archivedcomments.go).
//
// Text from the web is decoded per document (a UTF-8 document's stray
// bytes are read one by one as windows-1252) and, before a record is
// emitted, characters XML 1.0 does not allow are removed from its text and
// user-info from its URLs, each noted once in Entry.Problems (run warnings
// for the Blog); captured bytes stay as served. A feed is parsed after the
// same removal. Credentials (Options.Auth) go to the blog's own origins
// only; a blog behind them is never rendered.
//
// Redirect stubs (the HTML pages static-site generators leave at old URLs:
// Hugo aliases, jekyll-redirect-from, moved slugs) are redirects, never
// entries: a meta refresh of at most 5 s to another URL, or, on a thin page
// (under 200 bytes of visible text, no images or frames), a JavaScript
// location redirect or a rel=canonical naming another URL. The target is
// queued in the stub's place (a post if the stub was; the feed item that
// named the stub waits for it) and the stub's URL becomes an alias of the
// target's entry; a stub met after that entry was emitted has the target
// read and emitted again, a new version with the stub among its aliases
// (the only case of an entry emitted twice in a run). A rel=canonical
// pointing at the home page from another page is a theme's mistake and is
// ignored; a post whose canonical names a non-post processed before keeps
// its own URL.
//
// The crawl ledger (Result.Ledger, and LedgerTSV in the Blog record, which
// is therefore emitted last) gives every URL the crawl meets exactly one
// Fate: entry, listing, redirect, stub, duplicate, out-of-scope, robots,
// over-budget, failed or skipped, with a detail. A later fate replaces an
// earlier one only when it ranks higher (entry; then stub, redirect,
// duplicate; listing; skipped, failed, robots, out-of-scope; over-budget,
// given at the end to what the frontier still holds and to the pages
// being processed when MaxDuration ran out); among equals the
// first stays. A URL left without a fate is a bug: it is written as
// "unaccounted" and warned about. Every early return of the page path
// records its reason in the ledger and logs it.
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
// (Result.Unchanged): an unchanged blog costs two requests, plus one per
// comment thread API it watches (harvest/comments: threads.go: the JSON answers a post's
// rendered page drew its comments from, not the comment app's other
// calls, for the posts of every feed page read, State.Threads, asked for
// conditionally even when the feeds did not change; a post whose thread
// changed is read and rendered again, reason ReasonThreadChanged).
// robots.txt is
// reused for fetch.RobotsLifetime (24 h) from State.Robots and the rules
// from State.Rules. State.Robots carries the file without its exchanges
// and headers (seed.go: carriedRobots; a Blog record that uses it names
// the record an AIP holds, File.Reused, as StateFrom gives it, or, when
// no AIP does, fetches robots.txt again: blogRobots). Otherwise it reads the feeds (the feed URL is known: no
// discovery, unless that feed fails with 401, 403, 404, 410 or is no feed:
// the blog's feed is then looked for again, and kept), and re-reads only
// the posts something says changed:
// published or edited after since, commented (site comment feed), or whose
// feed item's signature (modification date and comment count, or the item
// itself when the feed dates no edits) differs from State.Items. It asks
// for no comment feed of a post whose item counts no comments, nor of one
// whose comments the site comment feed lists all of. The home page (and
// with it the Blog record, which is emitted only by a crawl that read it),
// sitemaps, the home page's post links, the first-page posts that give no
// change signal, and a WordPress RSS feed's Atom twin when it dated nothing
// the last time, are read once per Options.RecheckPosts (24 h by default).
//
// A blog that moved (its feed found again, or most of its feed's first
// page at URLs the last crawl did not list) has its posts matched with the
// archive's (Options.ArchivedPosts) before they are emitted: a redirect or
// stub from an archived URL (asked for, at most MaxMoveProbes), the same
// guid, or the same title and day with the text alike (MoveThreshold). A
// matched post names its archived URL among its aliases, which makes it
// the next version of that entry (aip.EntryDirIn), the ledger gives the
// archived URL the fate redirect with how it was matched, and State.Moved
// keeps the pair for the next crawls (moves.go, doc/lifecycle.md).
//
// A post the feed's first page listed last time and no longer lists is
// asked for once by the update that read the changed feed: a 404 or 410
// makes it suspected (State.Gone), the next update asks it again first
// thing, even when the feeds are unchanged, and a second 404 or 410
// records it withdrawn from the live blog (ledger fate withdrawn, a Blog
// record emitted, RecordsWithdrawal); a withdrawn post is asked again
// after a week, doubling to 180 days, and recorded restored (fate
// restored) when it answers again (the gone check harvest/discover.Gone,
// applied by gone.go; doc/lifecycle.md).
//
// Memory does not grow with the blog: a page is dropped once its entry is
// emitted; only the URL set, the frontier and a bounded kNN sample ring
// stay, and the URL set and frontier take in at most Options.MaxURLs URLs
// from sitemaps and links (admit, discovered.go: a URL named after that is
// only counted against the sitemap or page that named it, and the counts
// go to the ledger as over-budget at the end). Every other list a blog
// decides the length of is bounded too: sitemap bytes
// (Options.MaxSitemapBytes), one post's comments from each paged source
// (Options.MaxComments, followed page after page to the source's end or
// the bound), one REST answer's comments and bytes, one post's comment
// answers' bytes (feed.CommentLimits); the post's comments column in the
// ledger names the bound that stopped a reading. A posts feed too large to
// read, once the home page was, gives way to an empty feed (noFeed): the
// posts come from the home page, links and sitemaps, the feed's problem
// is a warning and its ledger row.
//
// # Stages
//
// A crawl's state is split by who writes it, and no stage embeds
// another: each holds the others it uses as named fields. The site
// (site: blog, home, scope, feed, post pattern, rules) is set up by the
// coordinator before the frontier is drained and read-only after that;
// the coordinator and the page worker hold the same one. The policy
// (policy) is what tells UpdateCrawl from NewCrawl, a value fixed at the
// start and read by the coordinator alone; the page worker gets what it
// needs of it as the change test (changes, changes.go: since, whether
// only what changed is emitted, whether the recheck is settled, and the
// last crawl's item signatures). The coordinator (crawl, one goroutine)
// alone holds the frontier, the kNN model, the Result's counts, emit, a
// moved blog's state (moveState) and the withdrawals (withdrawals). Page
// workers (pageWorker, the coordinator's named field crawl.w, run by
// PerHost goroutines) turn one page into an outcome: fetch, parse once,
// extract, entry; they never reach the frontier. The coordinator and
// the page worker each hold the crawl's claims (URLs claimed, feed items
// waiting), ledger (fates) and stats (warnings and timings), each of
// those safe for concurrent use with a lock of its own; the coordinator
// builds the crawl's client and hands it to the page worker
// (pageWorker.useClient), before any page is fetched. Fetching is the
// page worker's stage fetching (fetching.go, its named field w.fetch):
// the client, the browser (rendererState: started on first need, closed
// when the crawl ends), the capture of page requisites and of media with
// their caches, its config (fetchConfig: renderConfig, requisiteConfig,
// mediaConfig) built once by newCrawl from the Options; what to render
// (the render decision and its account, the worker's w.account) is not
// the stage's. The coordinator reads what the workers learned for the
// whole crawl (the page worker's shapes, widgets, side feeds and the
// render account) once they are done.
//
// The comment stage is the package harvest/comments (comments.Stage), a
// page worker's named field (pageWorker.comments), not part of the site:
// the coordinator builds it once the site is set up (newCommentStage in
// commentdeps.go, before the training pages), read-only after that. It
// holds what it reads as fields of its own: its configuration
// (comments.Config: what it needs of the policy and Options), the blog it
// reads (comments.Blog: the feed, the home page, what UpdateCrawl's
// blog-wide comment feed showed, comments.SiteFeed), and what it asks of
// the crawl through the small interfaces of comments.Deps, which
// commentdeps.go implements: the fetch client (comment feeds, REST
// endpoints, thread APIs), the page worker's reading of a further comment
// page (a *fetchedPage is a comments.Page) and the browser's scope, the
// post a comment's link names, the archive, the ledger's shortfall
// column and the thread watch. A post's comment state is a
// comments.Post, the page job's named field j.cm, handed to the stage
// with the job's URL, item and page by j.post(). The page worker calls
// the stage and it returns: fetch the sources (FetchComments,
// CommentPages, FillShortfall, CompleteComments, FollowThreads), then
// FillComments merges them into the entry and NoteShortfall,
// NoteThreadShort say what is missing. The watch of comment thread APIs
// between crawls (comments.Watcher, harvest/comments: threads.go) is the coordinator's named
// field (crawl.threads): polled during set-up, fed each rendered page's
// watch, the source of State.Threads; the comment stage reads which
// posts' threads changed through it (comments.Threads).
//
// # Files
//
//   - crawl.go: NewCrawl, UpdateCrawl, Learn; the site, pageWorker and
//     crawl types; the phases in order.
//   - policy.go: what differs between NewCrawl and UpdateCrawl.
//   - options.go: Options, Result, Record; defaults.
//   - blog.go: feed discovery and the home page (found and fetched by
//     harvest/discover's Feeds.Find and FetchHome: discover applies their
//     Discovered, keepHome and homeFile the home page's capture), the
//     posts feed (read by harvest/discover's Feeds: readFeed applies its
//     Read), the Blog record.
//   - itemtext.go: what the feed's items' texts are (whole post or
//     summary, their length), read once with the feed (itemTexts) for
//     fullTextFeed, training, fillContent and renderReason.
//   - seed.go: scope (from harvest/discover's FindHome), feed items
//     (harvest/discover's SeedFeed: seedFeed applies its Seeded and keeps
//     the post pattern LearnPattern makes of it), the post pattern's
//     check (harvest/discover's CheckPattern: verifyPattern keeps the
//     checked pattern), sitemaps and links into the frontier.
//   - discoverdeps.go: what the discovery stage (harvest/discover: the
//     feed's items, the home page, robots.txt's Sitemap: lines and the
//     sitemaps, streamed) asks of the crawl: robots.txt, the crawl's URLs,
//     the canonical form, the scope, the feed items' ledger rows, claims
//     and frontier, the post of a comment's link, the claims the post
//     pattern's check asks (discoverPending).
//   - discovered.go: the bound on the URLs taken in (admit), what the
//     bounds left out (discover.LeftOuts, the crawl's c.disc.left) and
//     its ledger rows (settleLeftOut).
//   - scope.go, canon.go: which URLs are the blog's, their canonical
//     form, the one scheme of the blog's pages: the crawl's one
//     canonicaliser, scope.identity and scope.fold (its ledger rows:
//     crawl.noteFolded in seed.go, pageWorker.noteRedirect in worker.go;
//     the entries' aliases: scope.twin in emitEntry, the rel=canonical in
//     newEntry); which are posts is the post pattern, harvest/discover's
//     Pattern (pattern.go there). segments.go: a path's segments.
//   - frontier.go, knn.go: the priority queue and its estimate.
//   - changes.go: the change test (changes): which feed items
//     (itemChanged, signatureChanged, unlisted) and entries
//     (entryChanged) changed since the last crawl.
//   - train.go: the training pages and Learn. A training
//     page's extraction made for its signs (learnSigns) is its entry's
//     (reading.takeExtraction); each training job is dropped once emitted. A
//     training page over parkBytes of HTML lets its tree go once the
//     rules are learned and parses it again for its entry (park); every
//     page's tree is released when finish returns (releaseTree), before
//     the coordinator writes its entry.
//   - coordinator.go: the drain: dispatching jobs, handling outcomes,
//     queueing what they found, emitting entries.
//   - worker.go: one page's path: fetch, identity, stub, variant,
//     listing or entry.
//   - kind.go: a listing inside the post pattern, a feed item outside it.
//     postsigns.go: what the blog's own posts show of the content test's
//     signs.
//   - page.go: a fetched page, decoded and parsed once; the one walk over
//     its tree that finds links, feeds, identity hints and JavaScript
//     comment systems. resolvecache.go: absolute and root-relative links
//     canonicalised once per process, not once per page that repeats them.
//   - stub.go: redirect stubs, read from the same tree.
//   - reading.go: reading a page, the page worker's stage reading
//     (w.read): the learned rules or the fallbacks applied to a page
//     (extract, takeExtraction), the content test (looksLikeContent) and
//     an entry's title, author, dates and content, feed against page
//     (fillFields); its config (readConfig) built once by begin from the
//     worker's copy of the site, the rules and signs handed to it by
//     useRules (from the crawl's learned value), the site's page tests
//     behind pageTests.
//   - entry.go: an entry assembled: identity, aliases, the comment stage,
//     rendering, files, media and requisites around the reading.
//   - commentdeps.go: the comment stage (harvest/comments) built
//     (newCommentStage) and given what it asks of the crawl, each behind
//     the stage's interface (commentClient, commentPages, commentPosts,
//     archivedFiles, commentLedger; *fetchedPage as comments.Page);
//     pageJob.post, the job's comment state handed over.
//   - postpages.go: the further pages of a paginated post.
//   - renderdecision.go: the named render reasons, the render budget and
//     the per-reason account; widgetsignal.go: script widgets drawn from
//     an API; scriptwidget.go: widgets mounted into elements scripts
//     create, and the widget loaders renders teach. commentshapes.go: the comment structure learned from the
//     crawl's rendered pages (a shape two pages repeated is read where a
//     thread of one comment repeats nothing).
//   - fetching.go: the page worker's fetching stage (fetching, its
//     w.fetch) and its config (fetchConfig, built once by fetchConfigOf:
//     renderConfig, the requisites' requisiteConfig, mediaConfig); its
//     methods are in the files below (closeRenderer, browserGate,
//     browserMayLoad; fetchRequisite, holds; fetchMedia, archivedMedia).
//   - browser.go, browsergate.go: when to render, the crawl's browser and
//     the proxy every browser request goes through.
//   - media.go, mediacache.go: media discovery (the article's tokens read
//     once, scanMedia, the attributes of mediaElement's elements only,
//     inline SVG and MathML as the parser reads them, scanForeign; a
//     parsed tree only where the tree may differ from the tag order) and
//     capture. An element mediaOf reads is one of mediaElement's too.
//   - requisites.go, requisiteurls.go: page requisites of entries and the
//     home page: what a page names (parsed), what the browser received
//     (render.Result.Responses; what it could not hand over,
//     Result.Unrecorded, goes to the ledger as failed; a 304 it got,
//     browserRevalidated: the capture it confirms), the one scope
//     decision (requisiteRefusal: Options.Requisites, addresses), caps,
//     the ledger.
//     requisitestore.go: an update's reuse of the blog's requisites
//     packages as an HTTP cache (fresh: not asked for; stale: conditional
//     request, a 304 keeps the stored payload: revalidate).
//   - claims.go, ledger.go: URLs processed and waiting; the fate of every
//     URL met.
//   - stats.go: warnings and timings.
//   - polite.go, update.go: UpdateCrawl's stop when the feeds are
//     unchanged (feedsUnchanged; the conditional requests are
//     harvest/discover's Feeds.Unchanged), change signals (the feed
//     items' signatures, made once a crawl: itemSignatures), State; the
//     blog-wide comment feed (chosen by harvest/discover's
//     SiteCommentFeed, read and parsed for the comment stage by its
//     Feeds.SiteComments: siteCommentPosts keeps what it found). The
//     comment APIs of
//     script-drawn threads watched between crawls are
//     harvest/comments' Watcher (threads.go: Poll, Note, State; which
//     answers are threads: ThreadWatch, threadShape); watch.go: the
//     state file a `crawl -out` archive keeps (Watch). A field of
//     what a crawl leaves for the next one goes into
//     blogharvest.CrawlState (crawlstate.go at the root), which the
//     schedule store keeps as it is; State adds only robots.txt and rules.
//   - moves.go: a blog that moved: what the move stage
//     (harvest/discover.Moves) decided applied — its feed found again
//     (applyFeedMove), the archived URLs asked for (keepAsked of
//     harvest/discover.Moves.ProbeArchive, called by setUp); each post
//     matched with an archived one is the stage's (Moves.Identify, its
//     State.Moved Moves.Moved), the alias and the ledger line
//     crawl.emitEntry's (coordinator.go); what the crawl keeps of it:
//     moveState (the stage, the feed that moved, the home page read).
//   - gone.go: posts withdrawn from the live blog: what the gone check
//     (harvest/discover.Gone: which posts are asked and when, what their
//     answers make of them, the ledger lines) returns, kept and written
//     (askDropped, askGone, keepGone), State.Gone, RecordsWithdrawal; what
//     the crawl keeps of it: withdrawals. The ledger fates withdrawn and
//     restored: ledger.go.
//   - stranger.go: a stranger at the old address (the evidence is the
//     move stage's: harvest/discover.Moves.CheckIdentity after a
//     suspected move, called by setUp; Moves.NoFeed when no feed is found
//     again, called by readFeed): IdentityError, nothing archived
//     (crawl.stranger); Options.AcceptIdentity turns it off. refit.go: the reused rules tried on the newest changed item's
//     page (rulesStillFit) and learned again when they no longer fit.
//   - budget.go: MaxDuration. cleantext.go: XML-safe text. auth.go:
//     basic authentication.
//   - listing.go: a page's main articles (a listing or one post with
//     cards).
//   - feeddates.go: dates from other feeds (their items kept in the entry,
//     their captures in the Blog record), the URL, the sitemap.
//   - taxonomy.go: tags and categories from the post's header and footer.
//   - resume.go: StateFrom, an update's State from an archived Blog AIP.
//
// # Where to change what
//
//   - Something new to read off every page (a link kind, a meta tag, a sign
//     of a comment system): pageReader.element in page.go; pageInfo holds
//     it. Comment platforms themselves: harvest/platform.
//   - How a field of an entry is chosen between feed and page: reading.go
//     (fillFields, fillDates, fillContent); how it is extracted: learn,
//     applied by reading.extract; when a page no pattern names is content:
//     looksLikeContent (reading.go). What reading a page needs of the site
//     is a field of readConfig (set in readConfigOf) or a method of
//     pageTests; what training learns for it, an argument of
//     reading.useRules (the reading reads no pol and no Options).
//     Date fallbacks after the page: feeddates.go; terms: taxonomy.go.
//     Whether a feed item is a whole post: fullText (blog.go), read once
//     an item by itemTexts (itemtext.go), never from the item again.
//   - Where a blog states a comment count: harvest/comments (stated.go:
//     readStated; number words: numberWords); what a platform's per-post
//     comment feed or comments REST endpoint looks like: harvest/platform.
//     What a comment API's answer says is left (paging keys, reply
//     counts): learn.ReadAPIMore (apimore.go); how the rest is asked for
//     (page and cursor parameters, the replies endpoint learned from the
//     app's requests): harvest/comments (threadmore.go).
//   - When a page is rendered: renderReason in browser.go, the one place
//     the decision is made; a new reason is a Reason… constant in
//     renderdecision.go (guessed if it rests on a sign, not on the feed).
//     What a script's code must show to be a widget's injector:
//     scriptWidget (scriptwidget.go); which scripts a render teaches as
//     widget loaders: widgetScriptsOf.
//   - How a URL is percent-encoded before it is requested or indexed:
//     blogharvest.NormalizeURL (urlnorm.go at the root), the one
//     normalisation, called by the fetch client (checkTarget, redirect
//     hops), resolve and Canonical (canon.go: dot segments resolved on the
//     escaped path, %2F kept), mediaURLs, absRequisite and package warc
//     (records and CDXJ keys). Never rebuild a URL from url.URL.Path: use
//     EscapedPath or RawPath.
//   - What counts as a page requisite: elementRequisites and cssRefs in
//     requisiteurls.go; whether one may be captured: requisiteRefusal in
//     requisites.go (for the Go client and the browser alike); what the
//     capture reads of Options (which requisites, the bounds on a file
//     and on a page): requisiteConfig, built once by requisiteConfigOf
//     (the fetching stage's w.fetch.cfg.req). When a
//     stored requisite is asked for again: freshFor and fetchRequisite
//     (requisitestore.go, requisites.go).
//   - What fetching reads of the Options (the browser's settings, the
//     requisites', the media's bounds and hosts, the archive's media): a
//     field of renderConfig, requisiteConfig or mediaConfig, set in
//     fetchConfigOf (fetching.go), read as w.fetch.cfg (the page worker
//     reads no Options field for them); a cache or other state of the
//     crawl's fetching, a field of fetching, set in newFetching. The
//     client is handed over by the coordinator (useClient in newClient),
//     never set from outside.
//   - What is queued and in which order: seed.go (classify, seedLinks,
//     queueSitemapURL), frontier.go; which sitemaps are read and within
//     which bounds: harvest/discover (see its doc.go); what a worker's outcome does to the
//     frontier: handle in coordinator.go. A new source of URLs calls
//     admit (discovered.go) before it queues or records one, so that
//     Options.MaxURLs bounds it.
//   - A new step of the set-up (before any page job): crawl.setUp
//     (crawl.go), the discovery stage; the state it keeps between its
//     steps is a field of discovery (discovered.go, the crawl's c.disc),
//     the policy it reads a field of discoverConfig, set in newDiscovery
//     (the set-up reads no pol); the sitemap stage's, a field of
//     discover.Config (discoverConfig.sitemaps), the feed stage's a field
//     of discover.FeedConfig (discoverConfig.feeds), the home page's of
//     discover.HomeConfig (discoverConfig.home); what a step of
//     harvest/discover asks of the crawl is a method of one of its small
//     interfaces (discover.Deps', Scope, Items, Canon, Pending),
//     implemented in discoverdeps.go, never a harvest type, and what it
//     found comes back as a value the crawl applies (Found, Read,
//     Unchanged, Seeded, Home, Discovered and its HomePage, the checked
//     Pattern). How the feed is found and the home page fetched:
//     harvest/discover's find.go; how post URLs are generalised and which
//     pages the check holds against the pattern: its pattern.go. What it learns of the blog that the page
//     worker reads is a field of site: the worker gets its own copy when
//     setUp ends (pageWorker.begin); nothing the coordinator writes to
//     its site later reaches the worker. What training learns of the
//     blog's pages (the rules, their file, the content test's signs) is
//     a field of the crawl's learned value, not of site: the worker gets
//     a copy after training (useRules: the rules and signs the
//     reading's, reading.go, the file the worker's, for every entry).
//   - Something the page worker learns for the whole crawl (for the Blog
//     record, the State or the Result): a field of pageResult, filled by
//     pageWorker.result (worker.go); the coordinator reads no field of
//     the worker.
//   - A new bound on what a blog decides the size of: a field of Options
//     (with its default in withDefaults), its config key in daemon
//     (Blog, builtinDefaults, checkValues, crawlOptions) and
//     blogs.example.yaml; what it leaves out goes to the ledger, named
//     by the key. Comment sources' bounds: feed.CommentLimits.
//   - A new difference between NewCrawl and UpdateCrawl: a field of policy,
//     set in newCrawlPolicy and updatePolicy. Where discovery must see it:
//     a field of discoverConfig, set in newDiscovery. Where the page
//     worker must see it: a field of changes, set from the policy in
//     newChanges (the worker holds no policy). Where the comment stage must
//     see it: a field of comments.Config, set from the policy in
//     newCommentStage (commentdeps.go; the stage never reads pol or
//     Options).
//   - A new comment source of a post, or a new check of what one holds:
//     a method of comments.Stage (harvest/comments: see its doc.go),
//     called from buildEntry (entry.go); what it needs of the crawl is a
//     field of comments.Config or comments.Blog, or a method of one of
//     the small interfaces of comments.Deps implemented in
//     commentdeps.go, never a harvest type. Which watched threads changed
//     and what the next crawl watches: comments.Watcher (harvest/comments:
//     threads.go).
//   - A new fate of a URL: ledger.go (Fate, fateRank), recorded where the
//     page path decides it (worker.go, coordinator.go).
//   - State shared by the workers: claims, ledger or stats (the crawl
//     and the page worker hold the same one), never a field the
//     coordinator alone writes. State of the coordinator's alone: a field
//     of crawl, or of the value its phase keeps (moveState, withdrawals,
//     discover.LeftOuts), never of pageWorker.
//   - What makes a post at a new URL the same post (the evidence, its
//     order, the text thresholds): harvest/discover's match.go
//     (MoveIndex.Match, MoveThreshold, MoveUndatedThreshold); what the
//     which archived post a post continues and State.Moved: its
//     matching.go (Moves.Identify, Moves.Moved); what the crawl does
//     with a match (the alias, the ledger): emitEntry in coordinator.go;
//     when a move
//     is suspected, which failures of the known feed send the crawl
//     looking for it again, how it is found again and which archived URLs
//     are asked for: harvest/discover's moves.go (Moves.Suspect,
//     Moves.FeedMayHaveMoved, Feeds.FindMoved, Moves.Probe); what the
//     crawl does with what they found: applyFeedMove, keepAsked.
//   - What makes the site at the address a stranger's: the evidence that
//     it is still the blog (a redirect, an item found again, an item's
//     text alike) is harvest/discover's match.go (MoveIndex.Identity,
//     MoveIndex.FoundAgain, StrangerThreshold); the IdentityError and
//     its evidence: harvest/discover's stranger.go (Moves.CheckIdentity),
//     crawl.stranger; when no feed is found again, which
//     archived posts are asked for and what their answers say (a
//     stranger vs a blog down): harvest/discover's stranger.go
//     (Moves.NoFeed, Moves.AskNewest, Answered, StrangerProbes), applied
//     by readFeed (blog.go). When the reused rules no longer fit: misfit in refit.go.
package harvest
