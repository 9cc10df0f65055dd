package harvest

import (
	"context"
	"log/slog"
	"net/url"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/platform"
)

// commentStage is a crawl's comment stage: for one post it asks the
// comment sources (the item's comment feed, the post's own comment feed,
// the platform's comments REST endpoint, the further comment pages:
// comments.go, stated.go; the rest of a rendered thread from its comment
// API: threadmore.go), takes an update's comments from the blog-wide
// comment feed and the archive (archivedcomments.go), compares what it
// holds with the count the blog states and notes a shortfall (stated.go,
// threadmore.go), and tells which posts' watched comment threads changed
// (threads.go: threadWatcher, which the coordinator polls and feeds).
// Merging the sources into the entry's comments is fillComments
// (comments.go), which needs nothing of the crawl.
//
// It is built once, by the coordinator, when the site is set up and
// before any page is processed (crawl.newCommentStage); read-only after
// that, it is shared by the page workers, which hold it as a named field
// (pageWorker.comments) and call it. Everything it reads is a field of
// its own: its configuration (commentConfig, not the crawl's policy or
// Options), the fetcher, the blog's feed and home page, what the
// blog-wide comment feed showed (siteCommentState) and the watched
// threads that changed; what it reaches of the rest of the crawl are the
// functions it is given (archived, readPage, shortfall).
type commentStage struct {
	cfg   commentConfig
	fetch commentFetcher
	// api asks a rendered thread's comment API for the rest of the
	// thread (threadmore.go); mayLoad is the browser's scope decision
	// (browserMayLoad), which those requests are held to as well.
	api     threadFetcher
	mayLoad func(string) bool
	log     *slog.Logger
	// feed is the blog's posts feed (its platform and URL name the
	// per-post comment feeds); home the blog's canonical home page (the
	// comments REST endpoint's site).
	feed *feed.Feed
	home *url.URL
	// site is what UpdateCrawl's blog-wide comment feed showed; empty for
	// NewCrawl.
	site siteCommentState
	// threads is the watch of comment thread APIs (threads.go), polled
	// by the coordinator: which posts' threads changed (UpdateCrawl).
	threads *threadWatcher
	// archived returns the files the archive holds for an entry's
	// latest version (Options.Archived); nil when there is no archive.
	archived func(*blogharvest.Entry) []blogharvest.File
	// readPage fetches a further comment page and extracts it with the
	// crawl's rules (the page-reading stage's work, given to this one).
	readPage func(ctx context.Context, u string) (*fetchedPage, learn.Extraction, error)
	// shortfall records a post whose archived comments fall short of
	// what the blog states in the crawl ledger's comments column.
	shortfall func(url, note string)
}

// commentConfig is what the comment stage reads of the crawl's policy and
// options, fixed when the crawl starts.
type commentConfig struct {
	// changedOnly is UpdateCrawl's: a post whose item counts no comment
	// and that the blog-wide comment feed does not show commented has no
	// comment feed asked for; the blog-wide feed's comments stand for
	// the post's own feed where they can (policy.changedOnly).
	changedOnly bool
	// limits bound one post's comment sources (Options.MaxComments,
	// MaxCommentsPerAnswer, MaxCommentAnswerBytes, MaxCommentBytes).
	limits feed.CommentLimits
	// renderNever says no page is rendered (Options.Render is
	// RenderNever), for the shortfall's note.
	renderNever bool
}

// siteCommentState is what the blog-wide comment feed showed UpdateCrawl
// (update.go: siteCommentPosts), set up by the coordinator before the
// page workers start.
type siteCommentState struct {
	commented []*url.URL                // posts with comments since the watermark
	byPost    map[string][]feed.Comment // the feed's comments, by post
	files     []blogharvest.File        // the feed's pages as captured
	parsed    [][]feed.Comment          // the comments of each of files (none for a page that does not parse)
}

// commentFetcher is what the comment stage asks the web through: a
// post's comment feed (feed.FetchComments) and a platform's comments REST
// endpoint (feed.FetchCommentsAPI).
type commentFetcher interface {
	comments(ctx context.Context, f *feed.Feed, it feed.Item, lim feed.CommentLimits) ([]feed.Comment, *blogharvest.File, feed.Cut, error)
	commentsAPI(ctx context.Context, p platform.Platform, site, postID string, lim feed.CommentLimits) ([]feed.Comment, []blogharvest.File, feed.Cut, error)
}

// clientComments is the commentFetcher of a crawl's fetch client.
type clientComments struct{ c *fetch.Client }

func (f clientComments) comments(ctx context.Context, fd *feed.Feed, it feed.Item, lim feed.CommentLimits) ([]feed.Comment, *blogharvest.File, feed.Cut, error) {
	return feed.FetchComments(ctx, f.c, fd, it, lim)
}

func (f clientComments) commentsAPI(ctx context.Context, p platform.Platform, site, postID string, lim feed.CommentLimits) ([]feed.Comment, []blogharvest.File, feed.Cut, error) {
	return feed.FetchCommentsAPI(ctx, f.c, p, site, postID, lim)
}

// commentLimitsOf returns the bounds of one post's comment sources in o
// (Options.MaxComments, MaxCommentsPerAnswer, MaxCommentAnswerBytes,
// MaxCommentBytes).
func commentLimitsOf(o Options) feed.CommentLimits {
	return feed.CommentLimits{MaxComments: o.MaxComments, PerAnswer: o.MaxCommentsPerAnswer,
		AnswerBytes: o.MaxCommentAnswerBytes, MaxBytes: o.MaxCommentBytes}
}

// newCommentStage builds the crawl's comment stage from the site as set
// up (its feed and home page), the blog-wide comment feed and the
// watched threads, once the coordinator is done with them: the page
// workers call it from then on.
func (c *crawl) newCommentStage() *commentStage {
	w := c.w
	return &commentStage{
		cfg: commentConfig{changedOnly: c.pol.changedOnly, limits: commentLimitsOf(c.o),
			renderNever: c.o.Render == RenderNever},
		fetch: clientComments{c.client}, api: c.client, mayLoad: w.browserMayLoad, log: c.log,
		feed: c.site.feed, home: c.site.home, site: c.siteFeed, threads: c.threads,
		archived: c.o.Archived,
		readPage: func(ctx context.Context, u string) (*fetchedPage, learn.Extraction, error) {
			p, err := w.fetchPage(ctx, u)
			if err != nil {
				return nil, learn.Extraction{}, err
			}
			ex, _ := w.extract(w.learnPage(p))
			return p, ex, nil
		},
		shortfall: c.ledger.shortfall,
	}
}

// commented reports whether the blog-wide comment feed showed the post at
// raw commented since the watermark (UpdateCrawl); false before the stage
// is built.
func (s *commentStage) commented(raw string) bool {
	if s == nil {
		return false
	}
	return s.site.isCommented(raw)
}

// isCommented reports whether the blog-wide comment feed showed the post
// at raw commented since the watermark.
func (f siteCommentState) isCommented(raw string) bool {
	for _, p := range f.commented {
		if p.String() == raw {
			return true
		}
	}
	return false
}

// threadChanged reports whether the comment thread API of the post at raw
// answered differently than at the crawl before; false before the stage
// is built.
func (s *commentStage) threadChanged(raw string) bool {
	return s != nil && s.threads.changed(raw)
}
