package harvest

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/comments"
	"github.com/blogharvest/blogharvest/harvest/discover"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/platform"
)

// NewCrawl harvests the blog o.Blog from scratch: it finds the feed, learns
// extraction rules from it, then every post it can reach (feed, feed paging,
// sitemaps, links), and passes emit one Entry per post or page, with
// comments and captured files, and then the Blog record, which carries the
// crawl ledger (every URL met and its fate: LedgerTSV). The Blog record is
// emitted even when the crawl stops early. Pages are dropped once
// their entry is emitted, so memory does not grow with the blog. An error
// from emit stops the crawl and is returned; a URL without a feed returns an
// error wrapping blogharvest.ErrNotBlog.
func NewCrawl(ctx context.Context, o Options, emit func(Record) error) (*Result, error) {
	return run(ctx, o, func(Options, time.Time) policy { return newCrawlPolicy() }, emit)
}

// UpdateCrawl harvests what changed on the blog o.Blog since a date (the
// Watermark of the previous Result): feed entries published or edited
// after it, posts with comments added after it (comment feeds of recent
// posts), and posts that fell out of the feed since (feed paging back to
// since, sitemap <lastmod> after since, post links of the home page). It
// emits only the entries that changed, then the Blog record with the
// crawl ledger. Given o.State (the last crawl's Result.State) it asks for
// the feeds conditionally first and emits nothing when they did not
// change, and re-reads only posts with a change signal; unless its daily
// recheck is due it reads no home page and emits no Blog record (see the
// package doc).
func UpdateCrawl(ctx context.Context, o Options, since time.Time, emit func(Record) error) (*Result, error) {
	return run(ctx, o, func(o Options, now time.Time) policy { return updatePolicy(o, since, now) }, emit)
}

// Learn does what a crawl does before it emits anything: it finds the
// blog's feed, fetches the pages of the feed's entries and learns extraction
// rules from them. The Result holds the rules (Rules), the post-URL pattern
// and what was fetched; nothing is emitted. It is the archivist's way to see
// what a crawl would extract, and why.
func Learn(ctx context.Context, o Options) (*Result, error) {
	return run(ctx, o, func(Options, time.Time) policy { return newCrawlPolicy() }, nil)
}

// site is what a crawl knows of the blog: set up by the coordinator in
// the phases before the frontier is drained (discovery, feed, scope,
// pattern). The coordinator's is written by the set-up and, for the Blog
// record, after the workers are done; the page worker holds a copy of its
// own, handed over as a value once the set-up is done (pageWorker.begin):
// nothing the coordinator writes after that reaches it. What training
// learns (the rules, their file, the posts' signs) is not the site's but
// the crawl's learned value, handed to the worker by useRules.
type site struct {
	blog        blogharvest.Blog
	home        *url.URL // canonical home page
	urlIsFeed   bool     // Options.Blog.URL turned out to be the feed
	homeLang    string   // <html lang> of the home page
	homeLicense string   // rel=license link of the home page (Blog.License when the feed names none)
	feed        *feed.Feed
	full        bool      // the feed carries whole posts
	texts       itemTexts // what the feed's items' texts are (itemtext.go), read with the feed
	scope       *scope
	pattern     *discover.Pattern
}

// learned is what the coordinator learned of the blog's pages, or took
// from the last crawl (reuseRules): the extraction rules (nil: none), their
// file (the Blog record's and every entry's) and what the blog's own posts
// show of the content test's signs (postsigns.go). It is the crawl's own,
// not the site's: training and the refit write it (train.go, refit.go),
// and the page worker is handed a copy once, before the first entry
// (useRules).
type learned struct {
	rules *learn.Rules
	file  *blogharvest.File
	signs postSigns
}

