package harvest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/discover"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// discover has the feed stage find the feed and fetch the home page
// (discover.Feeds.Find) and applies what it found: the feed's URL, whether
// the blog's URL is the feed, a feed that cannot be read (over the body
// cap: c.disc.feedErr, read by readFeed) and the home page's capture
// (keepHome). It returns the home page, nil when the blog was given by
// its feed and the home page cannot be fetched.
func (c *crawl) discover(ctx context.Context) (*fetchedPage, error) {
	c.site.blog = c.o.Blog
	if c.site.blog.URL == "" {
		c.site.blog.URL = c.site.blog.FeedURL
	}
	in := discover.FindSite{URL: c.site.blog.URL, FeedURL: c.site.blog.FeedURL, HomeDue: c.homeDue()}
	if c.disc.cfg.useState {
		in.KnownFeed = c.o.State.Feed.URL
	}
	d, err := c.disc.feeds.Find(ctx, in, discoverCanon{})
	switch {
	case errors.Is(err, blogharvest.ErrNotBlog):
		return nil, notBlog(c.site.blog.URL, err)
	case errors.Is(err, fetch.ErrOutOfScope):
		return nil, fmt.Errorf("harvest %s: %w (if that origin is the blog's, list it in allow)", c.site.blog.URL, err)
	case err != nil:
		return nil, fmt.Errorf("harvest %s: %w", c.site.blog.URL, err)
	}
	c.site.blog.FeedURL = d.FeedURL
	c.site.urlIsFeed = d.URLIsFeed
	c.disc.feedErr = d.FeedErr
	return c.keepHome(d.Home), nil
}

// noFeed notes that the feed could not be read (err) and stands an empty
// feed in for it: posts are found from the home page, its links and the
// sitemaps.
func (c *crawl) noFeed(raw string, err error) {
	var tl *fetch.TooLargeError
	if errors.As(err, &tl) {
		raw = tl.URL
	}
	c.stats.warnf("feed %s: %v; the posts are found from the home page, its links and the sitemaps instead", raw, err)
	if u := canonicalOr(raw); u != "" {
		c.ledger.set(u, FateFailed, fmt.Sprintf("the posts feed: %v (posts found from the home page, links and sitemaps)", err), "feed")
	}
	c.site.feed = &feed.Feed{URL: raw, Link: c.site.blog.URL}
	c.site.blog.FeedURL = ""
}

// addOrigin adds the origin of raw, a feed the home page declares or the
// home page a feed names, to the blog's origins for pages (never for
// non-public addresses: fetch.Client.AddOrigin).
func (c *crawl) addOrigin(raw string) {
	if err := c.client.AddOrigin(raw); err != nil {
		c.log.Debug("origin not added", "url", raw, "err", err)
	}
}

// keepHome applies the home page's capture (nil when none was fetched):
// it counts the page, keeps the capture in the Blog record (homeFile)
// and returns the page parsed; a failed fetch or an unparsable page is a
// warning and nil.
func (c *crawl) keepHome(h *discover.HomePage) *fetchedPage {
	if h == nil {
		return nil
	}
	if h.Resp != nil {
		c.pages++
		c.res.Pages++
		c.homeFile(h)
	}
	if h.Err != nil {
		c.stats.warnf("home page %s: %v", h.URL, h.Err)
		return nil
	}
	p, err := newFetchedPage(h.Resp)
	if err != nil {
		c.stats.warnf("home page %s: %v", h.URL, err)
		return nil
	}
	return p
}

// homeFile records the home page capture and what the exchange says about
// the blog (discover.CaptureOf), with the provenance of each field.
func (c *crawl) homeFile(h *discover.HomePage) {
	c.site.blog.StatusCode = h.Status
	c.site.blog.Provenance.Set("status_code", blogharvest.MethodHTTP)
	if h.HostingIP != "" {
		c.site.blog.HostingIP = h.HostingIP
		c.site.blog.Provenance.Set("hosting_ip", blogharvest.MethodHTTP)
	}
	if h.Encoding != "" {
		c.site.blog.Encoding = h.Encoding
		c.site.blog.Provenance.Set("encoding", blogharvest.MethodHTTP)
	}
	c.site.blog.Files = append(c.site.blog.Files, h.File)
}

