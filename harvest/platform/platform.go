package platform

import (
	"regexp"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/blogharvest/blogharvest/harvest/anyof"
)

// Platform is one row of the table: what the crawler knows about one blog
// or comment platform. Every list may be empty.
type Platform struct {
	ID   string // short lower-case name, as logs and render reasons give it ("disqus")
	Name string // display name ("Disqus")

	// Generators are lower-case fragments of a generator (<meta
	// name=generator>, a feed's <generator>) that name the platform.
	Generators []string
	// CommentIDPrefixes are lower-case prefixes that, followed by digits
	// only, make the id of one comment element ("div-comment-" for
	// div-comment-42).
	CommentIDPrefixes []string
	// CommentClasses are class tokens (case-sensitive) that mark one
	// comment element, whatever its tag.
	CommentClasses []string
	// BlockCommentClasses are class tokens that mark one comment element
	// only on block elements (li, article, div, section, dd, blockquote,
	// tr): the same token on a span is a "3 comments" link.
	BlockCommentClasses []string
	// CommentItemTypes are lower-case fragments of the itemtype of one
	// comment element or of a comment list.
	CommentItemTypes []string
	// JSMarkers are fragments of a page's markup that show comments the
	// platform loads by JavaScript: only a browser sees them.
	JSMarkers []string
	// LoadMore are CSS selectors of the platform's "load more comments"
	// controls, clicked in a rendered page.
	LoadMore []string
	// Boilerplate are id or class words (case-insensitive, whole words
	// between white space, _ or -) of boxes the platform puts inside an
	// article that are not the article: share buttons, related posts,
	// comment forms.
	Boilerplate []string

	// Blog platform behaviour, read by harvest/feed and harvest through
	// ByID (a feed's PlatformID) or the functions below.

	// FeedPaging is how the platform pages its feeds when they carry no
	// RFC 5005 links: PagingQuery (WordPress ?paged=N, guessed) or
	// PagingStartIndex (Blogger start-index/max-results).
	FeedPaging string
	// CommentFeed is the URL shape of a post's own comment feed, with
	// the placeholders {post} (the post's URL, with a slash after it
	// unless it ends with one or names a file), {feedroot} (the posts
	// feed's URL up to its last "/feeds/") and {postid} (PostID's first
	// group in the item's GUID): "{post}feed/" for WordPress.
	CommentFeed string
	// PostID matches a post's GUID, or its shortlink (<link
	// rel=shortlink>), and captures the platform's post id in its last
	// group (for {postid}).
	PostID string
	// CommentsAPI is the URL shape of the platform's comments REST
	// endpoint for one post, asked after the post's own comment feed when
	// the blog states more comments than that feed holds: the
	// placeholders {site} (the blog's home URL, ending in "/"), {postid}
	// (as for CommentFeed) and {page} (1, 2, … until a page adds no
	// comment). "{site}wp-json/wp/v2/comments?post={postid}&per_page=100&page={page}"
	// for WordPress. CommentsAPIFields says how to read its answers.
	CommentsAPI string
	// CommentsAPIFields names the members of one comment object of the
	// CommentsAPI's answer (a JSON array of them).
	CommentsAPIFields APIFields
	// SiteCommentFeeds are path suffixes of the blog-wide comment feed
	// ("/comments/feed").
	SiteCommentFeeds []string
	// Sitemaps are the paths (from the site root or the blog's prefix)
	// where the platform keeps its sitemap.
	Sitemaps []string
	// AtomTwin says the platform serves its RSS feed as Atom too, at
	// <feed>/atom/ (or ?feed=atom), with modification dates.
	AtomTwin bool
	// SectionFeed is the file or folder name of the feed the platform
	// keeps per section (Hugo's "index.xml" under /posts/): dates of posts
	// whose pages show none.
	SectionFeed string
	// FeedHosts are the hosts of the platform's own feed service, where
	// the pages of a blog's feed after the first may lie (Blogger's
	// rel="next" names www.blogger.com/feeds/<id>/posts/default): feed
	// pages only, never pages of the blog (fetch.Options.FeedHosts).
	FeedHosts []string
	// HostAliases are the platform's rules for hosts that name one blog
	// several ways: a host holding Infix, not on a port, is the same as
	// the host cut there with Canonical appended (Blogger's country
	// domains: ".blogspot." → ".blogspot.com").
	HostAliases []HostAlias
}

// APIFields name the members of a comment object in a platform's
// comments REST answer; a dotted name reaches into a nested object
// ("content.rendered"). Parent holds the id of the comment answered (0,
// "" or absent at top level).
type APIFields struct {
	ID, Parent, Author, AuthorURL, Date, Content, Link string
}

// HostAlias is one canonical host rule of a platform (Platform.HostAliases).
type HostAlias struct{ Infix, Canonical string }

