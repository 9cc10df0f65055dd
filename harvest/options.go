package harvest

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"regexp"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/render"
)

// Render modes of Options.Render.
const (
	RenderAuto   = "auto"   // render when the static page lacks what the feed describes
	RenderAlways = "always" // render every entry page
	RenderNever  = "never"  // never start a browser
)

// DefaultMaxPages bounds a crawl when Options.MaxPages is zero.
const DefaultMaxPages = 5000

// Defaults of the bounds of one post's comment sources (Options
// MaxComments, MaxCommentsPerAnswer, MaxCommentBytes): feed's.
const (
	DefaultMaxComments           = feed.DefaultMaxComments
	DefaultMaxCommentsPerAnswer  = feed.DefaultCommentsPerAnswer
	DefaultMaxCommentBytes       = feed.DefaultMaxCommentBytes
	DefaultMaxCommentAnswerBytes = feed.DefaultCommentAnswerBytes
)

// DefaultMaxDuration is a crawl's wall-clock budget when
// Options.MaxDuration is zero.
const DefaultMaxDuration = 4 * time.Hour

// Options configures one crawl. Only Blog.URL (or Blog.FeedURL) is required;
// every zero field takes the default stated on it.
type Options struct {
	// Blog names the blog: ID (stamped on every record), URL (home page or
	// feed) and, optionally, FeedURL (skips feed discovery). The origins
	// (scheme, host, port) of URL and FeedURL, with Allow, are the blog's:
	// they may resolve to private or loopback addresses (the archivist
	// named them); every other host must be public.
	Blog blogharvest.Blog
	// MaxPages bounds the HTML pages fetched (feeds, sitemaps and media do
	// not count). If zero, DefaultMaxPages.
	MaxPages int
	// Delay is the minimum time between two requests to one host. If zero,
	// requests are not spaced (robots.txt Crawl-delay still applies).
	Delay time.Duration
	// PerHost is the number of pages processed at once. If zero, 1.
	PerHost int
	// Render is RenderAuto, RenderAlways or RenderNever. If empty, RenderAuto.
	Render string
	// MaxRenders bounds the pages a crawl renders in RenderAuto mode; the
	// pages a reason asks to render after that are not rendered, counted
	// in Result.NotRendered and noted in their entries. If zero,
	// DefaultMaxRenders; if negative, none.
	MaxRenders int
	// RenderTimeout bounds rendering one page in a browser the crawl
	// starts: loading, settling, exercising and capturing (a page still
	// drawing when only the capture's share is left is captured as it
	// stands). If zero, DefaultRenderTimeout. A Browser given below keeps
	// its own render.Options.Timeout.
	RenderTimeout time.Duration
	// Browser renders pages when set; if nil and Render is not RenderNever,
	// the crawl starts its own Chromium on first need and closes it at the
	// end (no browser installed: rendering is off, with one warning; a
	// browser that did not start: one warning and Result.Unrendered).
	// A browser given here and kept across crawls keeps its HTTP cache: a
	// post UpdateCrawl renders again because its comment thread changed
	// (ReasonThreadChanged) may be drawn from an API response the server
	// let it cache; the crawl's own browser starts with an empty cache.
	Browser Renderer
	// RenderHostRules maps host names for a browser the crawl starts, in
	// --host-resolver-rules syntax ("MAP blog.test 127.0.0.1:8080"), for
	// blogs served through Transport. Its MAP rules are applied by the
	// dial of the crawl's browser proxy (the browser itself resolves no
	// name), after the scope decision.
	RenderHostRules string
	// Allow lists more origins of the blog ("https://cdn.example.org",
	// "http://127.0.0.1:8081": scheme, host and port) besides those of
	// Blog.URL and Blog.FeedURL. Pages (links, sitemaps, feed pages,
	// comment feeds, redirect hops) are fetched only from the blog's
	// origins; media from any public address, and from a non-public one
	// only on the blog's origins. Another port of a host is another origin.
	Allow []string
	// Include adds URLs matching any of these to the crawl's scope (the
	// blog's hosts under its path prefix); Exclude removes URLs matching any.
	Include, Exclude []*regexp.Regexp
	// UserAgent is sent with every request. If empty, fetch's default.
	UserAgent string
	// CAFile names extra CA certificates (PEM). If empty, the system pool.
	CAFile string
	// Transport replaces the HTTP transport (tests, replay). If nil, the
	// default transport.
	Transport http.RoundTripper
	// IgnoreRobots skips robots.txt (for an archivist's own blogs).
	IgnoreRobots bool
	// Auth, if set, is sent as HTTP basic authentication to the blog's own
	// origins (scheme, host and port of Blog.URL and Blog.FeedURL) and to no
	// other origin. User-info in Blog.URL or Blog.FeedURL is removed before
	// the crawl starts and, when Auth is nil, used as Auth. If nil and the
	// URLs carry none, no credentials are sent.
	Auth *BasicAuth
	// MaxMediaBytes bounds one media file. If zero, DefaultMaxMediaBytes;
	// if negative, no media are captured.
	MaxMediaBytes int64
	// MaxMediaPerEntry bounds the media files of one entry. If zero,
	// DefaultMaxMediaPerEntry; if negative, no media are captured.
	MaxMediaPerEntry int
	// MediaHosts says where media may be fetched from: MediaSameHost (the
	// blog's own hosts only: those of its home page, Blog.URL and Allow,
	// with their ports) or MediaAnyHost (embedded media on other public
	// hosts too, within the limits above; a non-public address is refused
	// either way unless it is one of the blog's origins). If empty, MediaSameHost when the
	// blog is on a loopback or private address or a localhost name (a blog
	// on an intranet or a test machine never sends traffic elsewhere),
	// else MediaAnyHost.
	MediaHosts string
	// Requisites says which page requisites are captured with every
	// archived page (entries and the home page): RequisitesAll (from the
	// blog's origins and any public address), RequisitesSameOrigin or
	// RequisitesNone. If empty, RequisitesAll. Refusals are in the ledger.
	Requisites string
	// ArchivedRequisites, if set, returns the requisites the blog's
	// requisites packages already hold (verified, with their original
	// headers and capture time: aip.ArchivedRequisites). It is called at
	// most once per crawl, when the first requisite is needed. A requisite
	// held there is not fetched again while its stored response is fresh
	// (RFC 9111 §4.2: Cache-Control max-age, Expires, else a tenth of the
	// time since Last-Modified, at most MaxHeuristicFreshness), and is
	// revalidated with a conditional request (If-None-Match,
	// If-Modified-Since) once it is stale; a 304 keeps the stored payload
	// (requisitestore.go). If nil, every requisite is fetched.
	ArchivedRequisites func() []blogharvest.File
	// MaxRequisiteBytes bounds one requisite file; if zero,
	// DefaultMaxRequisiteBytes.
	MaxRequisiteBytes int64
	// MaxPageRequisiteBytes bounds all the requisites of one page; if
	// zero, DefaultMaxPageRequisiteBytes.
	MaxPageRequisiteBytes int64
	// MaxFeedPages bounds the feed pages followed (RFC 5005, ?paged=N,
	// Blogger start-index). If zero, 50.
	MaxFeedPages int
	// MaxURLs bounds the URLs a crawl takes in from sitemaps and links (the
	// crawl ledger's rows, the frontier): a URL named after that is not
	// held, only counted, and each source's count is written in the
	// ledger as over-budget (its sitemap's row, or the first URL a page's
	// links left out). If zero, DefaultMaxURLs.
	MaxURLs int
	// MaxSitemapBytes bounds the sitemap files read (as served) and kept
	// in the Blog record; the sitemaps not read for it are over-budget in
	// the ledger. Each sitemap is read as a stream. If zero,
	// DefaultMaxSitemapBytes.
	MaxSitemapBytes int64
	// MaxComments bounds the comments read for one post from each of its
	// paged sources (its comment feed with every further page, the
	// platform's comments REST endpoint with every page): pages are
	// followed until the source ends or this many are held. If zero,
	// feed.DefaultMaxComments (100 000).
	MaxComments int
	// MaxCommentsPerAnswer bounds the comments read from one answer of a
	// comments REST endpoint, read element by element; the rest of a
	// longer answer is left out. If zero, feed.DefaultCommentsPerAnswer
	// (1 000).
	MaxCommentsPerAnswer int
	// MaxCommentAnswerBytes bounds one answer of a comments REST endpoint
	// as served: a longer one is not read and the reading stops there. If
	// zero, feed.DefaultCommentAnswerBytes (8 MiB).
	MaxCommentAnswerBytes int64
	// MaxCommentBytes bounds the bytes of one post's comment answers (REST
	// answers, comment feed pages), all archived with the entry: no page
	// is asked for once they reach it. If zero, feed.DefaultMaxCommentBytes
	// (32 MiB).
	MaxCommentBytes int64
	// MaxDuration is the crawl's wall-clock budget. When it runs out, no
	// new page is fetched, the entries already extracted have been emitted
	// (an entry whose processing the end of the budget cut short is not),
	// the rest is counted in Result.Skipped with a warning, Result.OverBudget
	// is set and the crawl returns no error. A budget that runs out before
	// the Blog record was emitted fails the crawl with a transient error
	// wrapping ErrOverBudget. If zero, DefaultMaxDuration; if negative, none.
	MaxDuration time.Duration
	// MaxCrawlDelay caps a robots.txt Crawl-delay (a host asking for more is
	// crawled at the cap, with one warning per host); StrictCrawlDelay
	// refuses such a host instead: a blog whose own robots.txt asks for
	// more fails the crawl with a permanent *fetch.CrawlDelayError. If
	// zero, fetch.DefaultMaxCrawlDelay; if negative, no cap.
	MaxCrawlDelay    time.Duration
	StrictCrawlDelay bool
	// HostWait, if set, waits d for a host's turn before a request (Delay,
	// a robots.txt Crawl-delay) instead of a plain sleep; it must return
	// ctx's error when ctx ends and may return later than d (the daemon
	// gives the crawl's harvest slot to another blog meanwhile). The
	// request's deadline starts after it (fetch.Options.TurnWait).
	HostWait func(ctx context.Context, d time.Duration) error
	// Logger receives progress and warnings. If nil, slog.Default() with
	// the blog's id.
	Logger *slog.Logger
	// Now returns the current time. If nil, time.Now.
	Now func() time.Time
	// Progress, if not nil, is told in a few words what the crawl's
	// coordinator does next (discovering the feed, reading sitemaps, each
	// training page fetched, "page <URL>" for each page handed to a page
	// worker), for a progress line; it must not block.
	Progress func(step string)

	// State is what the last crawl of the blog left for UpdateCrawl (its
	// Result.State): feed validators and digests, item signatures, robots.txt
	// captures, rules. UpdateCrawl asks for the feeds conditionally and stops
	// there when they did not change, and re-reads only the posts something
	// says changed. The zero value knows nothing (every post of the feed's
	// first page without a modification date is read again). NewCrawl
	// ignores it.
	State State
	// RecheckPosts is how often UpdateCrawl re-reads the posts of the feed's
	// first page that give no change signal (no modification date, and no
	// item signature to compare, or summaries only). If zero,
	// DefaultRecheckPosts; if negative, never.
	RecheckPosts time.Duration
	// Archived, if set, returns the media files and comment feeds the
	// archive already holds for an entry (its latest version's, verified:
	// see aip.ArchivedCaptures). It is called once per entry whose media
	// are captured, after the page was read; a media URL of the entry
	// found among them is not fetched again, the archived File (with its
	// Path, original capture time, File.Reused and File.ReusedIn) is put
	// in the entry instead (aip writes no WARC record of it: the new
	// version names the earlier record). UpdateCrawl calls it too for a post the blog-wide comment
	// feed shows newly commented: the earlier comments come from the
	// archived comment feeds, the new ones from the blog-wide feed, and
	// the post's own comment feed is not asked for unless they do not line
	// up. If nil, every media file and comment feed is fetched.
	Archived func(e *blogharvest.Entry) []blogharvest.File
	// ArchivedPosts, if set, returns what the archive holds of the blog's
	// entries (the latest version of each: ArchivedPost). UpdateCrawl calls
	// it at most once, only when the blog seems to have moved (its feed
	// moved, or most items of the feed's first page are at URLs the last
	// crawl did not list), to find each post again under its new URL
	// (moves.go). If nil, a moved post can be matched only by a redirect
	// or a stub from an archived URL the crawl meets, or by State.Moved.
	ArchivedPosts func() ([]ArchivedPost, error)
	// NoMoveProbes keeps a crawl that finds the blog moved from asking for
	// the archived URLs its feed no longer lists (at most MaxMoveProbes):
	// an HTTP redirect or a redirect stub answering one is the strongest
	// evidence of which post went where (moves.go).
	NoMoveProbes bool
	// AcceptIdentity is the archivist's word that the site now at the
	// blog's address is the blog (the daemon's accept_change): UpdateCrawl
	// then does not check that it is the blog archived (stranger.go) and
	// archives it as the blog's.
	AcceptIdentity bool
}

