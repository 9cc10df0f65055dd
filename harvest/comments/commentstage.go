package comments

import (
	"context"
	"iter"
	"log/slog"
	"net/url"

	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/platform"
)

// Stage is a crawl's comment stage: for one post it asks the comment
// sources (the item's comment feed, the post's own comment feed, the
// platform's comments REST endpoint, the further comment pages:
// comments.go, stated.go; the rest of a rendered thread from its comment
// API: threadmore.go), takes an update's comments from the blog-wide
// comment feed and the archive (archivedcomments.go), and compares what
// it holds with the count the blog states and notes a shortfall
// (stated.go, threadmore.go). Merging the sources into the entry's
// comments is Fill (comments.go), which needs nothing of the crawl.
//
// It is built once (New), when the crawl's site is set up and before any
// page is processed; read-only after that, it is shared by the page
// workers, which call it with each post's Post. Everything it reads is a
// field of its own: its configuration (Config), the blog it reads
// (Blog), and what it asks of the rest of the crawl through the small
// interfaces of Deps.
type Stage struct {
	cfg  Config
	blog Blog
	d    Deps
}

// Config is what the comment stage reads of the crawl's policy and
// options, fixed when the crawl starts.
type Config struct {
	// ChangedOnly is UpdateCrawl's: a post whose item counts no comment
	// and that the blog-wide comment feed does not show commented has no
	// comment feed asked for; the blog-wide feed's comments stand for
	// the post's own feed where they can.
	ChangedOnly bool
	// Limits bound one post's comment sources (Options.MaxComments,
	// MaxCommentsPerAnswer, MaxCommentAnswerBytes, MaxCommentBytes).
	Limits feed.CommentLimits
	// RenderNever says no page is rendered (Options.Render is
	// RenderNever), for the shortfall's note.
	RenderNever bool
}

// Blog is what the comment stage reads of the blog, as the crawl's
// set-up found it.
type Blog struct {
	// Feed is the blog's posts feed (its platform and URL name the
	// per-post comment feeds); Home the blog's canonical home page (the
	// comments REST endpoint's site).
	Feed *feed.Feed
	Home *url.URL
	// Site is what UpdateCrawl's blog-wide comment feed showed; empty for
	// NewCrawl.
	Site SiteFeed
}

// SiteFeed is what the blog-wide comment feed showed UpdateCrawl (the
// crawl's update.go reads it), set up before the page workers start.
type SiteFeed struct {
	Commented []*url.URL                // posts with comments since the watermark
	ByPost    map[string][]feed.Comment // the feed's comments, by post
	Files     []blogharvest.File        // the feed's pages as captured
	Parsed    [][]feed.Comment          // the comments of each of Files (none for a page that does not parse)
}

// Deps is what the comment stage asks of the rest of the crawl, each
// behind an interface of its own. Archive is nil when the crawl has no
// archive (Options.Archived).
type Deps struct {
	Fetch   Fetcher
	API     APIFetcher
	Scope   Scope
	Pages   PageReader
	Posts   Posts
	Archive Archive
	Ledger  Ledger
	Threads Threads
	Log     *slog.Logger
}

// Fetcher is what the comment stage asks the web through: a post's
// comment feed (feed.FetchComments) and a platform's comments REST
// endpoint (feed.FetchCommentsAPI).
type Fetcher interface {
	Comments(ctx context.Context, f *feed.Feed, it feed.Item, lim feed.CommentLimits) ([]feed.Comment, []blogharvest.File, feed.Cut, error)
	CommentsAPI(ctx context.Context, p platform.Platform, site, postID string, lim feed.CommentLimits) ([]feed.Comment, []blogharvest.File, feed.Cut, error)
}

// APIFetcher asks a rendered thread's comment API for the rest of the
// thread (threadmore.go): fetch.Client.Do.
type APIFetcher interface {
	Do(ctx context.Context, r fetch.Request) (*fetch.Response, error)
}

// Scope is the browser's scope decision, which the requests for the rest
// of a rendered thread are held to as well.
type Scope interface {
	MayLoad(raw string) bool
}

// PageReader fetches a further comment page and extracts it with the
// crawl's rules (the page-reading stage's work, given to this one).
type PageReader interface {
	ReadPage(ctx context.Context, u string) (Page, learn.Extraction, error)
}

