package harvest

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/url"
	"strings"
	"sync"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// pageJob is one page to process, with what is known about it beforehand.
type pageJob struct {
	t           task
	item        *feed.Item // the feed's entry for the page; nil if none
	fromFeed    bool       // queued from the feed (its item decides the entry)
	page        *fetchedPage
	err         error // why page is nil
	comments    []feed.Comment
	commentFile *blogharvest.File
	commentsErr error
	commentsRun bool
}

// outcome is what processing a pageJob produced, for the coordinator.
type outcome struct {
	job       *pageJob
	info      *pageInfo // nil when no page was fetched
	url       *url.URL  // the page's identity
	post      bool      // the page is a post (for kNN training, only non-posts count)
	entry     *blogharvest.Entry
	fetched   bool
	unchanged bool   // UpdateCrawl: nothing new since
	queue     string // a canonical URL to queue instead (the page was a variant of it)
	stub      string // the target of a redirect stub page, to queue in its place
	err       error
}

// errNotHTML is returned for pages that turn out to be feeds or binaries.
var errNotHTML = errors.New("not an HTML page")

// drain processes the frontier with a pool of workers until it is empty or
// MaxPages pages were fetched. The coordinator (this goroutine) alone
// touches the frontier, the kNN model and emit.
func (c *crawl) drain(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := c.o.PerHost
	jobs, outs := make(chan *pageJob), make(chan outcome)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				outs <- c.process(ctx, j)
			}
		})
	}
	err := c.coordinate(ctx, jobs, outs, workers)
	close(jobs)
	cancel()
	go func() { wg.Wait(); close(outs) }()
	for range outs { // let busy workers finish
	}
	c.res.Skipped += c.front.len()
	if c.disallowed > 0 {
		c.warn("%d URLs disallowed by robots.txt were skipped", c.disallowed)
	}
	if c.outOfScope > 0 {
		c.warn("%d pages outside the blog's origins, or redirected out of them, were skipped (allow adds an origin)", c.outOfScope)
	}
	c.warnOverBudget()
	if err == nil && c.front.len() > 0 && !c.spent() {
		c.warn("max_pages %d reached: %d queued URLs not fetched", c.o.MaxPages, c.front.len())
	}
	if err == nil {
		err = c.emitOffsite()
	}
	return err
}

// coordinate dispatches jobs and handles outcomes; it returns the first
// error of emit or ctx.
func (c *crawl) coordinate(ctx context.Context, jobs chan<- *pageJob, outs <-chan outcome, workers int) error {
	inflight := 0
	for {
		for inflight < workers && c.pages < c.o.MaxPages && ctx.Err() == nil {
			t, ok := c.front.pop()
			if !ok {
				break
			}
			if c.claimed(t.url) && !t.again {
				c.ledger.set(t.url, FateDuplicate, "processed before under this URL or another", "")
				continue // a training page, or reached under another URL
			}
			c.pages++
			jobs <- &pageJob{t: t, fromFeed: c.isPending(t.url)}
			inflight++
		}
		if inflight == 0 {
			if c.spent() {
				return nil // over budget: a partial crawl, not a failed one
			}
			return ctx.Err()
		}
		out := <-outs
		inflight--
		if err := c.handle(out); err != nil {
			return err
		}
	}
}

// process fetches and processes one page (in a worker).
func (c *crawl) process(ctx context.Context, j *pageJob) outcome {
	j.item = c.takeItem(j.t.url)
	if c.update && j.item != nil && !c.itemChanged(j.item) && !j.t.again {
		if c.settled && !c.isCommented(j.t.url) {
			return outcome{job: j, unchanged: true} // its comments: the site comment feed or the item's count says
		}
		c.fetchComments(ctx, j)
		if !commentsAfter(j.comments, c.since) {
			return outcome{job: j, unchanged: true}
		}
	}
	if !j.t.again && c.recheckOnly(j) {
		return c.recheckPage(ctx, j)
	}
	j.page, j.err = c.fetchPage(ctx, j.t.url)
	return c.finish(ctx, j)
}