// pageWorker turns one page into an outcome: fetch, parse, extract,
// entry (comments, rendering, media). It reads its copy of the site and
// the change test (changes; never the policy), claims URLs (claims),
// records their fates (ledger) and writes stats; it never touches the
// frontier, the kNN model, the Result's counts or emit, which are the
// coordinator's. The coordinator hands it the site and the comment stage
// once the set-up is done (begin), the rules once they are learned
// (useRules), and takes back what it learned for the whole crawl as a
// value (result). Every field is set before the workers start; the ones
// written after that are safe for concurrent use.
type pageWorker struct {
	// site is the worker's own copy of the site (begin), nil before.
	site *site
	o    Options
	// changes tells what changed since the last crawl (changes.go): the
	// worker's share of the policy.
	changes *changes
	// fetch is fetching (fetching.go): the client (handed over by
	// useClient), the browser, the requisites' and media's capture and
	// caches, with its config built once in newCrawl: the worker reads no
	// Options field for them.
	fetch *fetching
	// account is the render decision's (renderdecision.go): renders by
	// reason, and the budget.
	account *renderAccount
	log     *slog.Logger
	start   time.Time
	claims  *claims    // URLs processed, feed items waiting, stubs
	ledger  *ledger    // the fate of every URL met
	stats   *stats     // warnings and timings
	side    *sideFeeds // feeds besides the posts feed, read for dates (feeddates.go)
	// shapes is the comment structure learned from the rendered pages
	// (commentshapes.go).
	shapes *commentShapes
	// scripts are the blog's own scripts read for widgets they mount,
	// widgets the scripts known to load a comment widget on the blog
	// (scriptwidget.go).
	scripts *scriptReads
	widgets *widgetScripts
	// read is reading a page (reading.go): the learned rules and the
	// fallbacks, the content test and the entry's fields from the
	// extraction; built by begin, given the rules by useRules.
	read *reading
	// comments is the comment stage (commentstage.go): built when the
	// site is set up, before the first page is processed.
	comments *comments.Stage
	// rulesF is the learned rules' file, which every entry carries
	// (addFiles; nil: none), handed over by useRules.
	rulesF *blogharvest.File
}

// crawl is the state of one NewCrawl or UpdateCrawl: the coordinator's
// (one goroutine: set-up, then the frontier's drain, handling the
// workers' outcomes) over the page worker's.
type crawl struct {
	// site is what the set-up learns of the blog, the page worker's
	// too; o, pol, log and start the crawl's options, policy, logger and
	// start; client, claims, ledger and stats are shared with the page
	// workers (each safe for concurrent use).
	site *site
	// learned is what training learned (or the last crawl left) of the
	// blog's pages: the rules, their file and the posts' signs.
	learned learned
	o       Options
	pol     policy
	changes *changes // the page worker's too
	log     *slog.Logger
	start   time.Time
	client  *fetch.Client
	claims  *claims
	ledger  *ledger
	stats   *stats
	// w is the page stage: what the drain's workers run, one page job
	// at a time (worker.go), turning it into an outcome the coordinator
	// handles; the coordinator hands it the site and the comment stage
	// once the site is set up (begin), and takes what it learned for the
	// whole crawl (comment shapes, widget scripts, side feeds, the render
	// account) as a value at the end (result, a pageResult).
	w    *pageWorker
	emit func(Record) error
	res  *Result

	front      *frontier
	knn        *knn
	offsite    []*feed.Item                      // items whose page lies outside the scope
	pages      int                               // HTML pages dispatched (bounded by MaxPages)
	disallowed int                               // URLs robots.txt kept the crawl from
	outOfScope int                               // pages outside the blog's origins or redirected out of them
	notHTML    map[string]int                    // pages skipped as not HTML, by media type (logNotHTML)
	stopped    bool                              // UpdateCrawl stopped after the feeds: nothing changed
	failed     map[string]bool                   // canonical URLs of feed items whose page failed
	sigs       itemSigs                          // the feed's first-page item signatures, made once (itemSignatures)
	pageVals   map[string]blogharvest.Validators // validators of the pages fetched, for State.Pages
	late       lateStubs                         // entries re-read for the stubs met after them
	// threads is the watch of comment thread APIs (comments/threads.go):
	// set up before the drain, then handed to the comment stage (the
	// coordinator still notes each rendered page's watch).
	threads *comments.Watcher

	// disc is the discovery stage's own state and configuration
	// (discovered.go): what the set-up and the seeding of the frontier
	// keep between their steps.
	disc discovery

	// move is what the crawl learns of a blog that moved (moves.go),
	// gone the posts withdrawn from it (gone.go).
	move moveState
	gone withdrawals

	budget     context.Context // the crawl's context, bounded by MaxDuration
	blogDone   bool            // the Blog record was emitted
	overBudget int             // outcomes dropped because the budget ran out
}

// run is NewCrawl and UpdateCrawl: pol gives the crawl's policy for its
// options and start.
func run(ctx context.Context, o Options, pol func(Options, time.Time) policy, emit func(Record) error) (*Result, error) {
	o = o.withDefaults()
	start := o.Now()
	c := newCrawl(o, pol(o, start), start, emit)
	wall := time.Now()
	defer c.w.fetch.closeRenderer()
	bctx, stop := c.withBudget(ctx)
	defer stop()
	err := c.endBudget(c.crawl(bctx))
	c.warnCappedDelays()
	if c.res.Ledger == nil {
		c.res.Ledger = c.settleLedger(err)
	}
	pr := c.w.result() // the workers are done
	c.finishState(pr)
	c.res.Timings.Total = time.Since(wall)
	if c.client != nil {
		c.client.Close() // the crawl is over: its connections are not kept for another
		st := c.client.Stats()
		for code, n := range st.Requests {
			c.res.Fetches[code] = int(n)
		}
		c.res.Delayed = int(st.Delayed)
	}
	pr.fill(c.res)
	return c.res, err
}