// Feed paging methods (Platform.FeedPaging).
const (
	PagingQuery      = "paged"       // ?paged=N
	PagingStartIndex = "start-index" // ?start-index=N&max-results=M
)

// ByID returns the row with the given ID, and whether there is one.
func ByID(id string) (Platform, bool) {
	for _, p := range current().rows {
		if p.ID == id {
			return p, true
		}
	}
	return Platform{}, false
}

// FeedHosts returns the feed hosts of every platform (Platform.FeedHosts).
func FeedHosts() []string {
	var out []string
	for _, p := range current().rows {
		out = append(out, p.FeedHosts...)
	}
	return out
}

// SiteCommentFeed reports whether a path (without its trailing slash)
// ends as a platform's blog-wide comment feed does.
func SiteCommentFeed(path string) bool {
	path = strings.TrimSuffix(path, "/")
	for _, p := range current().rows {
		for _, s := range p.SiteCommentFeeds {
			if strings.HasSuffix(path, s) {
				return true
			}
		}
	}
	return false
}

// CanonicalHost applies the table's host rules (Platform.HostAliases) to
// a lower-case host: "x.blogspot.de" → "x.blogspot.com". Other hosts are
// returned as they are.
func CanonicalHost(host string) string {
	if strings.Contains(host, ":") {
		return host
	}
	for _, a := range current().hostAliases {
		if i := strings.Index(host, a.Infix); i > 0 {
			return host[:i] + a.Canonical
		}
	}
	return host
}

// Sitemaps returns the well-known sitemap paths of every platform, in
// table order, each once.
func Sitemaps() []string {
	var out []string
	seen := map[string]bool{}
	for _, p := range current().rows {
		for _, s := range p.Sitemaps {
			if !seen[s] {
				seen[s] = true
				out = append(out, s)
			}
		}
	}
	return out
}

var (
	mu      sync.Mutex               // serialises Add
	rows    = table                  // the table, as Add leaves it
	derived atomic.Pointer[matchers] // the matchers of rows
)

// All returns a copy of the table, in order.
func All() []Platform {
	mu.Lock()
	defer mu.Unlock()
	return append([]Platform(nil), rows...)
}

// Add appends a row to the table for the whole process and returns the
// function that removes it again. It is meant for tests and for
// extensions set up before a crawl: matchers already handed out keep the
// table they were derived from.
func Add(p Platform) (remove func()) {
	mu.Lock()
	defer mu.Unlock()
	rows = append(append([]Platform(nil), rows...), p)
	derived.Store(nil)
	return func() {
		mu.Lock()
		defer mu.Unlock()
		for i := range rows {
			if rows[i].ID == p.ID {
				rows = append(append([]Platform(nil), rows[:i]...), rows[i+1:]...)
				break
			}
		}
		derived.Store(nil)
	}
}

// matchers are the lookups derived from the table.
type matchers struct {
	rows         []Platform
	idPrefixes   []string
	classes      map[string]bool // CommentClasses
	blockClasses map[string]bool // BlockCommentClasses
	itemTypes    []string
	jsMarkers    []jsMarker
	jsSet        *anyof.Set // the markers of jsMarkers, in its order
	loadMore     []Behaviour
	boilerplate  *boilerplate
	hostAliases  []HostAlias
}

// jsMarker is one JavaScript marker and the platform it shows.
type jsMarker struct{ marker, id string }

// current returns the matchers of the table, deriving them when the
// table changed.
func current() *matchers {
	if m := derived.Load(); m != nil {
		return m
	}
	mu.Lock()
	defer mu.Unlock()
	m := derive(rows)
	derived.Store(m)
	return m
}

// derive builds the matchers of rows.
func derive(rows []Platform) *matchers {
	m := &matchers{rows: rows, classes: map[string]bool{}, blockClasses: map[string]bool{}}
	var words []string
	for _, p := range rows {
		m.idPrefixes = append(m.idPrefixes, p.CommentIDPrefixes...)
		for _, c := range p.CommentClasses {
			m.classes[c] = true
		}
		for _, c := range p.BlockCommentClasses {
			m.blockClasses[c] = true
		}
		m.itemTypes = append(m.itemTypes, p.CommentItemTypes...)
		for _, j := range p.JSMarkers {
			m.jsMarkers = append(m.jsMarkers, jsMarker{j, p.ID})
		}
		if len(p.LoadMore) > 0 {
			m.loadMore = append(m.loadMore, Behaviour{p.Name, append([]string(nil), p.LoadMore...)})
		}
		words = append(words, p.Boilerplate...)
		m.hostAliases = append(m.hostAliases, p.HostAliases...)
	}
	m.boilerplate = newBoilerplate(words)
	markers := make([]string, len(m.jsMarkers))
	for i, j := range m.jsMarkers {
		markers[i] = j.marker
	}
	m.jsSet = anyof.New(markers...)
	return m
}

