package harvest

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/discover"
)

// A stranger at the old address (the domain lapsed: a parking page, spam,
// another person's blog) is told from a blog that moved or was redesigned
// by what UpdateCrawl finds of the archived posts, never by the page
// around them (a move and a redesign change the engine, the theme and the
// generator too). When a move is suspected (discover.Moves.Suspect) and the
// archive's posts are loaded (probeMoves), the blog is a stranger when
// nothing found is one of them: no archived URL redirects anywhere, no
// item of the feed is at an archived URL or has an archived guid or an
// archived post's title on its day, and the text of every item is unlike
// every archived post's (TokenF1 under StrangerThreshold). When the
// archived feed fails and no feed is found again (a parking page), the
// blog is a stranger when its address answered (not a 5xx, not a
// connection error: that blog is down) and none of its newest archived
// posts (discover.StrangerProbes, asked for by discover.Moves.AskNewest)
// is at its URL with its text. The run then archives nothing:
// UpdateCrawl returns an *IdentityError with the evidence, and the
// ledger of its Result holds the URLs asked for.
// Options.AcceptIdentity, the archivist's confirmation, turns the check
// off. doc/lifecycle.md says why.

// ErrIdentityChanged is what an *IdentityError is (errors.Is).
var ErrIdentityChanged = errors.New("the site at the blog's address is no longer the blog archived")

// IdentityError is UpdateCrawl's error when the site at the blog's
// address is no longer the blog archived: nothing was archived.
type IdentityError struct {
	Blog     string   // the blog's URL
	Evidence []string // what the crawl found, one finding per line
}

// Error names the blog and sums the evidence up.
func (e *IdentityError) Error() string {
	return fmt.Sprintf("harvest %s: identity changed: %s (nothing archived; set accept_change to archive the site as the blog's)",
		e.Blog, strings.Join(e.Evidence, "; "))
}

// Is makes errors.Is(err, ErrIdentityChanged) true.
func (e *IdentityError) Is(target error) bool { return target == ErrIdentityChanged }

// StrangerThreshold is the TokenF1 (textsim) under which the text of a
// feed item is unlike an archived post's (discover.StrangerThreshold,
// weighed by discover.MoveIndex.Identity). The texts of two different
// posts of one blog of ../shared/corpus reach 0.481 at the 99.9th
// percentile (TestMoveThresholdFigures); texts of another blog are less
// alike still. doc/lifecycle.md gives the figures.
const StrangerThreshold = discover.StrangerThreshold

// checkIdentity returns an *IdentityError when the blog seemed to move
// (discover.Moves.Suspect) and nothing the crawl found is one of the
// archive's posts (c.move.archive, probeMoves), as the move stage weighs
// the feed's items (discover.MoveIndex.Identity); nil otherwise, or when
// Options.AcceptIdentity.
func (c *crawl) checkIdentity() error {
	if c.o.AcceptIdentity || !c.site.moving || c.move.archive == nil || c.move.archive.idx.Len() == 0 || c.site.feed == nil {
		return nil
	}
	items := c.site.feed.Items
	id := c.move.archive.idx.Identity(items)
	switch {
	case id.Redirected:
		return nil // an archived URL leads to a page of the site: the blog moved
	case id.By != "":
		c.log.Info("a feed item is an archived post: the blog moved, it is no stranger", "item", id.Item, "by", id.By)
		return nil
	case !id.Stranger():
		c.log.Info("a feed item's text is like an archived post's: not taken for a stranger", "item", id.BestItem, "similarity", id.Best)
		return nil
	}
	feedNote := "the feed " + c.site.blog.FeedURL
	if c.move.feedFrom != "" {
		feedNote += " (the archived feed " + c.move.feedFrom + " is gone)"
	}
	ev := []string{
		fmt.Sprintf("%s lists %d items, none of them one of the %d archived posts (by URL, feed guid, or title and day)", feedNote, len(items), c.move.archive.idx.Len()),
		"no archived URL redirects to the site",
		fmt.Sprintf("the text of no item is like an archived post's (highest similarity %.2f, under %.2f)", id.Best, StrangerThreshold),
	}
	return c.stranger(ev)
}

// strangerWithoutFeed returns an *IdentityError when the archived feed
// failed with cause (discover.Moves.FeedMayHaveMoved), no feed was found
// again (found: feed.Discover's error), the blog's address answered (a
// 4xx, or a page with no feed: not a 5xx or a connection error, a blog
// down) and none of the newest archived posts is at its URL with its
// text, as the move stage found asking for them (discover.Moves.AskNewest,
// whose ledger lines and pages it applies); nil otherwise, or when
// Options.AcceptIdentity or the archive's posts are unknown.
func (c *crawl) strangerWithoutFeed(ctx context.Context, cause, found error) error {
	if c.o.AcceptIdentity || !c.pol.useState || c.o.ArchivedPosts == nil || c.emit == nil || !answered(found) {
		return nil
	}
	posts, err := c.o.ArchivedPosts()
	if err != nil || len(posts) == 0 {
		return nil
	}
	a := c.move.stage.AskNewest(ctx, posts)
	c.ledger.apply(a.Lines)
	c.res.Pages += a.Pages
	if a.Still != "" {
		c.log.Info("an archived post is still at its URL: the feed is gone, the blog is no stranger", "url", a.Still, "similarity", a.Similarity)
	}
	if !a.Stranger() {
		return nil
	}
	ev := []string{
		fmt.Sprintf("the archived feed %s answered %v", c.site.blog.FeedURL, cause),
		fmt.Sprintf("no feed found again from %s: %v", c.site.blog.URL, found),
		fmt.Sprintf("none of the %d newest archived posts asked for is at its URL (highest text similarity %.2f, under %.2f)", a.Asked, a.Best, StrangerThreshold),
	}
	return c.stranger(ev)
}

// answered reports whether err says the server answered: a 4xx, or a
// page without a feed; not a 5xx, a connection error or a timeout
// (discover.Answered).
func answered(err error) bool { return discover.Answered(err) }

// stranger makes the crawl's IdentityError of ev: logged, a warning of
// the Result, and a row of the ledger for the blog's URL.
func (c *crawl) stranger(ev []string) error {
	e := &IdentityError{Blog: c.o.Blog.URL, Evidence: ev}
	c.stats.warnf("identity changed: %s", strings.Join(ev, "; "))
	if u := canonicalOr(c.o.Blog.URL); u != "" {
		c.ledger.force(u, FateSkipped, "identity changed: "+strings.Join(ev, "; ")+"; nothing archived", "identity")
	}
	return blogharvest.Permanent(e)
}