// newCrawl sets up the state of a crawl with options o (defaults
// applied) and policy pol, started at start.
func newCrawl(o Options, pol policy, start time.Time, emit func(Record) error) *crawl {
	res := &Result{Fetches: map[int]int{}, Watermark: start.Add(-WatermarkMargin)}
	ch := newChanges(pol, o.State.Items)
	w := &pageWorker{o: o, changes: ch, fetch: newFetching(fetchConfigOf(o), start, o.ArchivedRequisites),
		account: newRenderAccount(max(o.MaxRenders, 0)), log: o.Logger, start: start, claims: newClaims(),
		ledger: newLedger(), stats: &stats{res: res, log: o.Logger},
		side: newSideFeeds(), shapes: &commentShapes{}, scripts: &scriptReads{}}
	if pol.useState {
		w.widgets = newWidgetScripts(o.State.WidgetScripts)
		w.shapes.learned(o.State.CommentShapes) // an update renders too few pages to learn them (commentshapes.go)
	} else {
		w.widgets = newWidgetScripts(nil)
	}
	return &crawl{site: &site{}, o: o, pol: pol, changes: ch, log: o.Logger, start: start, claims: w.claims, ledger: w.ledger, stats: w.stats,
		w: w, emit: emit, res: res, front: newFrontier(), knn: newKNN(3, 1024),
		disc: newDiscovery(pol, o), failed: map[string]bool{},
		threads: comments.NewWatcher(o.State.Threads, pol.useState, o.Logger),
		move: moveState{cfg: discover.MoveConfig{UseState: pol.useState, FeedGiven: o.Blog.FeedURL != "", Since: pol.since, NoProbes: o.NoMoveProbes, Last: o.State.Items,
			Moved: o.State.Moved, AcceptIdentity: o.AcceptIdentity}},
		gone: withdrawals{cfg: discover.GoneConfig{UseState: pol.useState, Start: start, Gone: o.State.Gone, Items: o.State.Items, Pages: o.State.Pages}}}
}

// crawl runs the phases of a crawl in order.
func (c *crawl) crawl(ctx context.Context) error {
	if err := c.newClient(); err != nil {
		return err
	}
	if err := c.checkCrawlDelay(ctx); err != nil {
		return err
	}
	c.askGone(ctx) // the archived posts that answered 404 or 410 before, when due (gone.go)
	if c.feedsUnchanged(ctx) {
		return nil
	}
	home, err := c.setUp(ctx)
	if err != nil {
		return err
	}
	train, err := c.learnRules(ctx)
	if err != nil || c.emit == nil {
		if c.emit == nil {
			c.res.Pages += fetchedPages(train) // Learn stops here: no outcome counts them later
		}
		return err // c.emit is nil for Learn: it stops here
	}
	c.w.useRules(c.learned)
	if home != nil && !c.disc.cfg.settled { // UpdateCrawl: posts the feed does not list, once a day
		c.seedLinks(c.site.home.String(), home.info, 0) // before the training pages' links: the home page is depth 0
	}
	err = c.emitTraining(ctx, train)
	if err == nil {
		err = c.drain(ctx)
	}
	c.res.Ledger = c.settleLedger(err)
	berr := c.emitBlog(c.w.result()) // last, with the ledger; also when the budget ran out
	c.blogDone = berr == nil
	return errors.Join(err, berr)
}

