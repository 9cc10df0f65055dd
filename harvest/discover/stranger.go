package discover

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/textsim"
)

// A stranger at the blog's address: when a move is suspected and the
// archive's posts were read (ProbeArchive), CheckIdentity weighs the
// feed's items against them (MoveIndex.Identity); when the archived feed
// is gone and no feed is found again (a parking page), NoFeed asks for
// the newest archived posts (AskNewest). Each returns the evidence of a
// stranger as lines (nil: no stranger), NoFeed also what it asked as a
// value, Asked; harvest applies them (the ledger lines, the pages
// counted, the IdentityError: its stranger.go).

// StrangerProbes is how many of the newest archived posts a crawl whose
// feed is gone asks for before it takes the address for a stranger's.
const StrangerProbes = 5

// Asked is what asking for the newest archived posts found
// (Moves.AskNewest).
type Asked struct {
	// Down: an archived post's URL did not answer (a 5xx, a 408 or 429,
	// a connection error: the blog is down, not a stranger); nothing
	// was asked after it.
	Down bool
	// Still is the URL of an archived post still at its URL with its
	// text (TokenF1 at least StrangerThreshold: Similarity), "" when
	// none was; nothing was asked after it.
	Still      string
	Similarity float64
	// Asked is the posts asked for, Pages the pages received, Best the
	// highest similarity of a page's text to its post's.
	Asked, Pages int
	Best         float64
	// Lines are the ledger rows of the posts not found at their URLs.
	Lines []LedgerLine
}

// Stranger reports whether what was asked shows a stranger at the
// address: posts were asked, the address answered, none is still there.
func (a Asked) Stranger() bool { return a.Asked > 0 && !a.Down && a.Still == "" }

// AskNewest asks for the StrangerProbes newest of posts (by Created, the
// undated last) at their canonical URLs, until one is still there or the
// site does not answer (Answered). posts is not changed.
func (m *Moves) AskNewest(ctx context.Context, posts []ArchivedPost) Asked {
	posts = slices.Clone(posts)
	slices.SortStableFunc(posts, func(a, b ArchivedPost) int { return b.Created.Compare(a.Created) })
	var a Asked
	for _, p := range posts[:min(len(posts), StrangerProbes)] {
		u := canonicalString(m.deps.Canon, p.URL)
		if u == "" || ctx.Err() != nil {
			continue
		}
		a.Asked++
		resp, err := m.deps.Fetch.Get(ctx, u)
		if err != nil {
			if !Answered(err) {
				a.Down = true
				return a
			}
			a.Lines = append(a.Lines, LedgerLine{URL: u, Fate: FateFailed, Detail: fmt.Sprintf("archived post, not at its URL: %v (identity check)", err), Via: "archived"})
			continue
		}
		a.Pages++
		s := 0.0
		if text, _, terr := resp.Text(); terr == nil {
			s = textsim.TokenF1(textsim.HTMLText(string(text)), p.Text)
		}
		a.Best = max(a.Best, s)
		if s >= StrangerThreshold {
			a.Still, a.Similarity = u, s
			return a
		}
		a.Lines = append(a.Lines, LedgerLine{URL: u, Fate: FateSkipped, Detail: fmt.Sprintf("archived post, its URL answers another page (text similarity %.2f): not archived, identity changed", s), Via: "archived"})
	}
	return a
}

// CheckIdentity returns the evidence that the site at the blog's address
// is a stranger's when a move was suspected (Suspect) and nothing
// of the feed f is one of the archive's posts read by ProbeArchive, as
// MoveIndex.Identity weighs its items: no archived URL redirects to the
// site, no item is found again, no item's text is like an archived
// post's. feedURL is the feed read, feedFrom the archived feed it
// replaced ("" when the feed did not move). It returns nil when the site
// may be the blog, when the archive's posts were not read or are none,
// and with the config's AcceptIdentity.
func (m *Moves) CheckIdentity(f *feed.Feed, feedURL, feedFrom string) []string {
	if m.cfg.AcceptIdentity || !m.moving || m.index == nil || m.index.Len() == 0 || f == nil {
		return nil
	}
	id := m.index.Identity(f.Items)
	switch {
	case id.Redirected:
		return nil // an archived URL leads to a page of the site: the blog moved
	case id.By != "":
		m.deps.Log.Info("a feed item is an archived post: the blog moved, it is no stranger", "item", id.Item, "by", id.By)
		return nil
	case !id.Stranger():
		m.deps.Log.Info("a feed item's text is like an archived post's: not taken for a stranger", "item", id.BestItem, "similarity", id.Best)
		return nil
	}
	feedNote := "the feed " + feedURL
	if feedFrom != "" {
		feedNote += " (the archived feed " + feedFrom + " is gone)"
	}
	return []string{
		fmt.Sprintf("%s lists %d items, none of them one of the %d archived posts (by URL, feed guid, or title and day)", feedNote, len(f.Items), m.index.Len()),
		"no archived URL redirects to the site",
		fmt.Sprintf("the text of no item is like an archived post's (highest similarity %.2f, under %.2f)", id.Best, StrangerThreshold),
	}
}

// NoFeed weighs a blog whose archived feed feedURL failed with cause
// (FeedMayHaveMoved) and whose feed was not found again from blogURL
// (found: feed.Discover's error): when the address answered (found is
// Answered: a 4xx, or a page with no feed; not a blog down) it asks for
// the newest archived posts (AskNewest) and returns what it asked, for
// the crawl to apply (the ledger lines, the pages), and the evidence of
// a stranger when none of them is at its URL with its text (nil: no
// stranger). Nothing is asked in a crawl not from the last crawl's
// state, with the config's AcceptIdentity, or when the archive's posts
// are unknown, unreadable or none.
func (m *Moves) NoFeed(ctx context.Context, feedURL, blogURL string, cause, found error) (Asked, []string) {
	if m.cfg.AcceptIdentity || !m.cfg.UseState || m.deps.Posts == nil || !Answered(found) {
		return Asked{}, nil
	}
	posts, err := m.deps.Posts()
	if err != nil || len(posts) == 0 {
		return Asked{}, nil
	}
	a := m.AskNewest(ctx, posts)
	if a.Still != "" {
		m.deps.Log.Info("an archived post is still at its URL: the feed is gone, the blog is no stranger", "url", a.Still, "similarity", a.Similarity)
	}
	if !a.Stranger() {
		return a, nil
	}
	return a, []string{
		fmt.Sprintf("the archived feed %s answered %v", feedURL, cause),
		fmt.Sprintf("no feed found again from %s: %v", blogURL, found),
		fmt.Sprintf("none of the %d newest archived posts asked for is at its URL (highest text similarity %.2f, under %.2f)", a.Asked, a.Best, StrangerThreshold),
	}
}

// Answered reports whether err says the server answered: a 4xx, or a
// page without a feed; not a 5xx, a 408 or 429, a connection error or a
// timeout.
func Answered(err error) bool {
	var se *fetch.StatusError
	if errors.As(err, &se) {
		return se.Code >= 400 && se.Code < 500 && se.Code != 408 && se.Code != 429
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return false
	}
	return errors.Is(err, blogharvest.ErrNotBlog) || errors.Is(err, feed.ErrNotFeed)
}
