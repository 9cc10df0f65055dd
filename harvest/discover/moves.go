package discover

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// A blog that moved (rebuilt with another engine at the same address, a
// new URL scheme, a new feed path): the move stage decides whether the
// known feed may have moved (FeedMayHaveMoved), finds it again
// (Feeds.FindMoved), suspects a move from the feed's first page (Suspect)
// and asks for the archived URLs the feed no longer lists (Probe). Each
// returns what it decided as a value (FeedMove, Suspicion, Probed: the
// new feed, the ledger lines, the redirects found), which the crawl
// applies; reading and indexing the archive's posts, naming the archived
// post each emitted post continues and State.Moved are matching.go's
// (ProbeArchive, Identify, Moved), matching by redirect, guid, or title,
// day and text MoveIndex's (match.go), the stranger checks stranger.go's.

// MaxMoveProbes bounds the archived URLs a crawl that finds the blog
// moved asks for (Probe).
const MaxMoveProbes = 1000

// MoveConfig is what the move stage reads of the crawl's policy and
// options, built once by the crawl.
type MoveConfig struct {
	// UseState: an UpdateCrawl that starts from the last crawl's state;
	// no other crawl looks for a move.
	UseState bool
	// FeedGiven: the feed was configured (Options.Blog.FeedURL), never
	// looked for again.
	FeedGiven bool
	// Since is the last crawl's date (zero for none): a feed item
	// published after it is a new post, no evidence of a move.
	Since time.Time
	// NoProbes: the archived URLs are not asked for
	// (Options.NoMoveProbes).
	NoProbes bool
	// Last is what the last crawl's feed's first page listed
	// (State.Items: by item key).
	Last map[string]string
	// Moved is the last crawl's moved posts (State.Moved: new URL →
	// archived URL), which Identify gives their archived URLs first.
	Moved map[string]string
	// AcceptIdentity: the archivist's word that the site at the address
	// is the blog (Options.AcceptIdentity); no stranger check is made.
	AcceptIdentity bool
}

// Ledger fates a stage's LedgerLine names: the harvest Fates of the same
// names. A line with no fate ("") notes the URL met only.
const (
	FateRedirect  = "redirect"
	FateFailed    = "failed"
	FateWithdrawn = "withdrawn"
	FateRestored  = "restored"
	FateSkipped   = "skipped"
)

// LedgerLine is a row of the crawl's ledger a stage decided on, which
// the crawl writes: URL met through Via with Fate and Detail (no Fate:
// met only); Force overrides a fate the URL has already.
type LedgerLine struct {
	URL    string
	Fate   string
	Detail string
	Via    string
	Force  bool
}

// Moves is the move stage of an UpdateCrawl: its config, what it asks
// of the crawl (MoveDeps) and what it learns in one crawl: whether a move
// is suspected (Suspect), the archive's posts indexed (ProbeArchive),
// those matched already and the posts that moved (Identify). One
// crawl's, used by the coordinator only.
type Moves struct {
	cfg  MoveConfig
	deps MoveDeps
	// moving is Suspect's decision, false before it is asked.
	moving bool
	// index is the archive's posts with the redirects the probe found,
	// nil until ProbeArchive read them; taken the posts this crawl
	// matched already (post → the new URL matched with it), moved this
	// crawl's moved posts (new URL → archived URL).
	index *MoveIndex
	taken map[int]string
	moved map[string]string
}

// MoveDeps is what the move stage asks of the crawl: the fetch client
// (Fetch: the archived URLs), the URLs' canonical form (Canon), a page's
// redirect stub (Stub), the key of a feed item in State.Items (Key), the
// crawl's progress (Progress), its warnings (Warn) and its logger; Posts
// reads the archive's posts (Options.ArchivedPosts), nil when the crawl
// has none or emits nothing.
type MoveDeps struct {
	Posts    func() ([]ArchivedPost, error)
	Fetch    Fetcher
	Canon    Canon
	Stub     Stub
	Key      ItemKey
	Progress Progress
	Warn     Warner
	Log      *slog.Logger
}

// Stub returns the target of the redirect stub resp is, "" when it is
// none.
type Stub interface {
	Stub(resp *fetch.Response) string
}

