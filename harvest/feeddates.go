package harvest

import (
	"context"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/comments"
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
//
// A date from a side feed is evidence the archive keeps: the entry holds
// the feed's item as its own feed item excerpt (a RoleFeed file named by
// the side feed's URL, as the posts feed's item is), and the Blog AIP the
// side feed's whole first page as captured (sideFeeds.captures).

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
	dates map[string]sideItem      // item URL → its date and where it came from
	files []blogharvest.File       // the first page of each side feed that dated a post
	used  map[string]bool          // side feeds whose captures are in files
	pages map[string]blogharvest.File
}

// sideItem is the date a side feed's item gives a post, with the item.
type sideItem struct {
	date    time.Time // published, else updated
	feedURL string
	format  string     // the feed's format (feed.Feed.Format)
	item    *feed.Item // the item, whose XML() is the item as the feed wrote it
	read    time.Time  // when the feed was captured
}

func newSideFeeds() *sideFeeds {
	return &sideFeeds{read: map[string]chan struct{}{}, dates: map[string]sideItem{}, used: map[string]bool{},
		pages: map[string]blogharvest.File{}}
}

// date returns the date a side feed read so far gives u, and the item; the
// feed's capture joins captures.
func (s *sideFeeds) date(u string) (sideItem, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	it, ok := s.dates[u]
	if ok && !s.used[it.feedURL] {
		s.used[it.feedURL] = true
		if f, ok := s.pages[it.feedURL]; ok {
			s.files = append(s.files, f)
		}
	}
	return it, ok
}

// captures returns the first pages of the side feeds that dated a post,
// for the Blog record.
func (s *sideFeeds) captures() []blogharvest.File {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]blogharvest.File(nil), s.files...)
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

// add records the dates of a side feed's items, by their identity in the
// crawl (sc: the crawl's canonicaliser, scope.identity), and its first page.
func (s *sideFeeds) add(feedURL string, f *feed.Feed, first blogharvest.File, sc *scope) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages[feedURL] = first
	for i := range f.Items {
		it := &f.Items[i]
		d := it.Published
		if d.IsZero() {
			d = it.Updated
		}
		if u, _ := sc.identity(firstNonEmpty(it.Link, it.GUID)); u != "" && !d.IsZero() {
			if _, ok := s.dates[u]; !ok {
				s.dates[u] = sideItem{date: d, feedURL: feedURL, format: f.Format, item: it, read: first.Captured}
			}
		}
	}
}

// feedDate returns the date some feed of the blog gives the post at p,
// with the item, reading the side feeds that may list it (sideFeedsOf) as
// needed.
func (w *pageWorker) feedDate(ctx context.Context, p *fetchedPage) (sideItem, bool) {
	if w.side == nil {
		return sideItem{}, false
	}
	if t, ok := w.side.date(p.ident); ok {
		return t, true
	}
	for _, fu := range w.sideFeedsOf(p) {
		ch, mine := w.side.claim(fu)
		switch {
		case mine:
			f, files, err := feed.FetchAll(ctx, w.fetch.client, fu, feed.PageOptions{MaxPages: 1, DatesOnly: true})
			if err != nil || len(files) == 0 {
				w.log.Debug("side feed", "url", fu, "err", err)
			} else {
				w.side.add(fu, f, files[0], w.site.scope)
			}
			close(ch)
		case ch != nil:
			select {
			case <-ch:
			case <-ctx.Done():
				return sideItem{}, false
			}
		}
		if t, ok := w.side.date(p.ident); ok {
			return t, true
		}
	}
	return sideItem{}, false
}

// sideFeedsOf lists the feeds that may date the post at p, in order: the
// feeds its page advertises (other than the posts feed and comment feeds),
// then the section feeds its platform keeps at each folder above it.
func (w *pageWorker) sideFeedsOf(p *fetchedPage) []string {
	var out []string
	sc := w.site.scope
	self := strings.TrimSuffix(p.ident, "/")
	posts := sc.fold(w.site.blog.FeedURL)
	for _, f := range p.info.feeds {
		f = sc.fold(f) // one feed under both schemes is read once (scope.identity)
		u, err := url.Parse(f)
		if err != nil || f == posts || (w.site.feed != nil && f == sc.fold(w.site.feed.URL)) || strings.HasPrefix(f, self+"/") ||
			platform.SiteCommentFeed(u.Path) || comments.IsBloggerPostFeed(f) || !w.site.scope.contains(u) {
			continue
		}
		out = appendNew(out, f)
	}
	row, ok := platform.Platform{}, false
	if w.site.feed != nil && w.site.feed.PlatformID != "" {
		row, ok = platform.ByID(w.site.feed.PlatformID)
	}
	if ok && row.SectionFeed != "" {
		segs := segments(p.url.EscapedPath())
		for i := len(segs) - 1; i >= 1; i-- {
			u := &url.URL{Scheme: p.url.Scheme, Host: p.url.Host}
			blogharvest.SetEscapedPath(u, "/"+strings.Join(segs[:i], "/")+"/"+row.SectionFeed)
			if s := sc.fold(u.String()); s != posts && (w.site.feed == nil || s != sc.fold(w.site.feed.URL)) {
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
	if it, ok := w.feedDate(ctx, j.page); ok {
		e.Created, e.CreatedPrecision = it.date, ""
		e.Provenance.Set("date_created", blogharvest.MethodFeed)
		if raw := itemXML(it.item); len(raw) > 0 {
			f := blogharvest.File{URL: it.feedURL, Role: blogharvest.RoleFeed, MediaType: feedMediaType(it.format),
				Body: raw, Captured: it.read}
			f.Sum()
			e.Files = append(e.Files, f)
		}
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
