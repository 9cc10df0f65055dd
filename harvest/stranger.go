package harvest

import (
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
// archive's posts are loaded (discover.Moves.ProbeArchive), the blog is a stranger when
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
