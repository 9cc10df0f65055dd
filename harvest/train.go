package harvest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/blogharvest/blogharvest/harvest/learn"
)

// Training set sizes: the feed items whose pages teach the rules.
const (
	maxTrainNew    = 15 // NewCrawl
	maxTrainUpdate = 5  // UpdateCrawl, which fetches fewer pages
)

// learnRules fetches the pages of the newest feed items, learns the rules
// from them and returns the fetched jobs, to be emitted as entries.
func (c *crawl) learnRules(ctx context.Context) ([]*pageJob, error) {
	var jobs []*pageJob
	if c.reuseRules() {
		j, why := c.rulesStillFit(ctx) // refit.go
		if why == "" {
			if j != nil {
				return []*pageJob{j}, nil
			}
			return nil, nil
		}
		c.stats.warnf("the rules of the last crawl no longer fit the blog's pages (%s, on %s): learned again before archiving", why, j.t.url)
		c.learned.rules, c.res.Rules, c.learned.file = nil, nil, nil
		jobs = append(jobs, j)
	}
	jobs = append(jobs, c.trainingJobs(min(c.pol.trainPages, c.o.MaxPages-c.pages)-len(jobs))...)
	var pairs []learn.Pair
	for i, j := range jobs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c.step(fmt.Sprintf("training page %d/%d", i+1, len(jobs)))
		if j.page == nil && j.err == nil {
			c.prefetch(ctx, j)
		}
		if j.page != nil && j.page.stub == "" { // a redirect stub teaches nothing
			pairs = append(pairs, c.pair(j))
		}
	}
	t0 := time.Now()
	rules, err := learn.Learn(pairs, learn.Options{})
	c.res.Timings.Learn = time.Since(t0)
	switch {
	case errors.Is(err, learn.ErrNoPairs):
		c.stats.warnf("no feed item page could be fetched: extraction uses fallbacks only")
	case err != nil:
		c.stats.warnf("learn rules: %v: extraction uses fallbacks only", err)
	default:
		for _, sk := range rules.Skipped {
			c.stats.warnf("learn rules: training page %s skipped: %s", sk.URL, sk.Reason)
		}
		c.learned.rules = rules
		if b, err := json.Marshal(rules); err == nil {
			c.res.Rules = b
			c.learned.file = rulesFile(b, c.start)
		}
	}
	c.learnSigns(jobs)
	return jobs, nil
}

// fetchedPages counts the training jobs whose page was fetched.
func fetchedPages(jobs []*pageJob) int {
	n := 0
	for _, j := range jobs {
		if j.page != nil {
			n++
		}
	}
	return n
}

// trainingJobs takes up to n feed items, newest first, out of the frontier.
func (c *crawl) trainingJobs(n int) []*pageJob {
	var jobs []*pageJob
	for _, u := range c.disc.feedURLs {
		if len(jobs) >= n {
			break
		}
		it := c.claims.take(u.String())
		if it == nil {
			continue // taken already (rulesStillFit's job), or no item waits for it
		}
		jobs = append(jobs, &pageJob{t: task{url: u.String(), kind: "post"}, item: it, fromFeed: true})
	}
	return jobs
}

// prefetch fetches a training job's comments and page; failures leave
// j.page nil and are kept in j.err for the entry.
func (c *crawl) prefetch(ctx context.Context, j *pageJob) {
	c.w.comments.FetchComments(ctx, j.post())
	c.pages++
	j.page, j.err = c.w.fetchPage(ctx, j.t.url)
}

// pair turns a prefetched job into a training pair.
func (c *crawl) pair(j *pageJob) learn.Pair {
	it := j.item
	content := it.Content
	if content == "" {
		content = it.Summary
	}
	t := learn.Target{Title: it.Title, Author: it.Author, Date: it.Published, DateOffset: it.Offset,
		Content: content, FullText: c.site.full && c.site.texts.full(it)}
	for _, cm := range j.cm.Comments {
		t.Comments = append(t.Comments, learn.CommentTarget{ID: cm.ID, Author: cm.Author, Date: cm.Published,
			Content: cm.Content, ParentID: cm.InReplyTo})
	}
	return learn.Pair{Page: c.w.read.learnPage(j.page), Target: t}
}

// parkBytes is the size of HTML over which a training page's tree is let
// go once the rules are learned and parsed again for its entry (park): a
// parsed page takes some twenty times its bytes (thaumatorium's 567 KB
// table page about 10 MB), and every training page waits for the entries
// of those before it. Smaller pages keep theirs: parsing and extracting a
// page again costs CPU (at 128 KB, bft-huffingtonpost, whose pages are all
// 175-394 KB, paid about a tenth more CPU per request; doc/benchmarks.md),
// and 5 of the 2 211 HTML files of ../shared/corpus are over 512 KB.
const parkBytes = 512 << 10

// emitTraining builds and emits the entries of the training jobs. The
// trees of the large pages are let go first (parkBytes), with the
// extraction learnSigns kept for them, which points into the tree.
func (c *crawl) emitTraining(ctx context.Context, jobs []*pageJob) error {
	for _, j := range jobs[min(1, len(jobs)):] { // the first is built at once
		if j.page != nil && len(j.page.html) > parkBytes {
			j.page.park()
			j.learned = nil
		}
	}
	for i, j := range jobs {
		out := c.w.finish(ctx, j)
		if err := c.handle(out); err != nil {
			return err
		}
		// Handled: nothing reads the job again, and its page (the parsed
		// tree above all) need not wait for the other training pages.
		jobs[i] = nil
	}
	return nil
}
