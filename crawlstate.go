package blogharvest

import (
	"crypto/sha256"
	"encoding/hex"
	"time"
)

// CrawlState is what one crawl of a blog leaves for the next update of it,
// so that the update stays polite: the feeds asked for conditionally, the
// signatures of the feed's first page, the validators of those posts'
// pages and of the comment threads drawn by script, the scripts that drew
// them. It is metadata only
// (validators, digests, dates): harvest produces it (harvest.State, which
// adds robots.txt captures and rules) and reads it back, and the schedule
// store keeps it between runs (schedule.State). This is its one
// definition; neither side copies it field by field.
type CrawlState struct {
	// Feed is the posts feed as last received.
	Feed Validators
	// CommentFeed is the blog-wide comment feed (WordPress
	// /comments/feed/, Blogger /feeds/comments/default) as last received;
	// its URL is empty when the blog has none.
	CommentFeed Validators
	// Items maps the canonical URL of each item of the posts feed's first
	// page to its signature: a digest of the item as the feed gives it
	// (content, dates, comment count). "" marks an item whose page could
	// not be read, so that the next crawl reads it again.
	Items map[string]string `json:",omitempty"`
	// PostsChecked is when a crawl last re-read the posts of the feed's
	// first page that give no change signal; zero means never.
	PostsChecked time.Time
	// Pages holds the ETag and Last-Modified of the last capture of each
	// post of the feed's first page (by the same key as Items; URL and
	// Digest unset): a recheck asks for them conditionally.
	Pages map[string]Validators `json:",omitempty"`
	// Threads holds, by the canonical URL of each post of every feed page
	// the crawl read (and of those the last crawl's Threads held, the
	// newest first, 50 URLs in all), the JSON APIs the post's rendered
	// page drew its comments from, the comment threads only (URL,
	// validators and the digest of the body): an update asks for them
	// conditionally and reads again the posts whose thread changed.
	Threads map[string][]Validators `json:",omitempty"`
	// WidgetScripts are the URLs (without query) of the scripts whose
	// requests drew the comments of a rendered page of the blog (a
	// comment widget's client, however the page loads it): an update
	// renders a page that names one for its comments.
	WidgetScripts []string `json:",omitempty"`
	// CommentShapes are the structures the blog's rendered comments
	// repeated on two pages or more (harvest's learned comment shapes):
	// an update, which renders only the posts that changed, reads a
	// thread of one comment of such a structure, which repeats nothing.
	CommentShapes []string `json:",omitempty"`
	// Moved maps the canonical URL of a post found at a new address (a
	// move to another platform or URL scheme) to the URL it was archived
	// under first, whose entry it continues: every later crawl gives the
	// post that URL as an alias, so that its next versions go to the same
	// entry (harvest's moves.go, doc/lifecycle.md). Kept from crawl to
	// crawl; it holds only posts that moved.
	Moved map[string]string `json:",omitempty"`
	// Gone holds, by canonical URL, the archived posts that answered 404
	// or 410: suspected after one run, withdrawn from the live blog once
	// a later run met it again, asked again with a backoff (harvest's
	// gone.go, doc/lifecycle.md). A post that answers again leaves it.
	Gone map[string]GonePost `json:",omitempty"`
}

// GonePost is an archived post whose URL answered 404 or 410.
type GonePost struct {
	First       time.Time // when the crawl that first met the answer started
	FirstStatus int       // that answer: 404 or 410
	// Confirmed is when the later crawl that met it again started: the
	// post is withdrawn from the live blog since First. Zero while it is
	// only suspected (one run).
	Confirmed time.Time `json:",omitzero"`
	Status    int       // the last answer: 404 or 410
	Asked     time.Time // when it was last asked
	Next      time.Time `json:",omitzero"` // when an update asks again; zero: the next one
}

// Validators describe one resource as last received: what a conditional
// request for it sends, and the digest of the body to tell an identical
// answer from a server that does not answer 304.
type Validators struct {
	URL          string // the URL as requested; "" where the key names it (CrawlState.Pages)
	ETag         string // the ETag header; "" if none
	LastModified string // the Last-Modified header; "" if none
	Digest       string // SHA-256 (lowercase hex) of the body (a feed's first page); "" if unknown
}

// DigestOf returns body's Validators.Digest: its SHA-256 in lowercase hex,
// which tells a body served again unchanged.
func DigestOf(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}