// Renderer renders a page in a browser; *render.Browser implements it.
type Renderer interface {
	Render(ctx context.Context, url string) (*render.Result, error)
}

var _ Renderer = (*render.Browser)(nil)

// WatermarkMargin is subtracted from the crawl's start to make its
// watermark, so that items a cached feed or a skewed server clock shows
// late are still picked up by the next UpdateCrawl. Entries emitted twice
// cost nothing: the archive writes a new version only when content changed.
const WatermarkMargin = time.Hour

// Record is one item of a crawl's output: exactly one field is set. The
// Blog always comes last, once per crawl that got as far as emitting
// entries (even when it stops early), carrying the crawl ledger.
type Record struct {
	Blog  *blogharvest.Blog
	Entry *blogharvest.Entry
}

// Result sums up a crawl.
type Result struct {
	Pages    int // HTML pages fetched
	Entries  int // entries emitted
	Comments int // comments in the emitted entries
	Failed   int // pages that could not be fetched or processed
	Skipped  int // URLs not fetched: robots.txt, out of scope, over MaxPages, unchanged since, over budget
	// OverBudget is set when Options.MaxDuration ran out: the crawl is
	// partial, and what it skipped was not looked at (its Watermark must
	// not be taken as covering them).
	OverBudget bool
	// Unrendered counts the pages that needed rendering (RenderAlways, or
	// RenderAuto's reasons) but were archived without it because the
	// browser, though installed, did not start (render.ErrBrowserStart):
	// the crawl is partial like an OverBudget one, and the pages carry
	// Entry.Unrendered so that a later crawl that renders them writes new
	// versions. No browser installed is not counted (rendering is off).
	Unrendered int
	// Watermark is the time the crawl started (Options.Now) less
	// WatermarkMargin: pass it as since to the next UpdateCrawl. Anything
	// published later carries a later date.
	Watermark time.Time
	Rules     json.RawMessage // the learned extraction rules
	Pattern   string          // the post-URL pattern
	Fetches   map[int]int     // HTTP exchanges by status code; 0 counts transport failures
	Warnings  []string
	Timings   Timings
	// Ledger holds every URL the crawl met with its fate, sorted by URL
	// (see Fate); FateCounts sums it up, LedgerTSV writes it.
	Ledger []LedgerRow
	// State is what this crawl leaves for the next UpdateCrawl: pass it as
	// Options.State.
	State State
	// Moved counts the posts this crawl found at a new URL and matched
	// with an archived post (moves.go).
	Moved int
	// Unchanged says that UpdateCrawl stopped after the feeds, which had
	// not changed: nothing was emitted, and Watermark is the since given.
	Unchanged bool
	// Renders counts the pages rendered by reason (ReasonAlways,
	// ReasonNoArticle, …); NotRendered the pages a reason asked to render
	// that were not, by why (SkipBudget, SkipAddedNothing). Both nil when
	// no page asked.
	Renders, NotRendered map[string]int
	// Delayed counts the HTTP exchanges that waited for their host's turn
	// (Options.Delay or a robots.txt Crawl-delay): 0 when every request
	// went back to back (fetch.Stats.Delayed).
	Delayed int
}

