package discover

import (
	"context"
	"log/slog"
	"net/url"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/platform"
)

// FeedConfig is what the feed stage reads of the crawl's policy and
// options, built once by the crawl.
type FeedConfig struct {
	// Since: an UpdateCrawl pages the posts feed back to it (with
	// ChangedOnly); zero for NewCrawl.
	Since       time.Time
	ChangedOnly bool
	// UseState and Settled: the last crawl's validators are asked for
	// (Unchanged) only by an UpdateCrawl that starts from the last
	// crawl's state and has no recheck due.
	UseState bool
	Settled  bool
	// MaxPages bounds the posts feed's pages read
	// (Options.MaxFeedPages; zero for feed.DefaultMaxPages).
	MaxPages int
	// SiteCommentPages bounds the pages of the blog-wide comment feed
	// read.
	SiteCommentPages int
}

// Feeds is the feed stage: it asks for the feeds conditionally
// (Unchanged), reads a feed and its further pages (Read, Pages) and keeps
// the first page of a feed received already (Keep: by feed discovery, by
// a changed conditional request), so that no feed is fetched twice.
// Feed pages are fetched with the crawl's fetch.Client, which the feed
// package reads them with.
type Feeds struct {
	cfg    FeedConfig
	client *fetch.Client
	log    *slog.Logger
	pre    map[string]*fetch.Response // first pages received already, by URL
}

// NewFeeds returns the feed stage of a crawl with config cfg, fetching
// with client.
func NewFeeds(cfg FeedConfig, client *fetch.Client, log *slog.Logger) *Feeds {
	return &Feeds{cfg: cfg, client: client, log: log, pre: map[string]*fetch.Response{}}
}

// Keep keeps the first page of the feed at raw, received already, for
// Pages; a nil resp is not kept.
func (s *Feeds) Keep(raw string, resp *fetch.Response) {
	if resp == nil {
		return
	}
	s.pre[raw] = resp
}

// Pages is feed.FetchAll, starting from the first page Keep kept for raw
// when there is one (it is then dropped).
func (s *Feeds) Pages(ctx context.Context, raw string, po feed.PageOptions) (*feed.Feed, []blogharvest.File, error) {
	if resp := s.pre[raw]; resp != nil {
		delete(s.pre, raw)
		return feed.FetchFrom(ctx, s.client, resp, po)
	}
	return feed.FetchAll(ctx, s.client, raw, po)
}

// Read is the posts feed as read: the feed (nil when it could not be
// read, Err says why), its pages' captures for the Blog record and its
// validators for the next crawl (State.Feed). Err may be set beside a
// feed read up to an error.
type Read struct {
	Feed       *feed.Feed
	Files      []blogharvest.File
	Validators blogharvest.Validators
	Err        error
}

// Read reads the posts feed at raw with its further pages: all of them
// (up to the config's MaxPages), or for an UpdateCrawl (ChangedOnly) back
// to Since, and on until enough reports that the items read are enough
// (the items of the posts revisited for their comments).
func (s *Feeds) Read(ctx context.Context, raw string, enough func([]feed.Item) bool) Read {
	po := feed.PageOptions{MaxPages: s.cfg.MaxPages}
	if s.cfg.ChangedOnly {
		po.Since, po.Enough, po.NewestFirst = s.cfg.Since, enough, true
	}
	f, files, err := s.Pages(ctx, raw, po)
	r := Read{Feed: f, Files: files, Err: err}
	if f != nil {
		r.Validators = ValidatorsOf(raw, f, files)
	}
	return r
}

// SiteComments is the blog-wide comment feed as read (Read false when it
// could not be): its validators for the next crawl (State.CommentFeed),
// its pages' captures and, for an UpdateCrawl (ChangedOnly), the posts it
// shows commented after Since, in the feed's order, each once, and what
// the comment stage reads of it: the comments of each page (Parsed, none
// for a page that does not parse), parsed once for the whole crawl, and
// all of them by the canonical URL of the post commented on (ByPost).
type SiteComments struct {
	Read       bool
	Validators blogharvest.Validators
	Files      []blogharvest.File
	Posts      []*url.URL
	Parsed     [][]feed.Comment
	ByPost     map[string][]feed.Comment
}

// Commented is the crawl's word on the link of a comment: the post it
// comments on (Of: its canonical URL, nil when the link is no URL), and
// that post only when it is a page (Post: nil otherwise).
type Commented interface {
	Post(link string) *url.URL
	Of(link string) *url.URL
}

