package harvest

import (
	"context"
	"iter"
	"net/url"

	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/comments"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/platform"
)

// This file builds the crawl's comment stage (harvest/comments) and
// gives it what it asks of the crawl, each behind the stage's own small
// interface: the fetch client (commentClient), the page worker's reading
// of a page and the browser's scope (commentPages), a comment's post
// (commentPosts), the archive (archivedFiles), the ledger and the thread
// watch.

// newCommentStage builds the crawl's comment stage from the site as set
// up (its feed and home page), the blog-wide comment feed and the
// watched threads, once the coordinator is done with them: the page
// workers call it from then on. The stage never reads pol or Options:
// what it needs of them is its comments.Config.
func (c *crawl) newCommentStage() *comments.Stage {
	d := comments.Deps{Fetch: commentClient{c.client}, API: c.client, Scope: commentPages{c.w},
		Pages: commentPages{c.w}, Posts: commentPosts{}, Ledger: commentLedger{c.ledger},
		Threads: c.threads, Log: c.log}
	if c.o.Archived != nil {
		d.Archive = archivedFiles(c.o.Archived)
	}
	return comments.New(
		comments.Config{ChangedOnly: c.pol.changedOnly, Limits: commentLimitsOf(c.o), RenderNever: c.o.Render == RenderNever},
		comments.Blog{Feed: c.site.feed, Home: c.site.home, Site: c.disc.siteFeed}, d)
}

// commentLimitsOf returns the bounds of one post's comment sources in o
// (Options.MaxComments, MaxCommentsPerAnswer, MaxCommentAnswerBytes,
// MaxCommentBytes).
func commentLimitsOf(o Options) feed.CommentLimits {
	return feed.CommentLimits{MaxComments: o.MaxComments, PerAnswer: o.MaxCommentsPerAnswer,
		AnswerBytes: o.MaxCommentAnswerBytes, MaxBytes: o.MaxCommentBytes}
}

// post returns the comment stage's view of j's post, its URL, item and
// page as they stand now.
func (j *pageJob) post() *comments.Post {
	j.cm.URL, j.cm.Item, j.cm.Page = j.t.url, j.item, nil
	if j.page != nil {
		j.cm.Page = j.page
	}
	return &j.cm
}

// commentClient is the comments.Fetcher of a crawl's fetch client.
type commentClient struct{ c *fetch.Client }

// Comments asks for a post's comment feed (feed.FetchComments).
func (f commentClient) Comments(ctx context.Context, fd *feed.Feed, it feed.Item, lim feed.CommentLimits) ([]feed.Comment, []blogharvest.File, feed.Cut, error) {
	return feed.FetchComments(ctx, f.c, fd, it, lim)
}

// CommentsAPI asks a platform's comments REST endpoint
// (feed.FetchCommentsAPI).
func (f commentClient) CommentsAPI(ctx context.Context, p platform.Platform, site, postID string, lim feed.CommentLimits) ([]feed.Comment, []blogharvest.File, feed.Cut, error) {
	return feed.FetchCommentsAPI(ctx, f.c, p, site, postID, lim)
}

// commentPages is the page worker as the comment stage's
// comments.PageReader and comments.Scope.
type commentPages struct{ w *pageWorker }

// ReadPage fetches a further comment page and extracts it with the
// crawl's rules.
func (p commentPages) ReadPage(ctx context.Context, u string) (comments.Page, learn.Extraction, error) {
	page, err := p.w.fetchPage(ctx, u)
	if err != nil {
		return nil, learn.Extraction{}, err
	}
	ex, _ := p.w.read.extract(p.w.read.learnPage(page))
	return page, ex, nil
}

// MayLoad is the browser's scope decision (browserMayLoad).
func (p commentPages) MayLoad(raw string) bool { return p.w.fetch.browserMayLoad(raw) }

// commentPosts is the comments.Posts of the crawl's canonical URLs.
type commentPosts struct{}

// PostOf returns the post a comment's link names (commentedPost).
func (commentPosts) PostOf(link string) *url.URL { return commentedPost(link) }

// archivedFiles is Options.Archived as a comments.Archive.
type archivedFiles func(*blogharvest.Entry) []blogharvest.File

// Archived returns the files the archive holds for e's latest version.
func (f archivedFiles) Archived(e *blogharvest.Entry) []blogharvest.File { return f(e) }

// commentLedger is the crawl ledger as a comments.Ledger.
type commentLedger struct{ l *ledger }

// Shortfall records a post's comment shortfall in the ledger's comments
// column.
func (l commentLedger) Shortfall(u, note string) { l.l.shortfall(u, note) }

// Ident is the page's canonical identity (comments.Page).
func (p *fetchedPage) Ident() string { return p.ident }

// FinalURL is the URL the page was served from (comments.Page).
func (p *fetchedPage) FinalURL() string { return p.resp.URL }

// Self is the page's URL, parsed (comments.Page).
func (p *fetchedPage) Self() *url.URL { return p.url }

// Doc is the page's parsed tree, nil when the parser refused it
// (comments.Page).
func (p *fetchedPage) Doc() *html.Node { return p.doc }

// Shortlink is the page's rel=shortlink (comments.Page).
func (p *fetchedPage) Shortlink() string { return p.info.shortlink }

// Feeds are the feeds the page advertises (comments.Page).
func (p *fetchedPage) Feeds() []string { return p.info.feeds }

// Links are the canonical URLs the page links to (comments.Page).
func (p *fetchedPage) Links() iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, l := range p.info.links {
			if !yield(l.url) {
				return
			}
		}
	}
}

// Capture is the page as captured, role page (comments.Page).
func (p *fetchedPage) Capture() blogharvest.File { return p.resp.File(blogharvest.RolePage) }