// ItemKey returns the key of a feed item in State.Items, "" when it has
// none.
type ItemKey interface {
	Key(it *feed.Item) string
}

// Progress is told each step of the crawl (Options.Progress).
type Progress interface {
	Step(what string)
}

// NewMoves returns the move stage with config cfg and deps.
func NewMoves(cfg MoveConfig, deps MoveDeps) *Moves {
	return &Moves{cfg: cfg, deps: deps}
}

// FeedMayHaveMoved reports whether the error reading the known feed
// (State.Feed) says it is no longer there: 404, 410, 403 or 401, or no
// feed at the URL. A blog that is down (5xx, no connection) has not
// moved, and a configured feed is never looked for again.
func (m *Moves) FeedMayHaveMoved(err error) bool {
	if !m.cfg.UseState || m.cfg.FeedGiven || err == nil {
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

// FeedMove is what looking for a failed feed again found: whether
// another feed was found (Moved) and its URL (To; From the feed that
// failed), or why none was (Err: feed.Discover's error); the page at the
// blog's URL read to find it when it is no feed and the crawl asked for
// it (Home), and the old feed's ledger line.
type FeedMove struct {
	Moved    bool
	From, To string
	Err      error
	Home     *HomePage
	Lines    []LedgerLine
}

// FindMoved looks for the blog's feed again, as a new crawl does
// (feed.Discover on the blog's URL blogURL), when the known feed old
// failed with cause. A feed found at another URL (by canon) is the
// blog's: its first page is kept for Read (Keep), its origin added to the
// client's, the move a warning and the old feed's ledger line a
// redirect; the page at blogURL is returned as the home page when
// wantHome and it is no feed.
func (s *Feeds) FindMoved(ctx context.Context, blogURL, old string, cause error, wantHome bool, canon Canon, warn Warner) FeedMove {
	s.log.Info("the archived feed failed: looking for the blog's feed again", "feed", old, "err", cause)
	feedURL, resp, first, err := feed.Discover(ctx, s.client, blogURL)
	if err != nil {
		warn.Warnf("feed %s: %v; looked for the feed again from %s: %v", old, cause, blogURL, err)
		return FeedMove{Err: err}
	}
	to := canonicalString(canon, feedURL)
	if to == canonicalString(canon, old) {
		return FeedMove{}
	}
	mv := FeedMove{Moved: true, From: old, To: feedURL}
	s.addOrigin(feedURL)
	s.Keep(feedURL, first)
	warn.Warnf("the posts feed moved: %s answered %v; the home page names %s, read instead and kept for the next crawls", old, cause, feedURL)
	if u := canonicalString(canon, old); u != "" {
		mv.Lines = append(mv.Lines, LedgerLine{URL: u, Fate: FateRedirect, Detail: to + " (the posts feed moved: found again from the home page)", Via: "feed", Force: true})
	}
	if wantHome && resp != nil && !feed.Sniff(resp.Body) {
		mv.Home = CaptureOf(resp)
	}
	return mv
}

// Suspicion is whether the move stage suspects the blog moved (Moving),
// and from what: the keyed items of the feed's first page not published
// since the last crawl (Items), those the last crawl listed (Known) and
// the new posts left out (Fresh).
type Suspicion struct {
	Moving              bool
	Items, Known, Fresh int
}

// Suspect decides, once the feed f is read, whether the crawl matches
// the posts it emits with the archive's: when the feed moved (feedMoved),
// or when most items of the feed's first page (at least two) are at URLs
// the last crawl did not list (the config's Last) while most of those it
// listed are gone — leaving out the items published since the last
// crawl: a blog that posted more than its feed lists has not moved.
// The stage keeps the decision (Moving) for ProbeArchive and
// CheckIdentity.
func (m *Moves) Suspect(f *feed.Feed, feedMoved bool) Suspicion {
	s := m.suspect(f, feedMoved)
	m.moving = s.Moving
	return s
}

// Moving reports whether a move is suspected (Suspect); false before the
// feed is read. A crawl that suspects a move learns the rules again, reads
// the home page, reads and emits the feed's items at URLs the last crawl
// did not list and matches them with the archive's posts, and leaves the
// posts the feed dropped to ProbeArchive. A nil stage (a crawl whose
// client is not built yet) suspects nothing.
func (m *Moves) Moving() bool { return m != nil && m.moving }

// suspect is Suspect's decision.
func (m *Moves) suspect(f *feed.Feed, feedMoved bool) Suspicion {
	last := m.cfg.Last
	if !m.cfg.UseState || f == nil {
		return Suspicion{}
	}
	if feedMoved {
		return Suspicion{Moving: true}
	}
	if len(last) == 0 {
		return Suspicion{}
	}
	n := min(f.FirstPage, len(f.Items))
	now := map[string]bool{}
	fresh := 0
	for i := range f.Items[:n] {
		it := &f.Items[i]
		k := m.deps.Key.Key(it)
		if k == "" {
			continue
		}
		if _, ok := last[k]; !ok && !m.cfg.Since.IsZero() && it.Published.After(m.cfg.Since) {
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
		if _, ok := last[k]; ok {
			known++
		}
	}
	gone := 0
	for k := range last {
		if !now[k] {
			gone++
		}
	}
	s := Suspicion{Moving: len(now) >= 2 && known*2 < len(now) && gone*2 > len(last), Items: len(now), Known: known, Fresh: fresh}
	if s.Moving {
		m.deps.Log.Info("most feed items are at new URLs: matching the posts with the archive's", "items", s.Items, "known", s.Known, "new posts", s.Fresh)
	}
	return s
}

// Redirect is an archived post's URL leading to another (Target,
// canonical): an HTTP redirect or a redirect stub. Post is the archived
// post's index in the list Probe was given.
type Redirect struct {
	Post   int
	Target string
}

// Probed is what asking for the archived URLs found: the redirects in
// the order met, the ledger lines of the URLs asked for, the pages
// fetched and the URLs asked for.
type Probed struct {
	Redirects []Redirect
	Lines     []LedgerLine
	Pages     int
	Asked     int
}

// Probe asks for the archived posts' URLs (archived: the canonical URL of
// each, "" for none) the feed no longer lists (listed, by canonical URL),
// at most MaxMoveProbes, none with the config's NoProbes: an HTTP
// redirect or a redirect stub answering one names the post's new URL (a
// Redirect, its ledger line redirect); an error is a ledger line failed
// (the post is not at its archived URL), any other answer met.
func (m *Moves) Probe(ctx context.Context, archived []string, listed map[string]bool) Probed {
	var p Probed
	if m.cfg.NoProbes {
		return p
	}
	for i, u := range archived {
		if u == "" || listed[u] || ctx.Err() != nil {
			continue
		}
		if p.Asked == MaxMoveProbes {
			m.deps.Warn.Warnf("the blog moved: only %d of its archived URLs were asked for (MaxMoveProbes)", MaxMoveProbes)
			break
		}
		p.Asked++
		m.deps.Progress.Step("archived URL " + u)
		resp, err := m.deps.Fetch.Get(ctx, u)
		if err != nil {
			p.Lines = append(p.Lines, LedgerLine{URL: u, Fate: FateFailed, Detail: fmt.Sprintf("archived post, not at its URL: %v", err), Via: "archived"})
			continue
		}
		p.Pages++
		target := canonicalString(m.deps.Canon, resp.URL)
		if target == u {
			target = ""
			if stub := m.deps.Stub.Stub(resp); stub != "" {
				target = canonicalString(m.deps.Canon, stub)
			}
		}
		if target != "" && target != u {
			p.Redirects = append(p.Redirects, Redirect{Post: i, Target: target})
			p.Lines = append(p.Lines, LedgerLine{URL: u, Fate: FateRedirect, Detail: target, Via: "archived"})
		} else {
			p.Lines = append(p.Lines, LedgerLine{URL: u, Via: "archived"})
		}
	}
	targets := map[string]bool{}
	for _, r := range p.Redirects {
		targets[r.Target] = true
	}
	m.deps.Log.Info("the blog moved: archived URLs asked for", "archived", len(archived), "asked", p.Asked, "redirects", len(targets))
	return p
}
