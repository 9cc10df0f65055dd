package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/harvest/learn"
)

// heldPost is one post the crawl must discover and extract.
type heldPost struct {
	truth     truth
	page      learn.Page // the post's page, to tell an inferred author (inferredAuthor)
	reachable bool       // linked from a page the crawl can reach (counted in discovery)
	found     bool
	url       string  // the emitted entry's URL
	result    *result // what the crawl emitted for it, scored after the crawl
}

// crawlCase is one blog to crawl: the options and the held-out posts.
type crawlCase struct {
	name string
	opts harvest.Options
	held map[string]*heldPost // by key
	key  func(url string) string
	// archive maps every post of the capture (by key) to whether it is
	// reachable by links; archived records which ones the crawl emitted.
	archive  map[string]bool
	archived map[string]bool
	emitted  int                              // entries emitted
	logf     func(format string, args ...any) // progress and misses, with -v
	extra    []string                         // entries of kind post that are no post of the capture
	posts    int                              // blog.json's posts count (corpus blogs)
}

// crawlStats are one crawl's measurements.
type crawlStats struct {
	wall      time.Duration
	pages     int
	entries   int
	extract   time.Duration
	learn     time.Duration
	peakKB    int64
	warnings  int
	discovery discoveryJSON
	archive   archiveJSON
}

// run crawls the blog and scores the held-out posts it emits.
func (cc *crawlCase) run(ctx context.Context) *blogRun {
	br := newBlogRun(cc.name, []string{systemOurs})
	sc := br.scores[systemOurs]
	resetPeakRSS()
	start := time.Now()
	res, err := harvest.NewCrawl(ctx, cc.opts, func(rec harvest.Record) error {
		if rec.Entry != nil {
			cc.emit(sc, rec.Entry)
		}
		return nil
	})
	st := &crawlStats{wall: time.Since(start), peakKB: peakRSS()}
	if err != nil {
		sc.errors++
		br.skip = fmt.Sprintf("crawl failed: %v", err)
	}
	var rules *learn.Rules
	if res != nil {
		st.pages, st.entries, st.warnings = res.Pages, res.Entries, len(res.Warnings)
		st.extract, st.learn = res.Timings.Extract, res.Timings.Learn
		rules = decodeRules(res.Rules)
		if len(res.Renders) > 0 || len(res.NotRendered) > 0 {
			cc.logf("renders %s: %v, not rendered: %v", cc.name, res.Renders, res.NotRendered)
		}
	}
	cc.scoreFound(sc, rules)
	st.discovery = cc.discovery()
	st.archive = cc.archiveDiscovery()
	br.crawl = st
	return br
}

// emit scores an emitted entry when it is a held-out post.
func (cc *crawlCase) emit(sc *score, e *blogharvest.Entry) {
	cc.emitted++
	known := false
	for _, u := range append([]string{e.URL}, e.Aliases...) {
		if _, ok := cc.archive[cc.key(u)]; ok {
			cc.archived[cc.key(u)] = true
			known = true
		}
	}
	if !known && e.Kind == blogharvest.KindPost {
		cc.extra = append(cc.extra, e.URL)
	}
	for _, u := range append([]string{e.URL}, e.Aliases...) {
		h := cc.held[cc.key(u)]
		if h != nil && !h.found {
			r := entryResult(e)
			h.found, h.url, h.result = true, e.URL, &r
			return
		}
	}
}

// scoreFound scores the held-out posts the crawl emitted, once the crawl's
// rules are known (an author equal to their SoleAuthor may be inferred).
func (cc *crawlCase) scoreFound(sc *score, rules *learn.Rules) {
	for _, k := range slices.Sorted(maps.Keys(cc.held)) {
		h := cc.held[k]
		if h.result == nil {
			continue
		}
		r := *h.result
		r.AuthorInferred = inferredAuthor(rules, h.page, r.Author, r.Methods[learn.FieldAuthor])
		for _, m := range sc.add(r, h.truth) {
			cc.logf("  miss %s %s: %s", m, h.url, missDetail(m, r, h.truth))
		}
	}
}

// decodeRules decodes the crawl's learned rules (harvest.Result.Rules);
// nil when there are none.
func decodeRules(raw []byte) *learn.Rules {
	if len(raw) == 0 {
		return nil
	}
	var r learn.Rules
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil
	}
	return &r
}

// discovery counts the held-out posts found, all of them and the
// reachable ones.
func (cc *crawlCase) discovery() discoveryJSON {
	var d discoveryJSON
	for _, h := range cc.held {
		d.HeldOut++
		if h.found {
			d.FoundAll++
		}
		switch {
		case h.reachable:
			d.N++
			if h.found {
				d.Found++
			}
		default:
			d.Unreachable++
			if h.found {
				d.FoundUnreachable++
			}
		}
	}
	d.setRecall()
	return d
}

