package feed

import (
	"encoding/xml"
	"errors"
	"io"
	"time"
)

// ErrNotFeed is wrapped by Parse errors for documents that are not RSS,
// Atom or JSON Feed at all (an HTML page, say).
var ErrNotFeed = errors.New("not a feed")

// Feed is one parsed feed: blog-level metadata and items. Item links are
// kept as the feed gives them, even when they point off the blog's host
// (feeds from FeedBurner and the like do); callers scoping a crawl should
// compare them with Link or the blog URL themselves.
type Feed struct {
	URL             string // the feed's URL (after redirects, when fetched)
	Format          string // "rss", "atom" or "json"
	Title           string
	Subtitle        string // Atom subtitle, RSS description
	Link            string // the blog's home page as the feed says
	Language        string
	Generator       string // as written, e.g. "https://wordpress.org/?v=6.4.2"
	Platform        string // e.g. "WordPress", "Blogger"; empty when unknown
	PlatformID      string // the platform table's row (harvest/platform), e.g. "wordpress"; empty when unknown
	PlatformVersion string // e.g. "6.4.2"
	Webmaster       string // managingEditor, webMaster or the feed author
	Rights          string // <rights>, <copyright> or dc:rights
	License         string // creativeCommons:license, cc:license or an Atom rel="license" link
	UpdateFrequency string // "hourly/1" from sy:updatePeriod/updateFrequency, or "ttl 60m"
	Updated         time.Time
	Items           []Item
	Next            []string // paging links found (RFC 5005 next / prev-archive, JSON Feed next_url)
	TotalResults    int      // openSearch:totalResults; zero when absent
	Raw             []byte   // the document as received (the first page for FetchAll)
	Removed         int      // characters not allowed in XML removed before parsing (the first page for FetchAll)

	// Set by FetchAll only.
	NotModified  bool   // the first page answered 304 to a conditional request; Items is empty
	FirstPage    int    // how many of Items came from the first page (the feed as a reader sees it)
	ETag         string // validators of the first page, for the next conditional request
	LastModified string
}

// Item is one entry of a feed.
type Item struct {
	GUID, Link, Title, Author string
	Published, Updated        time.Time // zero when absent; in UTC, whatever offset the feed wrote
	// Offset is the UTC offset, in seconds east, the feed wrote the
	// item's date with (Published's, else Updated's): 3600 for
	// "2015-10-03T00:00:00+01:00"; 0 for "Z", "+0000", a zone name or
	// none. It is evidence of the blog's zone when not 0 (WordPress writes
	// "+0000" whatever the blog's zone, Hexo "Z").
	Offset         int
	Content        string // full content (content:encoded, Atom content, content_html)
	Summary        string // description / summary; often the full post in RSS
	Categories     []string
	CommentFeedURL string // wfw:commentRss or an Atom rel="replies" feed link
	CommentsURL    string // RSS <comments> or an Atom rel="replies" HTML link
	CommentCount   int    // slash:comments or thr:count; -1 when unknown
	Enclosures     []string
	Raw            []byte // a JSON Feed item's own JSON; an XML item's is XML()

	xml       itemXML // an XML item's place in the feed, for XML()
	authorURL string  // Atom author uri, for comments
	replyTo   string  // Atom threading parent, for comments
}

// XML returns the item's own document for the archive: a JSON Feed item's
// JSON (Raw), or an XML item's XML (UTF-8) as a document of its own
// (scanns.go), cut from the feed's text on each call rather than kept
// beside it (a crawl holds the feed's text anyway, for the Blog record's
// capture: its items' copies doubled a full-text feed in memory). Nil when
// the item has neither. The caller may keep the result but not change it
// when it is Raw.
func (it *Item) XML() []byte {
	if len(it.Raw) > 0 || it.xml.src == nil {
		return it.Raw
	}
	return declare(it.xml.src, it.xml.decls)
}

// WriteXML writes what XML returns to w without making it first (a
// digest of a full-text feed's item need not copy the post), and reports
// whether the item has any.
func (it *Item) WriteXML(w io.Writer) bool {
	if len(it.Raw) > 0 || it.xml.src == nil {
		w.Write(it.Raw)
		return len(it.Raw) > 0
	}
	writeDeclared(w, it.xml.src, it.xml.decls)
	return true
}

// itemXML is an XML item's element as the feed's (UTF-8) text holds it and
// the namespace declarations its document adds (declare).
type itemXML struct {
	src   []byte // a slice of the feed's text, capacity cut to its length
	decls []xml.Attr
}

// Comment is one entry of a comment feed.
type Comment struct {
	ID, Link, Title, Author, AuthorURL string
	Published                          time.Time
	Content                            string
	InReplyTo                          string // ID or link of the parent comment; "" at top level
	Raw                                []byte
}

// PageOptions bounds FetchAll.
type PageOptions struct {
	// MaxPages caps the pages fetched. If zero, DefaultMaxPages.
	MaxPages int
	// Since stops paging after a page whose items are all older. If zero,
	// paging goes on to the end.
	Since time.Time
	// Enough, when set with Since, keeps paging past Since (up to
	// MaxPages) until it reports that the items read so far are enough:
	// an update crawl reads on to the items of older posts it must revisit.
	Enough func(items []Item) bool
	// ETag and LastModified make the first request conditional.
	ETag, LastModified string
	// NewestFirst says the feed lists its items newest first (as blog
	// platforms do): paging stops after a page that holds an item older
	// than Since, not only after one that holds nothing newer.
	NewestFirst bool
	// MaxItems, if positive, stops paging once that many items are held;
	// the items past it are dropped (a comment feed's
	// CommentLimits.MaxComments).
	MaxItems int
	// MaxBytes, if positive, stops paging once the pages read reach that
	// many bytes (CommentLimits.MaxBytes).
	MaxBytes int64
	// DatesOnly reads each item without its body: Item.Content and
	// Item.Summary stay empty, the rest (dates, links, GUID, title, Raw)
	// is read as without it. A reader that wants only the items' dates (a
	// section feed read to date posts) saves parsing a full-text feed's
	// bodies.
	DatesOnly bool
}

// DefaultMaxPages is the page limit of FetchAll when PageOptions.MaxPages
// is zero.
const DefaultMaxPages = 200