// readFeed reads the posts feed with its older pages (the feed stage's
// discover.Feeds.Read) and keeps the feed, its files and its validators;
// a feed gone from its known URL is looked for again (moves.go).
//
// A feed that cannot be read because it is too large (over the body cap)
// is no end to the crawl when the home page was read: an empty feed
// stands in for it (noFeed), and the posts come from the other ways of
// finding them.
func (c *crawl) readFeed(ctx context.Context, home *fetchedPage) error {
	if c.disc.feedErr != nil {
		c.noFeed(c.site.blog.FeedURL, c.disc.feedErr)
		return nil
	}
	r := c.disc.feeds.Read(ctx, c.site.blog.FeedURL, c.wantItems)
	if r.Feed == nil && c.move.feedFrom == "" && c.move.stage.FeedMayHaveMoved(r.Err) {
		mv := c.disc.feeds.FindMoved(ctx, c.site.blog.URL, c.site.blog.FeedURL, r.Err, home == nil, discoverCanon{}, c.stats)
		if c.applyFeedMove(mv) {
			r = c.disc.feeds.Read(ctx, c.site.blog.FeedURL, c.wantItems)
		} else {
			a, ev := c.move.stage.NoFeed(ctx, c.site.blog.FeedURL, c.site.blog.URL, r.Err, mv.Err) // a stranger at the address? (stranger.go)
			c.keepAsked(a.Lines, a.Pages)
			if ev != nil {
				return c.stranger(ev)
			}
		}
	}
	f, err := r.Feed, r.Err
	if f == nil && home != nil && errors.Is(err, blogharvest.ErrTooLarge) {
		c.noFeed(c.site.blog.FeedURL, err)
		return nil
	}
	switch {
	case f == nil && errors.Is(err, feed.ErrNotFeed):
		return notBlog(c.site.blog.FeedURL, err)
	case f == nil:
		return fmt.Errorf("harvest %s: feed %s: %w", c.site.blog.URL, c.site.blog.FeedURL, err)
	case err != nil:
		c.stats.warnf("feed %s: %v", c.site.blog.FeedURL, err)
	}
	if f.Removed > 0 {
		c.stats.warnf("feed %s: %d characters not allowed in XML removed before parsing (the archived feed keeps them)", c.site.blog.FeedURL, f.Removed)
	}
	c.site.feed = f
	c.site.texts = readItemTexts(f)
	c.site.full = fullTextFeed(f, c.site.texts)
	c.site.blog.Files = append(c.site.blog.Files, r.Files...)
	c.modificationDates(ctx)
	c.res.State.Feed = r.Validators
	return nil
}

// modificationDates dates the feed's items from the platform's Atom feed
// when the posts feed gives no modification dates, so that UpdateCrawl
// finds edited posts without extracting every post of the feed again, and
// both crawls record the same date_modified.
func (c *crawl) modificationDates(ctx context.Context) {
	if !c.homeDue() && !c.twinDated() {
		return // the last crawl got no dates from it: asked again with the home page
	}
	file, n, err := feed.FillUpdated(ctx, c.client, c.site.feed)
	if file != nil {
		c.site.blog.Files = append(c.site.blog.Files, *file)
	}
	var se *fetch.StatusError
	switch {
	case err == nil:
	case errors.As(err, &se) && (se.Code == 404 || se.Code == 410):
		c.log.Debug("no Atom feed beside the RSS feed: modification dates come from the pages", "url", se.URL)
	case ctx.Err() == nil:
		c.log.Warn("modification dates: the Atom feed beside the RSS feed is unreadable", "err", err)
	}
	if n > 0 {
		c.log.Debug("modification dates from the Atom feed", "items", n)
	}
}