// Page is what the comment stage reads of a fetched page.
type Page interface {
	// Ident is the page's identity (its canonical URL).
	Ident() string
	// FinalURL is the URL the page was served from, redirects followed.
	FinalURL() string
	// Self is the page's URL, parsed, that its links resolve against.
	Self() *url.URL
	// Doc is the page's parsed tree; nil when the parser refused it.
	Doc() *html.Node
	// Shortlink is the page's rel=shortlink (a post id for a platform's
	// comments REST endpoint), or "".
	Shortlink() string
	// Feeds are the feeds the page advertises.
	Feeds() []string
	// Links are the URLs the page links to, canonical.
	Links() iter.Seq[string]
	// Capture is the page as captured (role page).
	Capture() blogharvest.File
}

// Posts tells the post a comment's link is on.
type Posts interface {
	// PostOf returns the canonical URL of the post a comment's link
	// names (comment pages dropped), or nil.
	PostOf(link string) *url.URL
}

// Archive is the files the archive holds for an entry's latest version
// (Options.Archived).
type Archive interface {
	Archived(e *blogharvest.Entry) []blogharvest.File
}

// Ledger records a post whose comments fall short of what the blog
// states in the crawl ledger's comments column.
type Ledger interface {
	Shortfall(url, note string)
}

// Threads tells which posts' watched comment threads answered
// differently than at the crawl before (the crawl's thread watch).
type Threads interface {
	Changed(raw string) bool
}

// Post is one post's comments as the stage gathers them: the post (set
// by the page worker before each call) and what each source gave.
type Post struct {
	// URL is the post's URL as queued, Item its feed item (nil if none),
	// Page its fetched page (nil before it is fetched).
	URL  string
	Item *feed.Item
	Page Page
	// Comments are those of the source read (a comment feed, the
	// comments API, or an update's blog-wide feed and archive), Feed
	// the pages of the comment feed they came from as captured (the
	// first first; none when they came from elsewhere), Err why reading
	// it failed.
	Comments []feed.Comment
	Feed     []blogharvest.File
	Err      error
	// APIFiles are the answers of the comments REST endpoint, archived
	// with the entry.
	APIFiles []blogharvest.File
	// Rendered says the page was rendered (for the shortfall's note).
	Rendered bool

	run  bool     // the comment feed was asked for, or decided against
	cut  feed.Cut // what a bound left out of the source Comments came from
	held int      // the comments the post's comment feed held (FetchComments)
	// from names the source Comments came from, for the ledger:
	// "its comment feed", "its own comment feed", "its comments API".
	from     string
	deferred bool  // UpdateCrawl: Comments are the new ones, the rest to come from the archive (Complete)
	askedOwn bool  // the post's own comment feed was asked for a shortfall (FillShortfall)
	ownErr   error // why that failed
	ownHeld  int   // the comments it held
	askedAPI bool  // the platform's comments REST endpoint was asked for a shortfall (askCommentsAPI)
	apiErr   error // why that failed
	apiHeld  int   // the comments its answers held
	apiCut   feed.Cut
	stated   *Stated // the comments the blog states the post has (StatedOf), once read
}

// New builds a crawl's comment stage.
func New(cfg Config, blog Blog, d Deps) *Stage {
	if d.Log == nil {
		d.Log = slog.New(slog.DiscardHandler)
	}
	return &Stage{cfg: cfg, blog: blog, d: d}
}

// Commented reports whether the blog-wide comment feed showed the post at
// raw commented since the watermark (UpdateCrawl); false before the stage
// is built.
func (s *Stage) Commented(raw string) bool {
	if s == nil {
		return false
	}
	return s.blog.Site.isCommented(raw)
}

// isCommented reports whether the blog-wide comment feed showed the post
// at raw commented since the watermark.
func (f SiteFeed) isCommented(raw string) bool {
	for _, p := range f.Commented {
		if p.String() == raw {
			return true
		}
	}
	return false
}

// ThreadChanged reports whether the comment thread API of the post at raw
// answered differently than at the crawl before; false before the stage
// is built.
func (s *Stage) ThreadChanged(raw string) bool {
	return s != nil && s.d.Threads != nil && s.d.Threads.Changed(raw)
}
