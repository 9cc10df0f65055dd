package feed

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/platform"
)

// FetchAll fetches feedURL and pages beyond it: RFC 5005 rel="next" and
// rel="prev-archive" links first, else Blogger start-index/max-results
// (bounded by openSearch:totalResults), else WordPress ?paged=N. Paging
// stops at a page that brings nothing new, an empty page, a guessed page
// that is not found, o.MaxPages, or a page all older than o.Since (once
// o.Enough, if set, is satisfied).
//
// The Feed carries the first page's metadata and every page's items, each
// once; files holds every page as a RoleFeed capture. A 304 answer to the
// conditional first request returns a Feed with NotModified set and no
// items. If a later page fails, the pages so far are returned with the
// error.
func FetchAll(ctx context.Context, c *fetch.Client, feedURL string, o PageOptions) (*Feed, []blogharvest.File, error) {
	resp, err := Request(ctx, c, feedURL, o.ETag, o.LastModified)
	if err != nil {
		return nil, nil, err
	}
	return FetchFrom(ctx, c, resp, o)
}

// Request fetches the first page of a feed, conditionally when etag or
// lastModified is set, as FetchAll does; FetchFrom reads on from it.
func Request(ctx context.Context, c *fetch.Client, feedURL, etag, lastModified string) (*fetch.Response, error) {
	return c.Do(ctx, fetch.Request{URL: feedURL, ETag: etag, LastModified: lastModified, Accept: acceptFeeds})
}

// FetchFrom is FetchAll given the response to the first request (from
// Request), so that a caller who looked at the feed first does not fetch
// it twice. o.ETag and o.LastModified are what that request sent.
func FetchFrom(ctx context.Context, c *fetch.Client, resp *fetch.Response, o PageOptions) (*Feed, []blogharvest.File, error) {
	if resp.NotModified {
		return &Feed{URL: resp.URL, NotModified: true, ETag: o.ETag, LastModified: o.LastModified}, nil, nil
	}
	files := []blogharvest.File{resp.File(blogharvest.RoleFeed)}
	first, err := parseAs(resp.Body, resp.URL, o.DatesOnly)
	if err != nil {
		return nil, files, err
	}
	first.ETag, first.LastModified = resp.Header.Get("ETag"), resp.Header.Get("Last-Modified")
	p := newPager(first, o, true)
	first.FirstPage = len(first.Items)
	more, err := p.run(ctx, c)
	return first, append(files, more...), err
}

// pager walks the pages after the first.
type pager struct {
	all       *Feed // the first page, collecting every page's items
	o         PageOptions
	wordpress bool // may guess the platform's ?paged=N (platform.PagingQuery)
	seen      map[string]bool
	visited   map[string]bool
	page      int // pages fetched
	bytes     int64
	cut       string // the PageOptions bound that stopped paging; "" when none did
}

func newPager(first *Feed, o PageOptions, wordpress bool) *pager {
	if o.MaxPages <= 0 {
		o.MaxPages = DefaultMaxPages
	}
	p := &pager{all: first, o: o, seen: map[string]bool{}, visited: map[string]bool{first.URL: true}, page: 1}
	p.wordpress = wordpress && first.row().FeedPaging == platform.PagingQuery
	items := first.Items
	first.Items = nil
	p.add(items)
	return p
}

// add keeps the items not seen yet and reports how many there were.
func (p *pager) add(items []Item) int {
	n := 0
	for _, it := range items {
		k := itemKey(it)
		if k != "" && p.seen[k] {
			continue
		}
		p.seen[k] = true
		if p.o.MaxItems > 0 && len(p.all.Items) >= p.o.MaxItems {
			p.cut = fmt.Sprintf("max_comments_per_post %d reached", p.o.MaxItems)
			break
		}
		p.all.Items = append(p.all.Items, it)
		n++
	}
	return n
}

// itemKey identifies an item across pages: its GUID and link together
// (WordPress imports can give two posts one GUID), else its title and date.
func itemKey(it Item) string {
	if it.GUID == "" && it.Link == "" {
		return it.Title + "\x00" + it.Published.String()
	}
	return it.GUID + "\x00" + it.Link
}