// archiveDiscovery counts the capture's posts the crawl emitted.
func (cc *crawlCase) archiveDiscovery() archiveJSON {
	a := archiveJSON{Posts: cc.posts, Matched: len(cc.archive), Emitted: cc.emitted, ExtraPosts: len(cc.extra)}
	if len(cc.extra) > 0 {
		a.ExtraExamples = cc.extra[:min(3, len(cc.extra))]
	}
	for k, reach := range cc.archive {
		if cc.archived[k] {
			a.FoundAll++
		}
		if reach {
			a.N++
			if cc.archived[k] {
				a.Found++
			}
		}
	}
	a.setRecall()
	return a
}

// entryResult converts a harvested entry for scoring.
func entryResult(e *blogharvest.Entry) result {
	r := result{Title: e.Title, Author: e.Author, Date: e.Created, Text: textOf(e.Content), HasComments: true,
		InfersAuthor: true, Methods: map[string]string{}}
	for _, c := range e.Comments {
		r.Comments = append(r.Comments, textOf(c.Content))
		r.CommentFrom = append(r.CommentFrom, string(c.Provenance["full_content"]))
	}
	for f, m := range e.Provenance {
		r.Methods[f] = string(m)
	}
	return r
}

// crawlOptions are the options every evaluation crawl uses: no rendering
// unless -render asks for it, no media (the corpus has none), no
// politeness delay.
func crawlOptions(cfg *config, blog blogharvest.Blog, logger *slog.Logger) harvest.Options {
	return harvest.Options{Blog: blog, Render: cmp.Or(cfg.render, harvest.RenderNever), MaxMediaBytes: -1, MaxMediaPerEntry: -1,
		Logger: logger}
}

// crawlLogger returns the crawler's logger: warnings to stderr with -v,
// else nothing.
func crawlLogger(cfg *config, stderr io.Writer, blog string) *slog.Logger {
	if !cfg.verbose {
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn})).With("blog", blog)
}

// fill adds the crawl's measurements to blogharvest's scores.
func (st *crawlStats) fill(s systemJSON) systemJSON {
	d := st.discovery
	wall, pages, peak, warn := round(ms(st.wall)), st.pages, st.peakKB, st.warnings
	a := st.archive
	s.Discovery, s.CrawlWallMS, s.PagesFetched, s.PeakRSSKB, s.Warnings = &d, &wall, &pages, &peak, &warn
	s.Archive = &a
	s.MSPerPost, s.LearnMS, s.LearnMSPerPage = 0, nil, nil
	if st.entries > 0 {
		s.MSPerPost = round(ms(st.extract) / float64(st.entries))
	}
	l := round(ms(st.learn))
	s.LearnMS = &l
	return s
}

// crawlTotals sums the blogs' crawl measurements (peak RSS: the maximum).
func crawlTotals(blogs []*blogRun, s systemJSON) systemJSON {
	sum := &crawlStats{}
	for _, b := range blogs {
		st := b.crawl
		if st == nil {
			continue
		}
		sum.wall += st.wall
		sum.pages += st.pages
		sum.entries += st.entries
		sum.extract += st.extract
		sum.learn += st.learn
		sum.warnings += st.warnings
		sum.peakKB = max(sum.peakKB, st.peakKB)
		sum.discovery.add(st.discovery)
		sum.archive.add(st.archive)
	}
	sum.discovery.setRecall()
	sum.archive.setRecall()
	return sum.fill(s)
}

// add sums o's counts into d.
func (d *discoveryJSON) add(o discoveryJSON) {
	d.HeldOut, d.FoundAll = d.HeldOut+o.HeldOut, d.FoundAll+o.FoundAll
	d.N, d.Found = d.N+o.N, d.Found+o.Found
	d.Unreachable += o.Unreachable
	d.FoundUnreachable += o.FoundUnreachable
}

// setRecall computes the recalls from the counts.
func (d *discoveryJSON) setRecall() {
	d.RecallAll, d.Recall = ratio(d.FoundAll, d.HeldOut), ratio(d.Found, d.N)
}

// add sums o's counts into a.
func (a *archiveJSON) add(o archiveJSON) {
	a.Matched, a.FoundAll, a.Posts = a.Matched+o.Matched, a.FoundAll+o.FoundAll, a.Posts+o.Posts
	a.N, a.Found = a.N+o.N, a.Found+o.Found
	a.Emitted, a.ExtraPosts = a.Emitted+o.Emitted, a.ExtraPosts+o.ExtraPosts
}

// setRecall computes the recalls from the counts.
func (a *archiveJSON) setRecall() {
	a.RecallAll, a.Recall = ratio(a.FoundAll, a.Matched), ratio(a.Found, a.N)
}

// ratio is ok/n rounded, 0 when n is 0.
func ratio(ok, n int) float64 {
	if n == 0 {
		return 0
	}
	return round(float64(ok) / float64(n))
}
