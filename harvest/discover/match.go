package discover

import (
	"fmt"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/textsim"
)

// Matching a post found at a new URL with an archived one, and telling a
// blog that moved from a stranger at its address by its feed's items: a
// MoveIndex, built from the archive's posts (NewMoveIndex) and the
// redirects the move probe found (Redirect), answers as pure functions of
// what it is asked (Match, ArchivedAt, FoundAgain, Identity); which posts
// this crawl matched already is the crawl's and is passed to Match.
// The move stage asks it (Moves.Identify, Moves.CheckIdentity:
// matching.go, stranger.go) and keeps the posts taken; harvest applies
// what those return (the entry's aliases, the ledger, the IdentityError).

// ArchivedPost is what the archive holds of one entry of the blog (its
// latest version), for matching a post found at a new URL
// (harvest.ArchivedPost, Options.ArchivedPosts).
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
// be one post (harvest.MoveThreshold).
const MoveThreshold = 0.8

// MoveUndatedThreshold is MoveThreshold when either date is unknown:
// the title and the text alone must then agree almost entirely.
const MoveUndatedThreshold = 0.95

// StrangerThreshold is the TokenF1 (textsim) under which the text of a
// feed item is unlike an archived post's (harvest.StrangerThreshold).
const StrangerThreshold = 0.5

// MoveIndex is the archive's posts, indexed for matching (one crawl's).
// Its answers depend only on the posts, the redirects noted and what
// they are asked.
type MoveIndex struct {
	posts   []ArchivedPost
	canon   Canon
	byURL   map[string]int   // canonical URL or alias → post
	byGUID  map[string]int   // guid → post; -1 when two posts share it
	byTitle map[string][]int // normalised title → posts
	// redirects are the new URLs the archived URLs led to (the move
	// probe): new canonical URL → post; -1 when two archived URLs led
	// there.
	redirects map[string]int
}

// NewMoveIndex indexes posts, their URLs and aliases in canon's
// canonical form.
func NewMoveIndex(posts []ArchivedPost, canon Canon) *MoveIndex {
	m := &MoveIndex{posts: posts, canon: canon, byURL: map[string]int{}, byGUID: map[string]int{},
		byTitle: map[string][]int{}, redirects: map[string]int{}}
	for i, p := range posts {
		for _, u := range append([]string{p.URL}, p.Aliases...) {
			if c := m.canonical(u); c != "" {
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

// canonical is raw's canonical form, "" when it has none.
func (m *MoveIndex) canonical(raw string) string {
	s, err := m.canon.Canonical(raw)
	if err != nil {
		return ""
	}
	return s
}

// Len is the number of archived posts.
func (m *MoveIndex) Len() int { return len(m.posts) }

// Post returns the archived post i.
func (m *MoveIndex) Post(i int) ArchivedPost { return m.posts[i] }

// Redirect notes that the archived post i led to target (a canonical
// URL). Two archived posts leading to one target are a catch-all (a home
// page, a parking page), no evidence for either.
func (m *MoveIndex) Redirect(target string, i int) {
	if j, dup := m.redirects[target]; dup && j != i {
		m.redirects[target] = -1
		return
	}
	m.redirects[target] = i
}

// ArchivedAt returns the archived post e is archived as already: its URL
// or one of its aliases is an archived post's URL or alias; -1 if none.
func (m *MoveIndex) ArchivedAt(e *blogharvest.Entry) int {
	for _, u := range append([]string{e.URL}, e.Aliases...) {
		if i, ok := m.byURL[u]; ok {
			return i
		}
	}
	return -1
}

// Match returns the archived post e is, by the strongest evidence (a
// redirect from its URL, the guid, title and day and text: TokenF1 at
// least MoveThreshold, MoveUndatedThreshold when either date is
// unknown), and how it was matched; -1 when none is. A post in taken
// (matched already by this crawl) is not matched again.
func (m *MoveIndex) Match(e *blogharvest.Entry, taken map[int]string) (int, string) {
	free := func(i int) bool { _, t := taken[i]; return i >= 0 && !t }
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
		need := MoveUndatedThreshold
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

// FoundAgain says how the feed item it is one of the archived posts: at
// an archived URL, led to by an archived URL, the same guid, or the same
// title on the same day (either date unknown: the title alone); "" when
// it is none. It is weaker than Match, on purpose: it decides only that
// the blog is no stranger.
func (m *MoveIndex) FoundAgain(it *feed.Item) string {
	if u := m.canonical(it.Link); u != "" {
		if _, ok := m.byURL[u]; ok {
			return "archived URL"
		}
		if i, ok := m.redirects[u]; ok && i >= 0 {
			return "redirect"
		}
	}
	if it.GUID != "" {
		if _, ok := m.byGUID[it.GUID]; ok {
			return "feed guid"
		}
	}
	date := it.Published
	if date.IsZero() {
		date = it.Updated
	}
	for _, i := range m.byTitle[textsim.NormalizeText(it.Title)] {
		if p := m.posts[i]; date.IsZero() || p.Created.IsZero() || sameDay(date, p.Created) {
			return "title and day"
		}
	}
	return ""
}

// Identity is what a blog suspected moved shows of being the blog
// archived (MoveIndex.Identity): an archived URL that redirects to a page
// of the site, a feed item found again among the archived posts
// (FoundAgain), or the highest text similarity of an item to an archived
// post.
type Identity struct {
	// Redirected: an archived URL leads to a page of the site (not a
	// catch-all).
	Redirected bool
	// Item is the first feed item found again among the archived posts,
	// By how (FoundAgain); "" when none was.
	Item, By string
	// Best is the highest TokenF1 of a feed item's text to an archived
	// post's, BestItem that item, over the items before Item (all of
	// them when none was found again); not weighed when Redirected.
	Best     float64
	BestItem string
}

// Stranger reports whether nothing shows the site is the blog archived:
// no redirect, no item found again, no item's text like an archived
// post's (Best under StrangerThreshold).
func (id Identity) Stranger() bool {
	return !id.Redirected && id.By == "" && id.Best < StrangerThreshold
}

// Identity weighs the feed's items against the archived posts: whether an
// archived URL redirects to the site, else the first item found again,
// else the highest text similarity of an item (its fullest text) to an
// archived post.
func (m *MoveIndex) Identity(items []feed.Item) Identity {
	for _, i := range m.redirects {
		if i >= 0 {
			return Identity{Redirected: true}
		}
	}
	var id Identity
	for k := range items {
		it := &items[k]
		if how := m.FoundAgain(it); how != "" {
			id.Item, id.By = it.Link, how
			return id
		}
		text := textsim.HTMLText(ItemText(it))
		for _, p := range m.posts {
			if s := textsim.TokenF1(text, p.Text); s > id.Best {
				id.Best, id.BestItem = s, it.Link
			}
		}
	}
	return id
}

// ItemText is the fullest text a feed item gives: its content or its
// summary, whichever is longer.
func ItemText(it *feed.Item) string {
	if len(it.Content) >= len(it.Summary) {
		return it.Content
	}
	return it.Summary
}