// Timings splits a crawl's wall time.
type Timings struct {
	Total   time.Duration // wall time of the crawl
	Extract time.Duration // spent applying rules to pages (summed over workers)
	Learn   time.Duration // spent learning the rules
	Render  time.Duration // spent rendering pages (summed over workers)
}

// Values of Options.MediaHosts.
const (
	MediaSameHost = "same"
	MediaAnyHost  = "any"
)

// withDefaults returns o with every zero field set to its default.
func (o Options) withDefaults() Options {
	if o.MaxPages <= 0 {
		o.MaxPages = DefaultMaxPages
	}
	if o.PerHost <= 0 {
		o.PerHost = 1
	}
	if o.Render == "" {
		o.Render = RenderAuto
	}
	if o.MaxMediaBytes == 0 {
		o.MaxMediaBytes = DefaultMaxMediaBytes
	}
	if o.MaxMediaPerEntry == 0 {
		o.MaxMediaPerEntry = DefaultMaxMediaPerEntry
	}
	if o.MaxDuration == 0 {
		o.MaxDuration = DefaultMaxDuration
	}
	if o.MaxRenders == 0 {
		o.MaxRenders = DefaultMaxRenders
	}
	if o.RenderTimeout <= 0 {
		o.RenderTimeout = DefaultRenderTimeout
	}
	if o.Requisites == "" {
		o.Requisites = RequisitesAll
	}
	if o.MaxRequisiteBytes <= 0 {
		o.MaxRequisiteBytes = DefaultMaxRequisiteBytes
	}
	if o.MaxPageRequisiteBytes <= 0 {
		o.MaxPageRequisiteBytes = DefaultMaxPageRequisiteBytes
	}
	if o.MaxFeedPages <= 0 {
		o.MaxFeedPages = 50
	}
	if o.MaxURLs <= 0 {
		o.MaxURLs = DefaultMaxURLs
	}
	if o.MaxSitemapBytes <= 0 {
		o.MaxSitemapBytes = DefaultMaxSitemapBytes
	}
	if o.MaxComments <= 0 {
		o.MaxComments = feed.DefaultMaxComments
	}
	if o.MaxCommentsPerAnswer <= 0 {
		o.MaxCommentsPerAnswer = feed.DefaultCommentsPerAnswer
	}
	if o.MaxCommentAnswerBytes <= 0 {
		o.MaxCommentAnswerBytes = feed.DefaultCommentAnswerBytes
	}
	if o.MaxCommentBytes <= 0 {
		o.MaxCommentBytes = feed.DefaultMaxCommentBytes
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.Default().With("blog", o.Blog.ID)
	}
	liftUserinfo(&o)
	return o
}