// finish turns a job whose page was fetched (or failed) into an outcome.
func (c *crawl) finish(ctx context.Context, j *pageJob) outcome {
	if j.page == nil {
		if j.item != nil && j.fromFeed && !errors.Is(j.err, blogharvest.ErrDisallowed) {
			e := c.feedOnlyEntry(j.item, fmt.Sprintf("page %s: %v", j.t.url, j.err))
			return outcome{job: j, entry: e, err: j.err, unchanged: c.update && !c.itemChanged(j.item)}
		}
		return outcome{job: j, err: j.err}
	}
	p := j.page
	out := outcome{job: j, info: p.info, url: p.url, fetched: true}
	c.noteRedirect(j.t.url, p)
	if p.stub != "" {
		out.info, out.stub = nil, p.stub // a redirect stub: its target is the page
		c.noteStub(j.t.url, p)
		return out
	}
	if isQueryVariant(p) && j.item == nil && !j.fromFeed {
		out.info, out.queue = nil, p.ident // a view of another page (?query-0-page=2, ?cst): never its content
		c.ledger.set(p.url.String(), FateDuplicate, "query view of "+p.ident, "")
		return out
	}
	if !c.claimIdentity(j, p) {
		out.info = nil // reached before under another URL: its links were seeded then
		return out
	}
	if p.ident != j.t.url {
		if j.item == nil {
			j.item = c.takeItem(p.ident)
		}
		out.url, _ = url.Parse(p.ident)
	}
	out.post = j.item != nil || j.t.kind == "post" || c.pattern.match(out.url)
	if !out.post && j.t.kind != "page" && j.t.kind != "candidate" {
		c.ledger.set(p.ident, FateListing, "", "")
		return out
	}
	if out.post && j.item == nil && c.isListing(p) {
		out.post = false
		c.ledger.set(p.ident, FateListing, "listing inside the post pattern", "")
		return out
	}
	e := c.buildEntry(ctx, j, out.post)
	if e == nil {
		c.ledger.set(p.ident, FateListing, "navigation page without content of its own", "")
		return out
	}
	if reason := emptyEntry(e); reason != "" {
		c.ledger.set(p.ident, FateSkipped, reason, "")
		c.warn("page %s not archived: %s", p.ident, reason)
		return out
	}
	// UpdateCrawl keeps an entry the feed calls changed (itemChanged: it
	// cannot tell for a first-page item without a modification date; the
	// archive then decides by content) or that shows a change itself.
	if c.update && !j.t.again && (j.item == nil || !c.itemChanged(j.item)) && !c.entryChanged(e, j.t) {
		c.ledger.set(p.ident, FateSkipped, "unchanged since the last crawl", "")
		out.unchanged = true
		return out
	}
	out.entry = e
	return out
}

// noteRedirect records in the ledger that the task's URL was answered by
// an HTTP redirect, or is a variant of the page's canonical URL.
func (c *crawl) noteRedirect(task string, p *fetchedPage) {
	final := p.url.String()
	if final != task {
		c.ledger.set(task, FateRedirect, final, "")
		c.ledger.met(final, "redirect")
	}
	if p.ident != final && p.stub == "" && !isQueryVariant(p) {
		c.ledger.met(p.ident, "canonical")
		c.ledger.set(final, FateDuplicate, p.ident+" (rel=canonical)", "")
	}
}

// noteStub records a redirect stub: its URLs get the fate stub and become
// aliases of the target's entry; a feed item that named the stub waits for
// the target instead.
func (c *crawl) noteStub(task string, p *fetchedPage) {
	c.log.Info("redirect stub", "url", p.url.String(), "target", p.stub)
	c.mu.Lock()
	if c.stubs == nil {
		c.stubs = map[string][]string{}
	}
	urls := []string{task, p.url.String()}
	urls = append(urls, c.stubs[task]...) // a chain of stubs: the earlier ones lead to the target too
	urls = append(urls, c.stubs[p.url.String()]...)
	for _, u := range urls {
		if u != p.stub && !contains(c.stubs[p.stub], u) {
			c.stubs[p.stub] = append(c.stubs[p.stub], u)
		}
	}
	c.emitted[task], c.emitted[p.url.String()] = true, true // processed: a training stub is not fetched again
	c.mu.Unlock()
	c.ledger.set(task, FateStub, p.stub, "")
	c.ledger.set(p.url.String(), FateStub, p.stub, "")
	c.ledger.met(p.stub, "stub")
}

