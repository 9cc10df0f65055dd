package harvest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// drain processes the frontier with a pool of workers until it is empty or
// MaxPages pages were fetched. The coordinator (this goroutine) alone
// touches the frontier, the kNN model and emit.
func (c *crawl) drain(ctx context.Context) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	workers := c.o.PerHost
	jobs, outs := make(chan *pageJob), make(chan outcome)
	var wg sync.WaitGroup
	w := c.w // the workers get the page worker's state, not the coordinator's
	for range workers {
		wg.Go(func() {
			for j := range jobs {
				outs <- w.process(ctx, j)
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
		c.stats.warnf("%d URLs disallowed by robots.txt were skipped", c.disallowed)
	}
	if c.outOfScope > 0 {
		c.stats.warnf("%d pages outside the blog's origins, or redirected out of them, were skipped (allow adds an origin)", c.outOfScope)
	}
	c.logNotHTML()
	c.warnOverBudget()
	if err == nil && c.front.len() > 0 && !c.spent() {
		c.stats.warnf("max_pages %d reached: %d queued URLs not fetched", c.o.MaxPages, c.front.len())
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
			if c.claims.claimed(t.url) && !t.again {
				c.ledger.set(t.url, FateDuplicate, "processed before under this URL or another", "")
				continue // a training page, or reached under another URL
			}
			c.pages++
			c.step("page " + t.url)
			jobs <- &pageJob{t: t, fromFeed: c.claims.isPending(t.url)}
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
		c.noteNotHTML(out.err)
		c.log.Debug("page skipped: not an HTML page", "url", out.job.t.url, "err", out.err)
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
		if out.job != nil {
			c.threads.Note(out.job.t.url, out.job.threads, out.job.threadCands)
		}
	}
	if out.queue != "" {
		c.queueCanonical(out.queue)
	}
	if out.stub != "" {
		c.queueStub(out)
	}
	if out.info != nil && out.url != nil {
		if !c.disc.cfg.homeLinksOnly || out.url.String() == c.site.home.String() {
			n := c.seedLinks(out.url.String(), out.info, out.job.t.depth)
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

// queueCanonical queues the canonical URL of a query variant once, as a
// candidate page (the variant's own links are not followed).
func (c *crawl) queueCanonical(raw string) {
	u, err := url.Parse(raw)
	if err != nil || c.front.has(raw) || c.claims.claimed(raw) || !c.site.scope.contains(u) || isBinaryURL(u) {
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
	c.late.note(e, c.claims.stubsOf(e.URL))
	if twin := c.site.scope.twin(e.URL); twin != "" && c.ledger.known(twin) && !contains(e.Aliases, twin) {
		e.Aliases = append(e.Aliases, twin) // met under the other scheme too (crawl.noteFolded)
	}
	under := ""
	if mv := c.move.stage.Identify(e); mv.From != "" { // the post moved: its archived URL an alias (moves.go)
		under = mv.From
		if !contains(e.Aliases, mv.From) {
			e.Aliases = append(e.Aliases, mv.From)
		}
		if mv.How != "" {
			c.res.Moved++
			c.ledger.force(mv.From, FateRedirect, e.URL+" (the post moved: matched by "+mv.How+")", "archived")
		}
	}
	c.w.cleanEntry(e)
	if err := c.emit(Record{Entry: e}); err != nil {
		c.ledger.set(e.URL, FateFailed, fmt.Sprintf("not archived: %v", err), "")
		return fmt.Errorf("harvest %s: emit entry %s: %w", c.site.home, e.URL, err)
	}
	if under == "" {
		under = e.URL
	}
	c.ledger.set(e.URL, FateEntry, blogharvest.EntryKey(under, e.Title), "")
	return nil
}

// queueStub queues the target of a redirect stub in the stub's place (a
// post if the stub was one), with the feed item that named the stub.
func (c *crawl) queueStub(out outcome) {
	target := out.stub
	u, err := url.Parse(target)
	if err != nil || !c.site.scope.contains(u) || isBinaryURL(u) {
		c.ledger.set(target, FateOutOfScope, "target of redirect stub "+out.job.t.url, "stub")
		if it := out.job.item; it != nil {
			c.offsite = append(c.offsite, it) // a feed-only entry, as for an item that leaves the blog
		}
		return
	}
	if it := out.job.item; it != nil {
		c.claims.await(target, it, true)
	}
	if c.claims.claimed(target) {
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

// noteNotHTML counts a page skipped as not HTML by the media type served:
// a blog's comment feeds are met by the dozen, one log line each drowned
// the log (issue 37), so they are logged at debug level and summed up
// once by logNotHTML. Every one stays in the ledger (skipped).
func (c *crawl) noteNotHTML(err error) {
	var nh *notHTMLError
	mt := "unknown"
	if errors.As(err, &nh) && nh.MediaType != "" {
		mt = nh.MediaType
	}
	if c.notHTML == nil {
		c.notHTML = map[string]int{}
	}
	c.notHTML[mt]++
}

// logNotHTML logs, once at the end of the drain, how many pages were
// skipped as not HTML, by media type ("application/rss+xml 76"): a post
// served as text/plain, which is a real problem, shows there by its type.
func (c *crawl) logNotHTML() {
	if len(c.notHTML) == 0 {
		return
	}
	total := 0
	types := make([]string, 0, len(c.notHTML))
	for mt, n := range c.notHTML {
		total += n
		types = append(types, mt)
	}
	slices.SortFunc(types, func(a, b string) int {
		return cmp.Or(c.notHTML[b]-c.notHTML[a], strings.Compare(a, b))
	})
	for i, mt := range types {
		types[i] = fmt.Sprintf("%s %d", mt, c.notHTML[mt])
	}
	c.log.Info("pages skipped: not HTML (the ledger lists each as skipped)", "pages", total, "media_types", strings.Join(types, ", "))
}
