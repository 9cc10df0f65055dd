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

// A stranger at the address when the archived feed is gone and no feed
// is found again (a parking page): the move stage asks for the newest
// archived posts (AskNewest) and says what it found as a value, Asked,
// which harvest's strangerWithoutFeed applies (the ledger lines, the
// pages counted, the IdentityError).

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
