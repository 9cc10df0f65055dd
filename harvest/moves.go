package harvest

import (
	"github.com/blogharvest/blogharvest/harvest/discover"
)

// A blog that moves (rebuilt with another engine at the same address, a
// new URL scheme, a new feed path) keeps its posts: UpdateCrawl finds the
// feed again when the archived one fails, suspects a move when the feed
// moved or most of its first page is at URLs the last crawl did not list,
// and asks for the archived URLs the feed no longer lists — decisions of
// the move stage, harvest/discover.Moves (FeedMayHaveMoved, FindMoved,
// Suspect, ProbeArchive), which this file applies (applyFeedMove,
// keepAsked) — and then matches each post it emits with the archive's
// (ArchivedPost, Options.ArchivedPosts; the matching is the stage's
// discover.Moves.Identify over its discover.MoveIndex, applied by
// emitEntry), by the strongest evidence first: an HTTP
// redirect or a redirect stub from the archived URL, the same feed guid,
// or the same title and day with the text alike (TokenF1 at least
// MoveThreshold). A matched post names its archived URL among its aliases,
// so that the archive writes it as a new version of that entry
// (aip.EntryDirIn), never as a second entry; the ledger gives the archived
// URL the fate redirect, its detail the new URL and how it was matched;
// State.Moved keeps the pair for every later crawl. doc/lifecycle.md says
// why.

// moveState is what a crawl learns of a blog that moved: the
// coordinator's alone.
type moveState struct {
	// feedFrom is the feed URL of State.Feed when it failed and another
	// was found (applyFeedMove); home the home page read then.
	feedFrom string
	home     *fetchedPage
	// stage is the move stage (harvest/discover.Moves: whether the feed
	// may have moved, the suspicion, the archived URLs asked for, the
	// archive's posts matched with this crawl's, State.Moved, the
	// stranger checks), built with the client (newClient) from cfg,
	// built once in newCrawl.
	stage *discover.Moves
	cfg   discover.MoveConfig
}

// ArchivedPost is what the archive holds of one entry of the blog (its
// latest version), for matching a post found at a new URL: the move
// stage's discover.ArchivedPost.
type ArchivedPost = discover.ArchivedPost

// MoveThreshold is the least TokenF1 (textsim) between the text of a post
// and that of an archived post of the same title and day for the two to
// be one post (discover.MoveIndex.Match; when either date is unknown,
// discover.MoveUndatedThreshold). doc/lifecycle.md gives the figures it
// was chosen from.
const MoveThreshold = discover.MoveThreshold

// MaxMoveProbes bounds the archived URLs a crawl that finds the blog
// moved asks for (discover.Moves.Probe).
const MaxMoveProbes = discover.MaxMoveProbes

// applyFeedMove applies what looking for the failed feed again found
// (discover.Feeds.FindMoved): when another feed was found it is the
// blog's feed (kept in State.Feed for the next crawls), the old feed's
// ledger line is written, and the home page read to find it is counted,
// kept in the Blog record and parsed (movedHome). It reports whether the
// feed moved (when it did not, mv.Err says why: discover.Moves.NoFeed
// weighs it).
func (c *crawl) applyFeedMove(mv discover.FeedMove) bool {
	if !mv.Moved {
		return false
	}
	c.move.feedFrom = mv.From
	c.site.blog.FeedURL = mv.To
	c.ledger.apply(mv.Lines)
	if mv.Home != nil {
		c.pages++
		c.res.Pages++
		c.homeFile(mv.Home)
		if p, err := newFetchedPage(mv.Home.Resp); err == nil {
			c.move.home = p
		}
	}
	return true
}

// keepAsked applies what a step of the move stage asked of the site
// (discover.Moves.ProbeArchive, NoFeed): the ledger lines of the URLs
// asked for, the pages fetched.
func (c *crawl) keepAsked(lines []discover.LedgerLine, pages int) {
	c.ledger.apply(lines)
	c.res.Pages += pages
}
