package harvest

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/discover"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/textsim"
)

// A blog that moves (rebuilt with another engine at the same address, a
// new URL scheme, a new feed path) keeps its posts: UpdateCrawl finds the
// feed again when the archived one fails (findMovedFeed), suspects a move
// when the feed moved or most of its first page is at URLs the last crawl
// did not list (suspectMove), and then matches each post it emits with
// the archive's (ArchivedPost, Options.ArchivedPosts), by the strongest
// evidence first: an HTTP redirect or a redirect stub from the archived
// URL (probeMoves), the same feed guid, or the same title and day with
// the text alike (TokenF1 at least MoveThreshold). A matched post names
// its archived URL among its aliases, so that the archive writes it as a
// new version of that entry (aip.EntryDirIn), never as a second entry;
// the ledger gives the archived URL the fate redirect, its detail the new
// URL and how it was matched; State.Moved keeps the pair for every later
// crawl. doc/lifecycle.md says why.

// moveState is what a crawl learns of a blog that moved: the
// coordinator's alone.
type moveState struct {
	// feedFrom is the feed URL of State.Feed when it failed and another
	// was found (findMovedFeed); home the home page read then.
	feedFrom string
	home     *fetchedPage
	// archive is the archive's posts (probeMoves), posts the posts of
	// this crawl that moved: new URL → archived URL (identify).
	archive *moveIndex
	posts   map[string]string
	// rediscoverErr is why findMovedFeed found no feed again: the
	// evidence strangerWithoutFeed weighs (stranger.go).
	rediscoverErr error
}

// ArchivedPost is what the archive holds of one entry of the blog (its
// latest version), for matching a post found at a new URL.
type ArchivedPost struct {
	URL     string    // the canonical URL it is archived under (its entry's folder)
	Aliases []string  // its other URLs
	GUID    string    // its feed guid or platform id (Entry.AltIdentifier), "" if none
	Title   string    // its title
	Created time.Time // its creation date, zero if unknown
	Text    string    // the plain text of its content
}

// MoveThreshold is the least TokenF1 (textsim) between the text of a post
// and that of an archived post of the same title and day for the two to
// be one post. doc/lifecycle.md gives the figures it was chosen from.
const MoveThreshold = 0.8

// moveUndatedThreshold is MoveThreshold when either date is unknown:
// the title and the text alone must then agree almost entirely.
const moveUndatedThreshold = 0.95

// MaxMoveProbes bounds the archived URLs a crawl that finds the blog
// moved asks for (probeMoves).
const MaxMoveProbes = 1000

// moveIndex is the archive's posts, indexed for matching (one crawl's,
// used by the coordinator only).
type moveIndex struct {
	posts   []ArchivedPost
	byURL   map[string]int   // canonical URL or alias → post
	byGUID  map[string]int   // guid → post; -1 when two posts share it
	byTitle map[string][]int // normalised title → posts
	// redirects are the new URLs the archived URLs led to (probeMoves):
	// new canonical URL → post; -1 when two archived URLs led there.
	redirects map[string]int
	taken     map[int]string // post → the new URL matched with it
}

// newMoveIndex indexes posts.
func newMoveIndex(posts []ArchivedPost) *moveIndex {
	m := &moveIndex{posts: posts, byURL: map[string]int{}, byGUID: map[string]int{}, byTitle: map[string][]int{},
		redirects: map[string]int{}, taken: map[int]string{}}
	for i, p := range posts {
		for _, u := range append([]string{p.URL}, p.Aliases...) {
			if c := canonicalOr(u); c != "" {
				if _, dup := m.byURL[c]; !dup {
					m.byURL[c] = i
				}
			}
		}
		if p.GUID != "" {
			if _, dup := m.byGUID[p.GUID]; dup {
				m.byGUID[p.GUID] = -1
			} else {
				m.byGUID[p.GUID] = i
			}
		}
		if t := textsim.NormalizeText(p.Title); t != "" {
			m.byTitle[t] = append(m.byTitle[t], i)
		}
	}
	return m
}