// claimIdentity claims the page's canonical identity. A page whose
// rel=canonical names a URL already processed is a duplicate of it, unless
// it is a post by its own URL and the canonical is not (a theme that points
// every page's canonical at the home page or one post): it is then kept
// under its own URL. It reports whether the page is to be processed.
func (c *crawl) claimIdentity(j *pageJob, p *fetchedPage) bool {
	if c.claim(p.ident) || j.t.again {
		return true
	}
	own := p.url.String()
	canon, _ := url.Parse(p.ident)
	if own != p.ident && (j.item != nil || c.pattern.match(p.url)) && (canon == nil || !c.pattern.match(canon)) && c.claim(own) {
		c.log.Info("canonical URL processed before; the post is kept under its own URL", "url", own, "canonical", p.ident)
		p.ident = own
		c.ledger.clear(own) // the canonical duplicate noted before no longer holds
		return true
	}
	c.ledger.set(j.t.url, FateDuplicate, p.ident+" (processed before)", "")
	c.ledger.set(own, FateDuplicate, p.ident+" (processed before)", "")
	c.log.Info("page skipped: its canonical URL was processed before", "url", own, "canonical", p.ident)
	return false
}

// emptyEntry returns why an entry holds nothing worth archiving (neither a
// title, a URL as title counting as none, nor an article, an image alone
// counting as one), or "".
func emptyEntry(e *blogharvest.Entry) string {
	title := strings.TrimSpace(e.Title)
	if (title == "" || title == e.URL) && strings.TrimSpace(e.Content) == "" {
		return "neither a title nor an article"
	}
	return ""
}

// handle applies an outcome: counts, links, kNN training, emission.
func (c *crawl) handle(out outcome) error {
	if c.spent() {
		c.dropOverBudget(out)
		return nil
	}
	switch {
	case errors.Is(out.err, blogharvest.ErrDisallowed):
		c.res.Skipped++
		c.disallowed++
		c.ledger.set(out.job.t.url, FateRobots, "", "")
		c.log.Debug("disallowed by robots.txt", "url", out.job.t.url)
	case errors.Is(out.err, fetch.ErrOutOfScope):
		c.res.Skipped++
		c.outOfScope++
		c.ledger.set(out.job.t.url, FateOutOfScope, out.err.Error(), "")
		c.log.Info("page skipped: out of the blog's scope", "url", out.job.t.url, "err", out.err)
	case errors.Is(out.err, errNotHTML):
		c.res.Skipped++
		c.ledger.set(out.job.t.url, FateSkipped, out.err.Error(), "")
		c.log.Info("page skipped: not an HTML page", "url", out.job.t.url, "err", out.err)
	case out.err != nil:
		c.res.Failed++
		c.ledger.set(out.job.t.url, FateFailed, out.err.Error(), "")
		c.log.Info("page failed", "url", out.job.t.url, "err", out.err)
	case out.unchanged:
		c.res.Skipped++
		c.ledger.set(out.job.t.url, FateSkipped, "unchanged since the last crawl", "")
	}
	c.markFailed(out)
	if out.fetched {
		c.res.Pages++
		c.notePage(out.job)
	}
	if out.queue != "" {
		c.queueCanonical(out.queue)
	}
	if out.stub != "" {
		c.queueStub(out)
	}
	if out.info != nil && out.url != nil {
		if !c.update || out.url.String() == c.home.String() {
			n := c.seedLinks(out.info, out.job.t.depth)
			if !out.post {
				c.knn.train(out.url, float64(n))
			}
		}
	}
	if out.entry == nil || out.unchanged {
		return nil
	}
	return c.emitEntry(out.entry)
}

// isQueryVariant reports whether a page was fetched at a URL with a query
// string while its rel=canonical names another URL: a query view of that
// page (block pagination, sorting, tracking), not a page of its own.
func isQueryVariant(p *fetchedPage) bool {
	return p.url.RawQuery != "" && p.info.canonical != "" && p.ident != p.url.String()
}

// queueCanonical queues the canonical URL of a query variant once, as a
// candidate page (the variant's own links are not followed).
func (c *crawl) queueCanonical(raw string) {
	u, err := url.Parse(raw)
	if err != nil || c.front.has(raw) || c.claimed(raw) || !c.scope.contains(u) || isBinaryURL(u) {
		return
	}
	t := task{url: raw}
	t.kind, t.prio = c.classify(u, true)
	c.ledger.met(raw, "canonical")
	c.front.push(t)
}

