package harvest

import (
	"context"
	"maps"
	"slices"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/discover"
	"github.com/blogharvest/blogharvest/harvest/feed"
)

// A blog that moves (rebuilt with another engine at the same address, a
// new URL scheme, a new feed path) keeps its posts: UpdateCrawl finds the
// feed again when the archived one fails, suspects a move when the feed
// moved or most of its first page is at URLs the last crawl did not list,
// and asks for the archived URLs the feed no longer lists — decisions of
// the move stage, harvest/discover.Moves (FeedMayHaveMoved, FindMoved,
// Suspect, Probe), which this file applies (applyFeedMove, probeMoves) —
// and then matches each post it emits with the archive's (ArchivedPost,
// Options.ArchivedPosts; the matching is the stage's discover.MoveIndex,
// which identify and movedState apply), by the strongest evidence first: an HTTP
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
	// archive is the archive's posts (probeMoves), posts the posts of
	// this crawl that moved: new URL → archived URL (identify).
	archive *moveIndex
	posts   map[string]string
	// rediscoverErr is why the feed was not found again: the
	// evidence strangerWithoutFeed weighs (stranger.go).
	rediscoverErr error
	// stage is the move stage (harvest/discover.Moves: whether the feed
	// may have moved, the suspicion, the archived URLs asked for), built
	// with the client (newClient) from cfg, built once in newCrawl.
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

// moveIndex is the crawl's matching of moved posts: the archive's posts
// indexed by the move stage (discover.MoveIndex, whose answers depend
// only on what it is asked) and the posts this crawl matched already
// (taken: post → the new URL matched with it), which identify writes and
// the index is given (one crawl's, used by the coordinator only).
type moveIndex struct {
	idx   *discover.MoveIndex
	taken map[int]string
}

// newMoveIndex indexes posts (discover.NewMoveIndex).
func newMoveIndex(posts []ArchivedPost) *moveIndex {
	return &moveIndex{idx: discover.NewMoveIndex(posts, discoverCanon{}), taken: map[int]string{}}
}

// redirect notes that the archived post i led to target
// (discover.MoveIndex.Redirect).
func (m *moveIndex) redirect(target string, i int) { m.idx.Redirect(target, i) }

// archivedAt returns the archived post e is archived as already, -1 if
// none (discover.MoveIndex.ArchivedAt).
func (m *moveIndex) archivedAt(e *blogharvest.Entry) int { return m.idx.ArchivedAt(e) }

// match returns the archived post e is, not taken yet, and how it was
// matched; -1 when none is (discover.MoveIndex.Match).
func (m *moveIndex) match(e *blogharvest.Entry) (int, string) { return m.idx.Match(e, m.taken) }

// foundAgain says how the feed item it is one of the archived posts, ""
// when it is none (discover.MoveIndex.FoundAgain).
func (m *moveIndex) foundAgain(it *feed.Item) string { return m.idx.FoundAgain(it) }

// applyFeedMove applies what looking for the failed feed again found
// (discover.Feeds.FindMoved): when another feed was found it is the
// blog's feed (kept in State.Feed for the next crawls), the old feed's
// ledger line is written, and the home page read to find it is counted,
// kept in the Blog record and parsed (movedHome); when none was,
// rediscoverErr keeps why. It reports whether the feed moved.
func (c *crawl) applyFeedMove(mv discover.FeedMove) bool {
	if !mv.Moved {
		c.move.rediscoverErr = mv.Err
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

// probeMoves loads the archive's posts when a move is suspected
// (site.moving: discover.Moves.Suspect) and has the move stage ask for
// the archived URLs the feed no longer lists (discover.Moves.Probe); it
// applies what that found: the redirects to the move index, the ledger
// lines, the pages fetched.
func (c *crawl) probeMoves(ctx context.Context) {
	if !c.site.moving || c.o.ArchivedPosts == nil || c.emit == nil {
		return
	}
	posts, err := c.o.ArchivedPosts()
	if err != nil {
		c.stats.warnf("the archive's posts could not be read (%v): moved posts are matched only by State.Moved", err)
		return
	}
	c.move.archive = newMoveIndex(posts)
	listed := map[string]bool{}
	for _, u := range c.disc.feedURLs {
		listed[u.String()] = true
	}
	archived := make([]string, len(posts))
	for i, p := range posts {
		archived[i] = canonicalOr(p.URL)
	}
	pr := c.move.stage.Probe(ctx, archived, listed)
	for _, r := range pr.Redirects {
		c.move.archive.redirect(r.Target, r.Post)
	}
	c.ledger.apply(pr.Lines)
	c.res.Pages += pr.Pages
}

// identify gives e, about to be emitted by UpdateCrawl, the URL of the
// archived post it continues among its aliases when it moved: the one
// State.Moved names, else the one probeMoves and match find. It returns
// that URL ("" when e did not move), and notes the move in the ledger,
// the log and State.Moved.
func (c *crawl) identify(e *blogharvest.Entry) string {
	if !c.pol.useState {
		return ""
	}
	old, how := c.o.State.Moved[e.URL], ""
	if old == "" && c.move.archive != nil {
		if c.move.archive.archivedAt(e) >= 0 {
			return "" // archived under this URL or one of its aliases already
		}
		i, why := c.move.archive.match(e)
		if i < 0 {
			c.log.Info("post at a new URL matches no archived post: a new entry", "url", e.URL)
			return ""
		}
		c.move.archive.taken[i] = e.URL
		old, how = canonicalOr(c.move.archive.idx.Post(i).URL), why
	}
	if old == "" || old == e.URL {
		return ""
	}
	if !contains(e.Aliases, old) {
		e.Aliases = append(e.Aliases, old)
	}
	if c.move.posts == nil {
		c.move.posts = map[string]string{}
	}
	c.move.posts[e.URL] = old
	if how != "" {
		c.res.Moved++
		c.log.Info("post moved", "from", old, "to", e.URL, "matched_by", how)
		c.ledger.force(old, FateRedirect, e.URL+" (the post moved: matched by "+how+")", "archived")
	}
	return old
}

// movedState returns State.Moved: the last crawl's, with this crawl's
// moves.
func (c *crawl) movedState() map[string]string {
	if len(c.o.State.Moved) == 0 && len(c.move.posts) == 0 {
		return nil
	}
	out := maps.Clone(c.o.State.Moved)
	if out == nil {
		out = map[string]string{}
	}
	for _, k := range slices.Sorted(maps.Keys(c.move.posts)) {
		out[k] = c.move.posts[k]
	}
	return out
}
