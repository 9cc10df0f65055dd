package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/textsim"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// runCrawl evaluates crawl mode on the fixtures and the corpus.
func runCrawl(ctx context.Context, cfg *config, ev *evaluation, stderr io.Writer) error {
	ev.systems = []string{systemOurs}
	logf := progress(cfg, stderr)
	if cfg.fixtures {
		for _, name := range fixtureNames(cfg.blogs) {
			br, err := crawlFixture(ctx, cfg, name, stderr)
			if err != nil {
				return err
			}
			logf("crawl %s: %+v", br.name, br.crawl.discovery)
			ev.blogs = append(ev.blogs, br)
		}
	}
	if cfg.corpus == "" {
		return nil
	}
	blogs, err := loadCorpus(cfg.corpus, cfg.blogs)
	if err != nil {
		return err
	}
	for _, b := range blogs {
		if err := ctx.Err(); err != nil {
			return err
		}
		br, err := crawlCorpusBlog(ctx, cfg, b, stderr)
		if err != nil {
			return err
		}
		if br.crawl != nil {
			logf("crawl %s: %+v in %s", br.name, br.crawl.discovery, br.crawl.wall)
		}
		ev.blogs = append(ev.blogs, br)
	}
	return nil
}

// crawlCorpusBlog replays one corpus blog with its feed cut to the newer
// half and crawls it.
func crawlCorpusBlog(ctx context.Context, cfg *config, b *corpusBlog, stderr io.Writer) (*blogRun, error) {
	if b.FeedKind != "" {
		br := newBlogRun(b.Name, []string{systemOurs})
		br.skip = "feed is a " + b.FeedKind + " feed, not a posts feed"
		return br, nil
	}
	r, err := newReplay(b)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	cc := &crawlCase{name: b.Name, held: map[string]*heldPost{}, key: b.fileFor, logf: progress(cfg, stderr)}
	seeds := []string{b.URL}
	for _, it := range r.kept {
		seeds = append(seeds, it.Link)
	}
	reach := reachable(b, seeds)
	cc.archive, cc.archived, cc.posts = map[string]bool{}, map[string]bool{}, b.Posts
	for f := range archivePosts(b, append(append([]feed.Item(nil), r.kept...), r.heldOut...)) {
		cc.archive[f] = reach[f]
	}
	for _, it := range r.heldOut {
		if s, ok := b.sample(it); ok {
			f := b.fileFor(it.Link)
			cc.held[f] = &heldPost{truth: truthOf(s), page: s.Page, reachable: reach[f]}
		}
	}
	blog := blogharvest.Blog{ID: blogID(b.Name), URL: b.URL, FeedURL: b.Feed}
	cc.opts = crawlOptions(cfg, blog, crawlLogger(cfg, stderr, b.Name))
	cc.opts.Transport = newLoopback(r.srv)
	br := cc.run(ctx)
	if br.crawl.discovery.N+br.crawl.discovery.Unreachable == 0 && br.skip == "" {
		br.skip = "no held-out post with a page"
	}
	return br, nil
}

// crawlFixture serves a fixture blog with its feed's first page only and
// crawls it; the posts beyond the feed are held out.
func crawlFixture(ctx context.Context, cfg *config, name string, stderr io.Writer) (*blogRun, error) {
	site, err := fixture.New(name)
	if err != nil {
		return nil, fmt.Errorf("fixture %s: %w", name, err)
	}
	feedPath := site.Truth(fixture.DefaultBaseURL).Blog.FeedURL[len(fixture.DefaultBaseURL):]
	srv := httptest.NewServer(noPaging(site.Handler(), feedPath))
	defer srv.Close()
	tr := site.Truth(srv.URL)
	cc := &crawlCase{name: fixturePrefix + name, held: map[string]*heldPost{}, key: canonicalKey, logf: progress(cfg, stderr),
		archive: map[string]bool{}, archived: map[string]bool{}}
	for _, p := range tr.Posts {
		if p.Kind != "post" {
			continue
		}
		cc.archive[canonicalKey(p.URL)] = true
		cc.posts++
		if !p.InFeed {
			s, err := fixtureCrawlSample(srv.Client(), tr.Blog, p)
			if err != nil {
				return nil, fmt.Errorf("fixture %s: %w", name, err)
			}
			cc.held[canonicalKey(p.URL)] = &heldPost{truth: truthOf(s), page: s.Page, reachable: true}
		}
	}
	blog := blogharvest.Blog{ID: blogID(name), URL: srv.URL + "/", FeedURL: tr.Blog.FeedURL}
	cc.opts = crawlOptions(cfg, blog, crawlLogger(cfg, stderr, name))
	br := cc.run(ctx)
	br.fixture = true
	return br, nil
}

// fixtureCrawlSample is a fixture post's page and truth for crawl mode,
// from its page as served: every comment counts where comments are in the
// HTML (the crawler follows comment pages and comment feeds).
func fixtureCrawlSample(c *http.Client, b fixture.BlogTruth, p fixture.PostTruth) (sample, error) {
	s, err := fixtureSample(c, b, p)
	if err != nil {
		return sample{}, err
	}
	if s.CommentTruth {
		s.Target.Comments = fixtureTarget(p).Comments
	}
	return s, nil
}

// noPaging answers 404 to feed requests with a query string (WordPress
// ?paged=N, Blogger start-index), so only the feed's first page is seen.
func noPaging(h http.Handler, feedPath string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == feedPath && r.URL.RawQuery != "" {
			http.NotFound(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// canonicalKey identifies a fixture post by its canonical URL.
func canonicalKey(u string) string {
	c, err := harvest.Canonical(u)
	if err != nil {
		return u
	}
	return c
}

// blogID makes a valid blog id of a corpus or fixture name.
func blogID(name string) string {
	return strings.ToLower(strings.NewReplacer("/", "-", "_", "-", ".", "-").Replace(name))
}

// textOf is the visible text of an HTML fragment.
func textOf(s string) string { return textsim.HTMLText(s) }