// SiteComments reads the blog-wide comment feed at cf (WordPress
// /comments/feed/, Blogger /feeds/comments/default): back to Since,
// within SiteCommentPages pages (a NewCrawl reads its first page, for
// the next crawl's conditional request). For an UpdateCrawl it returns
// the posts commented after Since (post: the post of a comment's link),
// so that new comments on posts no longer in the posts feed are found
// too. A failure is logged: the crawl goes on without it.
func (s *Feeds) SiteComments(ctx context.Context, cf string, post Commented) SiteComments {
	po := feed.PageOptions{Since: s.cfg.Since, MaxPages: s.cfg.SiteCommentPages, NewestFirst: true}
	f, files, err := s.Pages(ctx, cf, po)
	if err != nil {
		s.log.Info("site comment feed", "url", cf, "err", err)
	}
	if f == nil {
		return SiteComments{}
	}
	sc := SiteComments{Read: true, Validators: ValidatorsOf(cf, f, files), Files: files}
	if !s.cfg.ChangedOnly {
		return sc
	}
	seen := map[string]bool{}
	for _, it := range f.Items {
		if !it.Published.After(s.cfg.Since) && !it.Updated.After(s.cfg.Since) {
			continue
		}
		if p := post.Post(it.Link); p != nil && !seen[p.String()] {
			seen[p.String()] = true
			sc.Posts = append(sc.Posts, p)
		}
	}
	sc.Parsed = make([][]feed.Comment, len(files))
	for i, f := range files {
		sc.Parsed[i], _ = feed.ParseComments(f.Body, f.URL)
	}
	sc.ByPost = map[string][]feed.Comment{}
	for _, cs := range sc.Parsed {
		for _, cm := range cs {
			if p := post.Of(cm.Link); p != nil {
				sc.ByPost[p.String()] = append(sc.ByPost[p.String()], cm)
			}
		}
	}
	return sc
}

// CommentFeedSite is what the choice of the blog-wide comment feed reads:
// whether this crawl reads the home page (HomeDue), the comment feed the
// last crawl found (Last: State.CommentFeed.URL), and, when the home page
// was read (HomeRead), the feeds it declares and its links.
type CommentFeedSite struct {
	HomeDue  bool
	Last     string
	HomeRead bool
	Feeds    []string
	Links    []Link
}

// SiteCommentFeed returns the blog-wide comment feed to read: the last
// crawl's when the home page is not read, else the first of the home
// page's declared feeds and links that a platform keeps its blog-wide
// comment feed at (platform.SiteCommentFeed), "" when none is or the home
// page could not be read.
func SiteCommentFeed(s CommentFeedSite) string {
	switch {
	case !s.HomeDue:
		return s.Last // the home page is not read: the feed the last crawl found
	case !s.HomeRead:
		return ""
	}
	for _, raw := range s.Feeds {
		if siteCommentFeed(raw) {
			return raw
		}
	}
	for _, l := range s.Links {
		if siteCommentFeed(l.URL) {
			return l.URL
		}
	}
	return ""
}

// siteCommentFeed reports whether raw is at a path a platform keeps its
// blog-wide comment feed at.
func siteCommentFeed(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && platform.SiteCommentFeed(u.Path)
}

// Unchanged is what the conditional requests for the feeds found: the
// feeds' validators now and whether neither feed changed (Same).
type Unchanged struct {
	Feed, CommentFeed blogharvest.Validators
	Same              bool
}

// Unchanged is an UpdateCrawl's first step when the last crawl left the
// posts feed's validators (last): it asks for the posts feed, and then
// for the blog-wide comment feed (comment, when its URL is known),
// conditionally, and reports them the same when neither changed (304, or
// a body identical to the last one). It asks nothing unless the config
// says the crawl starts from the last crawl's state with no recheck due.
// A changed first page is kept for Read, so that it is not fetched
// twice.
func (s *Feeds) Unchanged(ctx context.Context, last, comment blogharvest.Validators) Unchanged {
	if !s.cfg.UseState || last.URL == "" || !s.cfg.Settled {
		return Unchanged{}
	}
	fv, same := s.ask(ctx, last)
	if !same {
		return Unchanged{}
	}
	cv := comment
	if cv.URL != "" {
		if cv, same = s.ask(ctx, cv); !same {
			return Unchanged{}
		}
	}
	return Unchanged{Feed: fv, CommentFeed: cv, Same: true}
}

// ask requests a feed conditionally with v and reports whether it is
// unchanged, with its validators now. A changed first page is kept for
// Pages; a failure counts as a change (the crawl goes on and meets it
// again).
func (s *Feeds) ask(ctx context.Context, v blogharvest.Validators) (blogharvest.Validators, bool) {
	resp, err := feed.Request(ctx, s.client, v.URL, v.ETag, v.LastModified)
	if err != nil {
		s.log.Debug("conditional feed request", "url", v.URL, "err", err)
		return v, false
	}
	if resp.NotModified {
		return v, true
	}
	nv := blogharvest.Validators{URL: v.URL, ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified"),
		Digest: blogharvest.DigestOf(resp.Body)}
	if v.Digest != "" && nv.Digest == v.Digest {
		return nv, true
	}
	s.Keep(v.URL, resp)
	return nv, false
}

// ValidatorsOf returns the validators of a feed read from raw, whose
// first page's capture is files[0].
func ValidatorsOf(raw string, f *feed.Feed, files []blogharvest.File) blogharvest.Validators {
	v := blogharvest.Validators{URL: raw}
	if f != nil {
		v.ETag, v.LastModified = f.ETag, f.LastModified
	}
	if len(files) > 0 {
		v.Digest = blogharvest.DigestOf(files[0].Body)
	}
	return v
}
