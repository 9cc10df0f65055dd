package harvest

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/platform"
)

// Date fallbacks. A post whose page gives no date (neither the learned
// rules, JSON-LD or meta, nor a date near the article) is dated, in order,
// by its item in any feed of the blog (the posts feed's pages; the
// per-section, category or tag feeds pages advertise, and the feed the
// platform keeps per section, platform.Platform.SectionFeed), by the date
// in its URL path (blogharvest.MethodURL), and last by its sitemap
// <lastmod> (blogharvest.MethodSitemap), which is a modification date and
// stands for the creation date only when nothing else dates the post.

// maxSideFeeds bounds the section, category and tag feeds a crawl reads
// for dates.
const maxSideFeeds = 20

// sideFeeds are the feeds besides the posts feed read for dates: which
// were read, and the dates of their items by canonical URL. Safe for
// concurrent use; a feed is read once, and a worker that needs one another
// worker is reading waits for it.
type sideFeeds struct {
	mu    sync.Mutex
	read  map[string]chan struct{} // closed once the feed is read
	dates map[string]time.Time     // item URL → published (else updated)
}

func newSideFeeds() *sideFeeds {
	return &sideFeeds{read: map[string]chan struct{}{}, dates: map[string]time.Time{}}
}

// date returns the date a side feed read so far gives u.
func (s *sideFeeds) date(u string) (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	t, ok := s.dates[u]
	return t, ok
}

// claim returns whether the caller is to read feed (first to ask, within
// the budget), or the channel to wait on while another worker does; nil
// and false when the feed is over the budget.
func (s *sideFeeds) claim(feedURL string) (wait chan struct{}, mine bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch, ok := s.read[feedURL]; ok {
		return ch, false
	}
	if len(s.read) >= maxSideFeeds {
		return nil, false
	}
	ch := make(chan struct{})
	s.read[feedURL] = ch
	return ch, true
}

// add records the dates of a feed's items.
func (s *sideFeeds) add(items []feed.Item) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, it := range items {
		d := it.Published
		if d.IsZero() {
			d = it.Updated
		}
		if u := canonicalOr(firstNonEmpty(it.Link, it.GUID)); u != "" && !d.IsZero() {
			if _, ok := s.dates[u]; !ok {
				s.dates[u] = d
			}
		}
	}
}

// feedDate returns the date some feed of the blog gives the post at p,
// reading the side feeds that may list it (sideFeedsOf) as needed.
func (w *pageWorker) feedDate(ctx context.Context, p *fetchedPage) (time.Time, bool) {
	if w.side == nil {
		return time.Time{}, false
	}
	if t, ok := w.side.date(p.ident); ok {
		return t, true
	}
	for _, fu := range w.sideFeedsOf(p) {
		ch, mine := w.side.claim(fu)
		switch {
		case mine:
			f, _, err := feed.FetchAll(ctx, w.client, fu, feed.PageOptions{MaxPages: 1})
			if err != nil {
				w.log.Debug("side feed", "url", fu, "err", err)
			} else {
				w.side.add(f.Items)
			}
			close(ch)
		case ch != nil:
			select {
			case <-ch:
			case <-ctx.Done():
				return time.Time{}, false
			}
		}
		if t, ok := w.side.date(p.ident); ok {
			return t, true
		}
	}
	return time.Time{}, false
}

// sideFeedsOf lists the feeds that may date the post at p, in order: the
// feeds its page advertises (other than the posts feed and comment feeds),
// then the section feeds its platform keeps at each folder above it.
func (w *pageWorker) sideFeedsOf(p *fetchedPage) []string {
	var out []string
	self := strings.TrimSuffix(p.ident, "/")
	for _, f := range p.info.feeds {
		u, err := url.Parse(f)
		if err != nil || f == w.blog.FeedURL || (w.feed != nil && f == w.feed.URL) || strings.HasPrefix(f, self+"/") ||
			platform.SiteCommentFeed(u.Path) || bloggerPostComments.MatchString(f) || !w.scope.contains(u) {
			continue
		}
		out = appendNew(out, f)
	}
	row, ok := platform.Platform{}, false
	if w.feed != nil && w.feed.PlatformID != "" {
		row, ok = platform.ByID(w.feed.PlatformID)
	}
	if ok && row.SectionFeed != "" {
		segs := segments(p.url.Path)
		for i := len(segs) - 1; i >= 1; i-- {
			u := &url.URL{Scheme: p.url.Scheme, Host: p.url.Host, Path: "/" + strings.Join(segs[:i], "/") + "/" + row.SectionFeed}
			if s := u.String(); s != w.blog.FeedURL && (w.feed == nil || s != w.feed.URL) {
				out = appendNew(out, s)
			}
		}
	}
	return out
}

// fallbackDates dates an entry the feed item and the page left undated, or
// dated only by its URL: a side feed's item, else the URL's date the
// extraction found, else the sitemap's lastmod (lastmod).
func (w *pageWorker) fallbackDates(ctx context.Context, e *blogharvest.Entry, j *pageJob, ex learn.Extraction) {
	if j.item != nil && !j.item.Published.IsZero() {
		return
	}
	if !e.Created.IsZero() && methodOf(ex, learn.FieldDate) != blogharvest.MethodURL {
		return
	}
	if t, ok := w.feedDate(ctx, j.page); ok {
		e.Created, e.CreatedPrecision = t, ""
		e.Provenance.Set("date_created", blogharvest.MethodFeed)
		return
	}
	if !e.Created.IsZero() {
		return // the URL's date
	}
	if !j.t.lastmod.IsZero() {
		e.Created, e.CreatedPrecision = j.t.lastmod, ""
		e.Provenance.Set("date_created", blogharvest.MethodSitemap)
	}
}

// lastmodModified takes the sitemap's lastmod as the entry's modification
// date when nothing else gives one and it is later than the creation date.
func lastmodModified(e *blogharvest.Entry, lastmod time.Time) {
	if lastmod.IsZero() || !e.Modified.IsZero() || e.Created.IsZero() || !lastmod.After(e.Created.Add(24*time.Hour)) {
		return
	}
	e.Modified, e.ModifiedPrecision = lastmod, ""
	e.Provenance.Set("date_modified", blogharvest.MethodSitemap)
}