// run fetches pages until a stop condition; it returns their captures.
func (p *pager) run(ctx context.Context, c *fetch.Client) ([]blogharvest.File, error) {
	var files []blogharvest.File
	cur := p.all
	curItems := p.all.Items
	for p.page < p.o.MaxPages && !p.allOlder(curItems) {
		next, guessed := p.nextURL(cur, len(curItems))
		if next == "" {
			return files, nil
		}
		if p.bounded() {
			return files, nil
		}
		p.visited[next] = true
		f, file, err := fetchPage(ctx, c, next, p.o.DatesOnly)
		if file != nil {
			files = append(files, *file)
			p.bytes += file.Size
		}
		if err != nil {
			if guessed && isNotFound(err) {
				return files, nil
			}
			return files, fmt.Errorf("feed %s page %d: %w", p.all.URL, p.page+1, err)
		}
		p.page++
		if p.add(f.Items) == 0 {
			return files, nil
		}
		cur, curItems = f, f.Items
	}
	return files, nil
}

// bounded reports whether the items or bytes held reach PageOptions'
// MaxItems or MaxBytes, with a next page to read: p.cut says which.
func (p *pager) bounded() bool {
	switch {
	case p.o.MaxItems > 0 && len(p.all.Items) >= p.o.MaxItems:
		p.cut = fmt.Sprintf("max_comments_per_post %d reached", p.o.MaxItems)
	case p.o.MaxBytes > 0 && p.bytes >= p.o.MaxBytes:
		p.cut = fmt.Sprintf("max_comment_bytes %d reached", p.o.MaxBytes)
	default:
		return false
	}
	return true
}

// fetchPage fetches and parses one page after the first: a
// fetch.FeedPage, which may lie on a platform's feed host.
func fetchPage(ctx context.Context, c *fetch.Client, u string, datesOnly bool) (*Feed, *blogharvest.File, error) {
	resp, err := c.Do(ctx, fetch.Request{URL: u, Accept: acceptFeeds, Kind: fetch.FeedPage})
	if err != nil {
		return nil, nil, err
	}
	file := resp.File(blogharvest.RoleFeed)
	f, err := parseAs(resp.Body, resp.URL, datesOnly)
	return f, &file, err
}

// allOlder reports whether Since is set, every dated item is older and
// Enough, if set, is satisfied.
func (p *pager) allOlder(items []Item) bool {
	if p.o.Since.IsZero() || len(items) == 0 {
		return false
	}
	if p.o.Enough != nil && !p.o.Enough(p.all.Items) {
		return false
	}
	older := 0
	for _, it := range items {
		if d := itemDate(it); !d.IsZero() && d.Before(p.o.Since) {
			older++
		}
	}
	return older == len(items) || p.o.NewestFirst && older > 0
}

// nextURL picks the next page after cur (which held n items); guessed is
// true when the URL was constructed rather than given by the feed.
func (p *pager) nextURL(cur *Feed, n int) (next string, guessed bool) {
	for _, u := range cur.Next {
		if !p.visited[u] {
			return u, false
		}
	}
	if len(cur.Next) > 0 || n == 0 {
		return "", false
	}
	if u := bloggerNext(cur, n); u != "" && !p.visited[u] {
		return u, true
	}
	if p.wordpress {
		if u := withQuery(p.all.URL, "paged", strconv.Itoa(p.page+1)); !p.visited[u] {
			return u, true
		}
	}
	return "", false
}

// bloggerNext builds the next start-index URL of a feed the platform
// pages by start-index (platform.PagingStartIndex: Blogger), or of one
// under /feeds/ that counts its results.
func bloggerNext(cur *Feed, n int) string {
	u, err := url.Parse(cur.URL)
	startIndex := cur.row().FeedPaging == platform.PagingStartIndex
	if err != nil || !startIndex && !strings.Contains(u.Path, "/feeds/") {
		return ""
	}
	if cur.TotalResults == 0 && !startIndex {
		return ""
	}
	q := u.Query()
	start, _ := strconv.Atoi(q.Get("start-index"))
	start = max(start, 1) + n
	if cur.TotalResults > 0 && start > cur.TotalResults {
		return ""
	}
	q.Set("start-index", strconv.Itoa(start))
	if q.Get("max-results") == "" {
		q.Set("max-results", strconv.Itoa(n))
	}
	u.RawQuery = q.Encode()
	return u.String()
}

// withQuery returns raw with the query parameter k set to v.
func withQuery(raw, k, v string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	q := u.Query()
	q.Set(k, v)
	u.RawQuery = q.Encode()
	return u.String()
}

func isNotFound(err error) bool {
	var se *fetch.StatusError
	return errors.As(err, &se) && (se.Code == http.StatusNotFound || se.Code == http.StatusGone)
}