// fullTextFeed reports whether most feed items carry whole posts rather
// than summaries, by their texts read with the feed.
func fullTextFeed(f *feed.Feed, texts itemTexts) bool {
	full := 0
	for i := range f.Items {
		if texts.full(&f.Items[i]) {
			full++
		}
	}
	return len(f.Items) > 0 && full*2 >= len(f.Items)
}

// fullText reports whether an item's text (textsim.HTMLText of its
// content) looks like a whole post: present, not tiny and not ending in a
// "read more" ellipsis. A crawl reads it once an item (itemTexts).
func fullText(text string) bool {
	text = strings.TrimSpace(text)
	if len(text) < 200 {
		return false
	}
	tail := text[max(0, len(text)-40):]
	return !strings.Contains(tail, "[…]") && !strings.Contains(tail, "[...]") &&
		!strings.Contains(strings.ToLower(tail), "continue reading") && !strings.Contains(strings.ToLower(tail), "read more")
}

// emitBlog completes the Blog record, with the crawl ledger, and emits it,
// then drops its files. It comes last, once the ledger is complete.
func (c *crawl) emitBlog(pr pageResult) error {
	if !c.homeDue() {
		return nil // the home page was not read: the archived Blog record stands
	}
	b := c.site.blog
	feed.FillBlog(c.site.feed, &b)
	b.ID, b.Captured = c.o.Blog.ID, c.start
	if c.site.home != nil {
		b.URL = c.site.home.String()
		if given := canonicalOr(c.o.Blog.URL); given != "" && given != b.URL && !c.site.urlIsFeed && !contains(b.Aliases, given) {
			b.Aliases = append(b.Aliases, given)
		}
	}
	if b.Language == "" && c.site.homeLang != "" {
		b.Language = c.site.homeLang
		b.Provenance.Set("language", blogharvest.MethodHeuristic)
	}
	if b.License == "" && c.site.homeLicense != "" { // the feed's license first, then the home page's rel=license
		b.License = c.site.homeLicense
		b.Provenance.Set("license", blogharvest.MethodStructured)
	}
	b.Files = append(b.Files, pr.sideFiles...) // the evidence of dates from side feeds (feeddates.go)
	if c.learned.file != nil {
		b.Files = append(b.Files, *c.learned.file)
	}
	if f := stateFile(Watch{At: c.start, Threads: c.threads.State(itemKeys(c.site.feed)), CommentShapes: pr.shapes, WidgetScripts: pr.widgets, Moved: c.move.stage.Moved(), Gone: c.goneState()}); f != nil {
		b.Files = append(b.Files, *f)
	}
	b.Files = append(b.Files, ledgerFile(c.res.Ledger, c.start))
	c.site.blog = blogharvest.Blog{FeedURL: b.FeedURL} // the files are emitted: free them
	c.cleanBlog(&b)
	if err := c.emit(Record{Blog: &b}); err != nil {
		return fmt.Errorf("harvest %s: emit blog: %w", b.URL, err)
	}
	return nil
}

// blogLanguage is the blog's language as emitBlog records it, which its
// entries inherit: the feed's, else the home page's <html lang>.
func (s *site) blogLanguage() string {
	if s.feed != nil && s.feed.Language != "" {
		return s.feed.Language
	}
	return s.homeLang
}

// rulesFile returns the learned rules as a log file for the records.
func rulesFile(rules json.RawMessage, at time.Time) *blogharvest.File {
	f := &blogharvest.File{Role: blogharvest.RoleLog, MediaType: "application/json", Body: rules, Captured: at}
	f.Sum()
	return f
}

// ledgerFile returns the crawl ledger as a file of the Blog record
// (blogharvest.RoleLedger: data/logs/ledger.tsv of the Blog AIP). Like every
// file but media it does not count toward the AIP's content digest: a
// ledger alone never makes a new blog version.
func ledgerFile(rows []LedgerRow, at time.Time) blogharvest.File {
	f := blogharvest.File{Role: blogharvest.RoleLedger, MediaType: "text/tab-separated-values; charset=utf-8",
		Body: LedgerTSV(rows), Captured: at}
	f.Sum()
	return f
}
