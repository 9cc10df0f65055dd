package discover

import (
	"net/url"

	"github.com/blogharvest/blogharvest/harvest/feed"
)

// Scope is the blog's scope as the crawl holds it, for the feed's items.
type Scope interface {
	Canon
	// Excluded reports whether u is left out by the blog's exclude
	// patterns.
	Excluded(u *url.URL) bool
	// Page reports whether u is a page of the blog: in its scope, and
	// not media, an asset or a machine endpoint.
	Page(u *url.URL) bool
}

// Items is the crawl's side of the feed's items: its ledger, the claims
// of the pages feed items wait for, and its frontier.
type Items interface {
	// Met notes u as met through the feed.
	Met(u string)
	// Excluded notes the link of an item the exclude patterns leave out.
	Excluded(link string)
	// Elsewhere notes an item's link outside the blog, whose guid page
	// is the item's page.
	Elsewhere(link, page string)
	// Queue makes the item it wait for its page u and queues u as a post
	// at rank (higher is newer), unless another item waits for u
	// already; it reports whether it did.
	Queue(u string, it *feed.Item, rank int) bool
}

// Seeded is what the feed's items seeded: the item pages queued, in the
// feed's order (the training pages are taken from them); the URLs that
// show what posts look like (those pages and the links excluded), for the
// post pattern; the items whose page is not the blog's (feed-only
// entries); and how many links the exclude patterns left out.
type Seeded struct {
	URLs     []*url.URL
	Shapes   []*url.URL
	Offsite  []*feed.Item
	Excluded int
}

// SeedFeed hands the feed's items to the crawl (newest first, the feed's
// order): an item whose link is excluded is noted and counted, one whose
// page is not the blog's is kept for a feed-only entry, and every other
// item's page (ItemURL) is queued unless another item waits for it.
func SeedFeed(items []feed.Item, scope Scope, d Items) Seeded {
	var s Seeded
	for i := range items {
		it := &items[i]
		if l := parsedCanonical(scope, it.Link); l != nil && scope.Excluded(l) {
			s.Excluded++
			d.Excluded(l.String())
			s.Shapes = append(s.Shapes, l) // excluded, but it still shows what posts look like
			continue
		}
		u := ItemURL(it, scope)
		if u == nil {
			d.Met(canonicalString(scope, it.Link))
			s.Offsite = append(s.Offsite, it)
			continue
		}
		d.Met(u.String())
		if l := canonicalString(scope, it.Link); l != "" && l != u.String() {
			d.Elsewhere(l, u.String())
		}
		if !d.Queue(u.String(), it, len(items)-i) {
			continue
		}
		s.URLs = append(s.URLs, u)
		s.Shapes = append(s.Shapes, u)
	}
	return s
}

// ItemURL returns the page of a feed item: its link, else its guid, the
// first that is a page of the blog (Scope.Page); nil when neither is.
func ItemURL(it *feed.Item, scope Scope) *url.URL {
	for _, raw := range []string{it.Link, it.GUID} {
		if u := parsedCanonical(scope, raw); u != nil && scope.Page(u) {
			return u
		}
	}
	return nil
}