// redirect notes that the archived post i led to target.
func (m *moveIndex) redirect(target string, i int) {
	if j, dup := m.redirects[target]; dup && j != i {
		m.redirects[target] = -1 // two archived posts lead there: a catch-all, no evidence
		return
	}
	m.redirects[target] = i
}

// archivedAt returns the archived post e is archived as already: its URL
// or one of its aliases is an archived post's URL or alias; -1 if none.
func (m *moveIndex) archivedAt(e *blogharvest.Entry) int {
	for _, u := range append([]string{e.URL}, e.Aliases...) {
		if i, ok := m.byURL[u]; ok {
			return i
		}
	}
	return -1
}

// match returns the archived post e is, by the strongest evidence
// (a redirect from its URL, the guid, title and day and text), and how
// it was matched; -1 when none is. A post matched once is not matched
// again.
func (m *moveIndex) match(e *blogharvest.Entry) (int, string) {
	free := func(i int) bool { _, t := m.taken[i]; return i >= 0 && !t }
	for _, u := range append([]string{e.URL}, e.Aliases...) {
		if i, ok := m.redirects[u]; ok && free(i) {
			return i, "redirect from the archived URL"
		}
	}
	if i, ok := m.byGUID[e.AltIdentifier]; ok && e.AltIdentifier != "" && free(i) {
		return i, "the same feed guid"
	}
	text := textsim.HTMLText(e.Content)
	best, score := -1, 0.0
	for _, i := range m.byTitle[textsim.NormalizeText(e.Title)] {
		p := m.posts[i]
		if !free(i) {
			continue
		}
		need := moveUndatedThreshold
		if !e.Created.IsZero() && !p.Created.IsZero() {
			if !sameDay(e.Created, p.Created) {
				continue
			}
			need = MoveThreshold
		}
		if s := textsim.TokenF1(text, p.Text); s >= need && s > score {
			best, score = i, s
		}
	}
	if best < 0 {
		return -1, ""
	}
	return best, fmt.Sprintf("title, date and text (similarity %.2f)", score)
}

// sameDay reports whether a and b are one day as two engines may write
// it: the same calendar day in either's zone or UTC, or less than a day
// apart (a date without a zone read in another).
func sameDay(a, b time.Time) bool {
	d := a.Sub(b)
	return textsim.SameCalendarDay(a, b) || d > -24*time.Hour && d < 24*time.Hour
}

// feedMayHaveMoved reports whether the error reading the known feed
// (UpdateCrawl, State.Feed) says it is no longer there: 404, 410, 403 or
// 401, or no feed at the URL. A blog that is down (5xx, no connection)
// has not moved.
func (c *crawl) feedMayHaveMoved(err error) bool {
	if !c.pol.useState || c.o.Blog.FeedURL != "" || c.move.feedFrom != "" || err == nil {
		return false
	}
	var se *fetch.StatusError
	if errors.As(err, &se) {
		switch se.Code {
		case 401, 403, 404, 410:
			return true
		}
	}
	return errors.Is(err, feed.ErrNotFeed)
}

// findMovedFeed looks for the blog's feed again, as a new crawl does
// (feed.Discover on the blog's URL), when the known feed failed with
// cause. It reports whether another feed was found: it is then the
// blog's feed (kept in State.Feed for the next crawls), the move is a
// warning and the old feed's ledger row, and the home page Discover read
// is kept (movedHome) when home is nil.
func (c *crawl) findMovedFeed(ctx context.Context, home *fetchedPage, cause error) bool {
	old := c.site.blog.FeedURL
	c.log.Info("the archived feed failed: looking for the blog's feed again", "feed", old, "err", cause)
	feedURL, resp, first, err := feed.Discover(ctx, c.client, c.site.blog.URL)
	if err != nil {
		c.stats.warnf("feed %s: %v; looked for the feed again from %s: %v", old, cause, c.site.blog.URL, err)
		c.move.rediscoverErr = err
		return false
	}
	if canonicalOr(feedURL) == canonicalOr(old) {
		return false
	}
	c.move.feedFrom = old
	c.site.blog.FeedURL = feedURL
	c.addOrigin(feedURL)
	c.disc.feeds.Keep(feedURL, first)
	c.stats.warnf("the posts feed moved: %s answered %v; the home page names %s, read instead and kept for the next crawls", old, cause, feedURL)
	if u := canonicalOr(old); u != "" {
		c.ledger.force(u, FateRedirect, canonicalOr(feedURL)+" (the posts feed moved: found again from the home page)", "feed")
	}
	if home == nil && resp != nil && !feed.Sniff(resp.Body) {
		c.pages++
		c.res.Pages++
		c.homeFile(discover.CaptureOf(resp))
		if p, err := newFetchedPage(resp); err == nil {
			c.move.home = p
		}
	}
	return true
}