// emitEntry passes an entry to emit and counts it.
func (c *crawl) emitEntry(e *blogharvest.Entry) error {
	c.res.Entries++
	c.res.Comments += len(e.Comments)
	c.late.note(e, c.stubsOf(e.URL))
	c.cleanEntry(e)
	if err := c.emit(Record{Entry: e}); err != nil {
		c.ledger.set(e.URL, FateFailed, fmt.Sprintf("not archived: %v", err), "")
		return fmt.Errorf("harvest %s: emit entry %s: %w", c.home, e.URL, err)
	}
	c.ledger.set(e.URL, FateEntry, blogharvest.EntryKey(e.URL, e.Title), "")
	return nil
}

// queueStub queues the target of a redirect stub in the stub's place (a
// post if the stub was one), with the feed item that named the stub.
func (c *crawl) queueStub(out outcome) {
	target := out.stub
	u, err := url.Parse(target)
	if err != nil || !c.scope.contains(u) || isBinaryURL(u) {
		c.ledger.set(target, FateOutOfScope, "target of redirect stub "+out.job.t.url, "stub")
		if it := out.job.item; it != nil {
			c.offsite = append(c.offsite, it) // a feed-only entry, as for an item that leaves the blog
		}
		return
	}
	if it := out.job.item; it != nil {
		c.mu.Lock()
		if _, ok := c.pending[target]; !ok && !c.emitted[target] {
			c.pending[target] = it
		}
		c.mu.Unlock()
	}
	if c.claimed(target) {
		c.rereadForAlias(target, out.job.item)
		return
	}
	t := task{url: target, depth: out.job.t.depth}
	t.kind, t.prio = c.classify(u, true)
	if out.job.t.kind == "post" || out.job.item != nil {
		t.kind, t.prio = "post", max(out.job.t.prio, prioPost)
	}
	c.front.push(t)
}

// fetchPage fetches an HTML page and scans it. Feeds and binaries get
// errNotHTML.
func (c *crawl) fetchPage(ctx context.Context, raw string) (*fetchedPage, error) {
	resp, err := c.client.Get(ctx, raw)
	if err != nil {
		return nil, err
	}
	return c.pageOf(raw, resp)
}

// pageOf turns the response for raw into a page; see fetchPage.
func (c *crawl) pageOf(raw string, resp *fetch.Response) (*fetchedPage, error) {
	if !isHTML(resp) {
		return nil, blogharvest.Permanent(fmt.Errorf("page %s: %w (%s)", raw, errNotHTML, resp.MediaType()))
	}
	p, err := newFetchedPage(resp)
	if err != nil {
		return nil, err
	}
	p.stub = stubTarget(p.html, p.url, p.info.canonical)
	if canon := p.info.canonical; canon != "" && p.stub == "" {
		// a canonical naming the home page on another page is a theme's
		// mistake, not an identity: the home page is no entry
		if u, err := url.Parse(canon); err == nil && c.scope.contains(u) && (c.home == nil || canon != c.home.String() || p.url.String() == canon) {
			p.ident = canon
		}
	}
	return p, nil
}

// isHTML reports whether a response is an HTML page (not a feed or file).
func isHTML(resp *fetch.Response) bool {
	if feed.Sniff(resp.Body) {
		return false
	}
	mt, _, _ := mime.ParseMediaType(resp.MediaType())
	return mt == "text/html" || mt == "application/xhtml+xml" || mt == "" || strings.HasPrefix(mt, "text/plain") && isHTMLBytes(resp.Body)
}

// isHTMLBytes reports whether b starts like an HTML document.
func isHTMLBytes(b []byte) bool {
	s := strings.ToLower(strings.TrimSpace(string(b[:min(len(b), 512)])))
	return strings.HasPrefix(s, "<!doctype html") || strings.HasPrefix(s, "<html")
}

// claim marks a canonical URL as processed; it reports false when it was
// processed already.
func (c *crawl) claim(u string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.emitted[u] {
		return false
	}
	c.emitted[u] = true
	return true
}

// claimed reports whether a canonical URL was processed already.
func (c *crawl) claimed(u string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.emitted[u]
}

// takeItem removes and returns the pending feed item for u, or nil.
func (c *crawl) takeItem(u string) *feed.Item {
	c.mu.Lock()
	defer c.mu.Unlock()
	it := c.pending[u]
	delete(c.pending, u)
	return it
}

// isPending reports whether a feed item waits for u.
func (c *crawl) isPending(u string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.pending[u]
	return ok
}