// IsCommentID reports whether an element id is one a platform gives a
// comment element: a CommentIDPrefixes entry, case-insensitive, then
// digits only (comment-42, div-comment-42, dsq-comment-7).
func IsCommentID(id string) bool {
	if id == "" || id[len(id)-1] < '0' || id[len(id)-1] > '9' {
		return false
	}
	lower := strings.ToLower(id)
	for _, p := range current().idPrefixes {
		if rest, ok := strings.CutPrefix(lower, p); ok && rest != "" && allDigits(rest) {
			return true
		}
	}
	return false
}

// allDigits reports whether s has only ASCII digits.
func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// IsCommentClass reports whether a class token marks a comment element;
// block says whether the element is a block (li, article, div, section,
// dd, blockquote, tr), which BlockCommentClasses need.
func IsCommentClass(token string, block bool) bool {
	m := current()
	return m.classes[token] || block && m.blockClasses[token]
}

// IsCommentItemType reports whether an itemtype marks a comment element
// or list.
func IsCommentItemType(itemtype string) bool {
	if itemtype == "" {
		return false
	}
	it := strings.ToLower(itemtype)
	for _, t := range current().itemTypes {
		if strings.Contains(it, t) {
			return true
		}
	}
	return false
}

// JSSystem returns the ID of the first platform, in table order, one of
// whose JavaScript markers page holds, or "".
func JSSystem(page []byte) string {
	m := current()
	if i := m.jsSet.First(page); i >= 0 {
		return m.jsMarkers[i].id
	}
	return ""
}

// Generator returns the Name of the first platform, in table order, one
// of whose Generators the generator text (case-insensitive) holds, and
// whether there is one: "https://wordpress.org/?v=6.4.2" → WordPress.
func Generator(text string) (string, bool) {
	p, ok := ByGenerator(text)
	return p.Name, ok
}

// ByGenerator returns the first row, in table order, one of whose
// Generators the generator text (case-insensitive) holds, and whether
// there is one.
func ByGenerator(text string) (Platform, bool) {
	lower := strings.ToLower(text)
	for _, p := range current().rows {
		for _, g := range p.Generators {
			if strings.Contains(lower, g) {
				return p, true
			}
		}
	}
	return Platform{}, false
}

// Behaviour names the "load more" controls of one platform.
type Behaviour struct {
	Platform  string   // the platform's Name, e.g. "Disqus"
	Selectors []string // CSS selectors of the controls
}

// LoadMore returns the "load more" controls of the table's platforms,
// in table order.
func LoadMore() []Behaviour {
	bs := current().loadMore
	out := make([]Behaviour, len(bs))
	for i, b := range bs {
		out[i] = Behaviour{b.Platform, append([]string(nil), b.Selectors...)}
	}
	return out
}

// IsBoilerplate reports whether an id or class names a box that is not
// the article: one of the table's Boilerplate words, case-insensitive,
// as a whole word between white space, _ or -.
func IsBoilerplate(v string) bool { return v != "" && current().boilerplate.match(v) }

// boilerplate matches Boilerplate words: by hand for ASCII values, with
// the regexp (whose (?i) folds some non-ASCII letters, as ſ for s) for
// others.
type boilerplate struct {
	byFirst [26][]string   // the words by first letter
	re      *regexp.Regexp // the same words, for non-ASCII values
}

// newBoilerplate returns the matcher of words, lower-case ASCII.
func newBoilerplate(words []string) *boilerplate {
	b := &boilerplate{}
	quoted := make([]string, len(words))
	for i, w := range words {
		b.byFirst[w[0]-'a'] = append(b.byFirst[w[0]-'a'], w)
		quoted[i] = regexp.QuoteMeta(w)
	}
	b.re = regexp.MustCompile(`(?i)(^|[\s_-])(` + strings.Join(quoted, "|") + `)([\s_-]|$)`)
	return b
}

// match reports whether v holds a word.
func (b *boilerplate) match(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] >= 0x80 {
			return b.re.MatchString(v)
		}
	}
	for i := 0; i < len(v); i++ {
		if i > 0 && !isWordSep(v[i-1]) {
			continue
		}
		c := v[i] | 0x20
		if c < 'a' || c > 'z' {
			continue
		}
		for _, w := range b.byFirst[c-'a'] {
			if j := i + len(w); j <= len(v) && strings.EqualFold(v[i:j], w) && (j == len(v) || isWordSep(v[j])) {
				return true
			}
		}
	}
	return false
}

// isWordSep reports whether c is [\s_-] as the regexp has it.
func isWordSep(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == '_' || c == '-'
}