// suspectMove decides, once the feed is read, whether UpdateCrawl
// matches the posts it emits with the archive's: when the feed moved, or
// when most items of the feed's first page (at least two) are at URLs
// the last crawl did not list while most of those it listed are gone —
// leaving out the items published since the last crawl: a blog that
// posted more than its feed lists has not moved.
func (c *crawl) suspectMove() {
	if !c.pol.useState || c.site.feed == nil {
		return
	}
	if c.move.feedFrom != "" {
		c.site.moving = true
		return
	}
	st := c.o.State.Items
	if len(st) == 0 {
		return
	}
	n := min(c.site.feed.FirstPage, len(c.site.feed.Items))
	now := map[string]bool{}
	fresh := 0
	for i := range c.site.feed.Items[:n] {
		it := &c.site.feed.Items[i]
		k := itemKey(it)
		if k == "" {
			continue
		}
		if _, ok := st[k]; !ok && !c.pol.since.IsZero() && it.Published.After(c.pol.since) {
			// A new post, published since the last crawl, at a URL it
			// could not know: a busy blog pushes the listed items out
			// with new posts, a move lists the old posts at new URLs
			// (with their old dates). No evidence of a move.
			fresh++
			continue
		}
		now[k] = true
	}
	known := 0
	for k := range now {
		if _, ok := st[k]; ok {
			known++
		}
	}
	gone := 0
	for k := range st {
		if !now[k] {
			gone++
		}
	}
	c.site.moving = len(now) >= 2 && known*2 < len(now) && gone*2 > len(st)
	if c.site.moving {
		c.log.Info("most feed items are at new URLs: matching the posts with the archive's", "items", len(now), "known", known, "new posts", fresh)
	}
}

// probeMoves loads the archive's posts when a move is suspected and asks
// for the archived URLs the feed no longer lists (at most MaxMoveProbes,
// none with Options.NoMoveProbes): an HTTP redirect or a redirect stub
// answering one names the post's new URL; an error is noted in the
// ledger (failed: the post is not at its archived URL).
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
	if c.o.NoMoveProbes {
		return
	}
	listed := map[string]bool{}
	for _, u := range c.disc.feedURLs {
		listed[u.String()] = true
	}
	probed := 0
	for i, p := range posts {
		u := canonicalOr(p.URL)
		if u == "" || listed[u] || ctx.Err() != nil {
			continue
		}
		if probed == MaxMoveProbes {
			c.stats.warnf("the blog moved: only %d of its archived URLs were asked for (MaxMoveProbes)", MaxMoveProbes)
			break
		}
		probed++
		c.step("archived URL " + u)
		resp, err := c.client.Get(ctx, u)
		if err != nil {
			c.ledger.set(u, FateFailed, fmt.Sprintf("archived post, not at its URL: %v", err), "archived")
			continue
		}
		c.res.Pages++
		target := canonicalOr(resp.URL)
		if target == u {
			target = ""
			if pg, perr := newFetchedPage(resp); perr == nil && pg.stub != "" {
				target = canonicalOr(pg.stub)
			}
		}
		if target != "" && target != u {
			c.move.archive.redirect(target, i)
			c.ledger.set(u, FateRedirect, target, "archived")
		} else {
			c.ledger.met(u, "archived")
		}
	}
	c.log.Info("the blog moved: archived URLs asked for", "archived", len(posts), "asked", probed, "redirects", len(c.move.archive.redirects))
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
		old, how = canonicalOr(c.move.archive.posts[i].URL), why
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
