package discover

import (
	"context"
	"errors"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// FindSite is what feed discovery reads of the blog: its URL and its
// feed's URL as configured (the URL is the feed's when only the feed was
// given), the feed the last crawl found when an UpdateCrawl starts from
// its state (State.Feed.URL; "" otherwise), and whether this crawl reads
// the home page (the crawl's homeDue).
type FindSite struct {
	URL       string
	FeedURL   string
	KnownFeed string
	HomeDue   bool
}

// Discovered is what feed discovery found: the posts feed's URL (as
// configured, as the last crawl found it, or found at the blog's URL),
// whether the blog's URL is that feed, the home page's capture (nil when
// none was fetched), and FeedErr when the feed found cannot be read
// (over the body cap: the crawl goes on without feed items, from the home
// page, its links and the sitemaps).
type Discovered struct {
	FeedURL   string
	URLIsFeed bool
	Home      *HomePage
	FeedErr   error
}

// HomePage is the home page's capture as the Blog record keeps it: the
// response (nil when the request failed), what its exchange says of the
// blog (status, hosting address, the encoding it was declared in, the
// file), and Err, why it could not be fetched whole (a warning naming
// URL; Resp may be set beside it).
type HomePage struct {
	URL       string
	Resp      *fetch.Response
	Err       error
	Status    int
	HostingIP string
	Encoding  string
	File      blogharvest.File
}

// Find finds the blog's posts feed and fetches its home page. A
// configured feed is the feed and the home page is fetched when due; an
// UpdateCrawl's known feed is taken without searching (no home page when
// the blog's URL is that feed); otherwise the feed is discovered at the
// blog's URL (feed.Discover), the first page of the feed found is kept
// for Read (Keep), and the page at the blog's URL is the home page unless
// it is the feed itself. The feed's origin is added to the client's. The
// errors are feed.Discover's, returned as they are, but for a page over
// the body cap that is no feed: that is the home page, and the error the
// Discovered's FeedErr.
func (s *Feeds) Find(ctx context.Context, in FindSite, canon Canon) (Discovered, error) {
	if in.FeedURL != "" {
		return Discovered{FeedURL: in.FeedURL, Home: s.fetchHome(ctx, in.URL, in.FeedURL, in.HomeDue)}, nil
	}
	if in.KnownFeed != "" {
		s.addOrigin(in.KnownFeed)
		if canonicalString(canon, in.KnownFeed) == canonicalString(canon, in.URL) {
			return Discovered{FeedURL: in.KnownFeed, URLIsFeed: true}, nil
		}
		return Discovered{FeedURL: in.KnownFeed, Home: s.fetchHome(ctx, in.URL, in.KnownFeed, in.HomeDue)}, nil
	}
	feedURL, resp, first, err := feed.Discover(ctx, s.client, in.URL)
	if errors.Is(err, blogharvest.ErrTooLarge) && resp != nil && !feed.Sniff(resp.Body) {
		h := CaptureOf(resp)
		return Discovered{Home: h, FeedErr: err}, nil
	}
	if err != nil {
		return Discovered{}, err
	}
	s.addOrigin(feedURL)
	s.Keep(feedURL, first) // read once
	if resp == nil || feed.Sniff(resp.Body) {
		return Discovered{FeedURL: feedURL, URLIsFeed: true}, nil
	}
	return Discovered{FeedURL: feedURL, Home: CaptureOf(resp)}, nil
}

// FetchHome fetches the home page at raw, unless raw is "" or the feed
// (feedURL): nil then. The crawl asks for it when the home page is due and
// the blog was given by its feed (the feed's link).
func (s *Feeds) FetchHome(ctx context.Context, raw, feedURL string) *HomePage {
	return s.fetchHome(ctx, raw, feedURL, true)
}

// fetchHome is FetchHome when due; nil when not.
func (s *Feeds) fetchHome(ctx context.Context, raw, feedURL string, due bool) *HomePage {
	if raw == feedURL || raw == "" || !due {
		return nil
	}
	resp, err := s.client.Get(ctx, raw)
	h := &HomePage{URL: raw, Err: err}
	if resp != nil {
		c := CaptureOf(resp)
		c.URL, c.Err = raw, err
		h = c
	}
	return h
}

// CaptureOf is the home page's capture in resp: its status, hosting
// address and declared encoding, and its file for the Blog record (role
// page); its warnings name resp.URL.
func CaptureOf(resp *fetch.Response) *HomePage {
	h := &HomePage{URL: resp.URL, Resp: resp, Status: resp.Status, HostingIP: resp.RemoteIP}
	if _, enc, err := resp.Text(); err == nil {
		h.Encoding = enc
	}
	h.File = resp.File(blogharvest.RolePage)
	return h
}

// addOrigin adds the origin of raw, a feed the home page declares, to
// the client's origins for pages (never for non-public addresses:
// fetch.Client.AddOrigin).
func (s *Feeds) addOrigin(raw string) {
	if err := s.client.AddOrigin(raw); err != nil {
		s.log.Debug("origin not added", "url", raw, "err", err)
	}
}
