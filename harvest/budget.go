package harvest

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// ErrOverBudget is the cause of a crawl's context when Options.MaxDuration
// ran out; a crawl that ran out before it emitted the Blog record returns
// an error wrapping it.
var ErrOverBudget = errors.New("crawl over its time budget (max_duration)")

// withBudget returns ctx bounded by Options.MaxDuration, cancelled with
// cause ErrOverBudget when the budget runs out, and remembers it.
func (c *crawl) withBudget(ctx context.Context) (context.Context, context.CancelFunc) {
	if c.o.MaxDuration < 0 {
		c.budget = ctx
		return ctx, func() {}
	}
	bctx, cancel := context.WithTimeoutCause(ctx, c.o.MaxDuration, ErrOverBudget)
	c.budget = bctx
	return bctx, cancel
}

// spent reports whether the crawl's budget ran out.
func (c *crawl) spent() bool {
	return c.budget != nil && errors.Is(context.Cause(c.budget), ErrOverBudget)
}

// endBudget turns the crawl's error after the budget ran out into the
// crawl's result: partial (no error) once the Blog record was emitted, a
// transient ErrOverBudget before.
func (c *crawl) endBudget(err error) error {
	if !c.spent() {
		return err
	}
	c.res.OverBudget = true
	if !c.blogDone {
		e := fmt.Errorf("harvest %s: %w (%s) before the blog record was archived", c.o.Blog.URL, ErrOverBudget, c.o.MaxDuration)
		if err != nil && !errors.Is(err, ErrOverBudget) {
			e = fmt.Errorf("%w: %v", e, err)
		}
		return blogharvest.Transient(e)
	}
	if err == nil || errors.Is(err, ErrOverBudget) || errors.Is(err, context.DeadlineExceeded) {
		return nil
	}
	return err // an archive error: it stays one
}

// dropOverBudget counts an outcome that came in after the budget ran out:
// its processing may have been cut short, so it is skipped, not emitted,
// and its URL is over budget in the ledger (unless it has a fate already).
func (c *crawl) dropOverBudget(out outcome) {
	c.overBudget++
	c.res.Skipped++
	detail := fmt.Sprintf("max_duration %s reached while it was processed", c.o.MaxDuration)
	if out.job != nil {
		c.ledger.set(out.job.t.url, FateOverBudget, detail, "")
	}
	if out.url != nil {
		c.ledger.set(out.url.String(), FateOverBudget, detail, "")
	}
	if out.fetched {
		c.res.Pages++
	}
}

// warnOverBudget says, once, how much the budget left undone.
func (c *crawl) warnOverBudget() {
	if !c.spent() {
		return
	}
	c.stats.warnf("max_duration %s reached: crawl stopped, %d URLs skipped over budget (%d being processed, %d queued)",
		c.o.MaxDuration, c.overBudget+c.front.len(), c.overBudget, c.front.len())
}

// warnCappedDelays warns once per host whose robots.txt asked for a
// Crawl-delay above the cap, naming the delay it asked for.
func (c *crawl) warnCappedDelays() {
	if c.client == nil {
		return
	}
	capped := c.client.Stats().CappedDelays
	origins := make([]string, 0, len(capped))
	for o := range capped {
		origins = append(origins, o)
	}
	sort.Strings(origins)
	for _, o := range origins {
		c.stats.warnf("robots.txt of %s asks for a Crawl-delay of %s; crawled at the cap of %s (max_crawl_delay)",
			o, capped[o], c.maxCrawlDelay())
	}
}

// maxCrawlDelay is the cap the client applies to Crawl-delay.
func (c *crawl) maxCrawlDelay() time.Duration {
	if c.o.MaxCrawlDelay == 0 {
		return fetch.DefaultMaxCrawlDelay
	}
	return c.o.MaxCrawlDelay
}

// checkCrawlDelay fails the crawl, permanently, when Crawl-delay is obeyed
// strictly and the blog's own robots.txt asks for more than the cap.
func (c *crawl) checkCrawlDelay(ctx context.Context) error {
	if !c.o.StrictCrawlDelay {
		return nil
	}
	for _, raw := range []string{c.o.Blog.URL, c.o.Blog.FeedURL} {
		if raw == "" {
			continue
		}
		err := c.client.Allowed(ctx, raw)
		var ce *fetch.CrawlDelayError
		if errors.As(err, &ce) {
			return fmt.Errorf("harvest %s: blog skipped: %w", c.o.Blog.URL, err)
		}
	}
	return nil
}