// setUp is the discovery stage of a crawl: the feed (discovered or
// known) and its pages, the blog-wide comment feed, the home page, the
// scope, the feed's items seeded and the post pattern generalised from
// them, robots.txt and sitemaps, the posts commented or moved; its state
// between these steps is c.disc, what it learns of the blog the site.
// It ends by handing the page worker its copy of the site and the comment
// stage (pageWorker.begin), and returns the home page (nil when none was
// read).
func (c *crawl) setUp(ctx context.Context) (*fetchedPage, error) {
	c.step("discovering the feed")
	home, err := c.discover(ctx)
	if err != nil {
		return nil, err
	}
	c.disc.siteFeed.Commented = c.siteCommentPosts(ctx, home)
	c.threads.Poll(ctx) // before the feed: it is read on to the items of the posts whose thread changed (wantItems)
	c.step("reading the feed")
	if err := c.readFeed(ctx, home); err != nil {
		return nil, err
	}
	if home == nil && c.move.home != nil { // the feed moved: the home page was read to find it again
		home = c.move.home
		c.disc.siteFeed.Commented = c.siteCommentPosts(ctx, home)
	}
	// the suspicion is the stage's (Moves.Moving), the change test's too (changes.go)
	c.changes.moving = c.move.stage.Suspect(c.site.feed, c.move.feedFrom != "").Moving
	c.askDropped(ctx) // the posts the feed's first page no longer lists (gone.go)
	if home == nil && c.site.feed.Link != "" {
		if c.site.urlIsFeed || c.o.Blog.URL == "" || c.o.Blog.URL == c.o.Blog.FeedURL {
			c.addOrigin(c.site.feed.Link) // the feed names the blog's home page
		}
		if c.homeDue() {
			home = c.keepHome(c.disc.feeds.FetchHome(ctx, c.site.feed.Link, c.site.blog.FeedURL)) // the blog was given by its feed
			c.disc.siteFeed.Commented = c.siteCommentPosts(ctx, home)
		}
	}
	c.setScope(home)
	if c.homeDue() {
		c.site.blog.Files = append(c.site.blog.Files, c.w.homeRequisites(ctx, home, c.site.blog.Files, c.site.scope)...)
	}
	c.seedFeed()
	c.verifyPattern(home)
	c.step("reading sitemaps")
	c.readSitemaps(ctx)
	c.threads.Poll(ctx)
	c.queueCommented()
	pr := c.move.stage.ProbeArchive(ctx, c.disc.listed()) // the moved posts' matching (moves.go)
	c.keepAsked(pr.Lines, pr.Pages)
	if ev := c.move.stage.CheckIdentity(c.site.feed, c.site.blog.FeedURL, c.move.feedFrom); ev != nil {
		return nil, c.stranger(ev) // a stranger at the address: nothing archived (stranger.go)
	}
	c.w.begin(*c.site, home, c.newCommentStage()) // the site is set up: the worker's from here on
	return home, nil
}

// newClient builds the crawl's HTTP client, held to the blog's origins
// (Blog.URL, Blog.FeedURL, Allow) for pages.
func (c *crawl) newClient() error {
	origins := append([]string{c.o.Blog.URL, c.o.Blog.FeedURL}, c.o.Allow...)
	maxBody := max(int64(fetch.DefaultMaxBody), c.o.MaxMediaBytes)
	cl, err := fetch.New(fetch.Options{UserAgent: c.o.UserAgent, Delay: c.o.Delay, PerHost: c.o.PerHost,
		CAFile: c.o.CAFile, Origins: origins, FeedHosts: platform.FeedHosts(), IgnoreRobots: c.o.IgnoreRobots, Transport: c.o.Transport,
		MaxBody: maxBody, Auth: fetchAuth(c.o),
		MaxCrawlDelay: c.o.MaxCrawlDelay, StrictCrawlDelay: c.o.StrictCrawlDelay,
		Robots: c.o.State.Robots, TurnWait: c.o.HostWait})
	if err != nil {
		return fmt.Errorf("harvest %s: %w", c.o.Blog.URL, err)
	}
	c.client = cl
	c.w.useClient(cl) // the home page's requisites and the training pages are fetched by the worker
	// the thread watch asks through it (Poll: setUp, feedsUnchanged)
	c.threads.UseFetcher(cl)
	c.disc.feeds = discover.NewFeeds(c.disc.cfg.feeds, cl, c.log)
	var posts func() ([]ArchivedPost, error)
	if c.emit != nil { // Learn emits nothing: no post of it is matched, no stranger looked for
		posts = c.o.ArchivedPosts
	}
	c.move.stage = discover.NewMoves(c.move.cfg, discover.MoveDeps{Posts: posts, Fetch: cl, Canon: discoverCanon{}, Stub: discoverStub{},
		Key: discoverKey{}, Progress: discoverProgress{c}, Warn: c.stats, Log: c.log})
	c.gone.check = discover.NewGone(c.gone.cfg, discover.GoneDeps{Fetch: cl, Warn: c.stats, Log: c.log})
	return nil
}

// warn records a warning for the Result and logs it.
func (w *pageWorker) warn(msg string, args ...any) {
	w.stats.warn(fmt.Sprintf(msg, args...))
}

// notBlog wraps err so that it says the blog's URL has no feed.
func notBlog(raw string, err error) error {
	if errors.Is(err, blogharvest.ErrNotBlog) {
		return blogharvest.Permanent(fmt.Errorf("harvest %s: %w", raw, err))
	}
	return blogharvest.Permanent(fmt.Errorf("harvest %s: %w: %v", raw, blogharvest.ErrNotBlog, err))
}

// step tells Options.Progress what the crawl does next.
func (c *crawl) step(what string) {
	if c.o.Progress != nil {
		c.o.Progress(what)
	}
}
