package discover_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/discover"
)

// TestFeedsFind: feed discovery on a blog on loopback whose home page
// (windows-1252) declares its Atom feed. Found at the blog's URL, the feed
// is the one declared, the home page is the page at the URL with its
// status, encoding and file, and the feed's first page, received by
// discovery, is not fetched again by Read. A known feed is taken without
// a request, and is the blog's URL when it names it; a home page not due
// is not fetched; a configured feed's URL is not fetched as the home
// page; a home page that fails is a warning naming the URL asked for.
func TestFeedsFind(t *testing.T) {
	t.Parallel()
	b := newFeedBlog(t)
	ctx := context.Background()
	home := b.srv.URL + "/"
	feedURL := b.srv.URL + "/feed.xml"

	f := b.feeds(t, discover.FeedConfig{})
	d, err := f.Find(ctx, discover.FindSite{URL: home, HomeDue: true}, scope{})
	if err != nil {
		t.Fatal(err)
	}
	if d.FeedURL != feedURL || d.URLIsFeed || d.FeedErr != nil || d.Home == nil {
		t.Fatalf("found %+v, want the feed %s and the home page", d, feedURL)
	}
	h := d.Home
	if h.Resp == nil || h.Err != nil || h.Status != http.StatusOK || h.URL != home || h.Encoding != "windows-1252" ||
		h.File.Role != blogharvest.RolePage || h.File.URL != home {
		t.Errorf("home page %+v (file %s %s), want %s's capture, 200, windows-1252", h, h.File.Role, h.File.URL, home)
	}
	if r := f.Read(ctx, feedURL, nil); r.Feed == nil || len(r.Feed.Items) != 3 {
		t.Fatalf("read %+v, want the feed's three items", r)
	}
	if n := b.requests("/feed.xml"); n != 1 {
		t.Errorf("the feed's first page fetched %d times, want once (kept from discovery)", n)
	}
	if n := b.requests("/"); n != 1 {
		t.Errorf("the home page fetched %d times, want once", n)
	}

	d, err = f.Find(ctx, discover.FindSite{URL: feedURL, KnownFeed: feedURL, HomeDue: true}, scope{})
	if err != nil || !d.URLIsFeed || d.Home != nil || d.FeedURL != feedURL {
		t.Errorf("known feed at the blog's URL: %+v, %v; want the feed, no home page", d, err)
	}
	d, err = f.Find(ctx, discover.FindSite{URL: home, KnownFeed: feedURL}, scope{})
	if err != nil || d.URLIsFeed || d.Home != nil || d.FeedURL != feedURL {
		t.Errorf("known feed, home page not due: %+v, %v; want the feed, no home page", d, err)
	}
	d, err = f.Find(ctx, discover.FindSite{URL: feedURL, FeedURL: feedURL, HomeDue: true}, scope{})
	if err != nil || d.Home != nil || d.FeedURL != feedURL {
		t.Errorf("configured feed as the blog's URL: %+v, %v; want the feed, no home page", d, err)
	}
	if n, m := b.requests("/"), b.requests("/feed.xml"); n != 1 || m != 1 {
		t.Errorf("after the known and configured feeds: %d requests of the home page, %d of the feed; want none more", n, m)
	}

	missing := b.srv.URL + "/gone/"
	if h := f.FetchHome(ctx, missing, feedURL); h == nil || h.Err == nil || h.URL != missing {
		t.Errorf("a home page that fails: %+v, want its error, naming %s", h, missing)
	}
	if _, err := f.Find(ctx, discover.FindSite{URL: missing, HomeDue: true}, scope{}); err == nil {
		t.Error("no feed found at a page that fails, but no error")
	}
}

// homePage is the blog's home page, in windows-1252, declaring its feed.
func homePage(base string) string {
	return fmt.Sprintf(`<!doctype html><html><head><meta charset="windows-1252"><title>Caf%s</title>
<link rel="alternate" type="application/atom+xml" href="%s/feed.xml"></head><body><p>Hello</p></body></html>`, "\xe9", base)
}
