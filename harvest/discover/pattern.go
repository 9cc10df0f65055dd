package discover

import (
	"maps"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Pattern recognises post URLs. It is generalised from the feed's entry
// URLs: entries are grouped by path shape (number of segments, trailing
// slash, query keys); within a group a segment becomes `\d+` when it is
// numeric, a literal when it is the same in every entry, `[^/]+` otherwise.
// Literal leading segments that known non-post pages use (tag/, category/,
// page/ …) are then excluded when they would match.
type Pattern struct {
	res     []*regexp.Regexp
	exclude map[string]bool // first path segments that name non-post pages
}

// minPostShape is how many feed URLs of one shape make the shapes with
// fewer URLs pages rather than posts.
const minPostShape = 3

// LearnPattern generalises the paths of urls (canonical, in scope: the
// feed's Seeded.Shapes) into a post pattern. It returns nil when urls is
// empty.
func LearnPattern(urls []*url.URL) *Pattern {
	groups := map[string][]*url.URL{}
	for _, u := range urls {
		groups[shapeKey(u)] = append(groups[shapeKey(u)], u)
	}
	if len(groups) == 0 {
		return nil
	}
	largest := 0
	for _, g := range groups {
		largest = max(largest, len(g))
	}
	keys := make([]string, 0, len(groups))
	for k, g := range groups {
		if len(g) < minPostShape && largest >= minPostShape {
			// one or two URLs of their own shape beside many posts: pages
			// the feed lists (/about/, /uses/; a generator's feed of
			// regular pages), whose shape would make every section index
			// (/notes/) a post and every post under it part of one. A
			// feed item of that shape is still an entry, a post when its
			// page reads as one (buildEntry).
			continue
		}
		keys = append(keys, k)
	}
	sort.Strings(keys)
	p := &Pattern{exclude: map[string]bool{}}
	for _, k := range keys {
		p.res = append(p.res, regexp.MustCompile(generalise(groups[k])))
	}
	return p
}

// segments splits a URL path into its non-empty segments.
func segments(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == '/' })
}

// shapeKey groups URLs whose paths have the same shape.
func shapeKey(u *url.URL) string {
	keys := make([]string, 0, 2)
	for k := range u.Query() {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	slash := strings.HasSuffix(u.Path, "/")
	return strings.Join([]string{strconv.Itoa(len(segments(u.Path))), boolStr(slash), strings.Join(keys, "&")}, "|")
}

// generalise builds the anchored regexp matching every URL of one group
// (same shape) by path and query.
func generalise(group []*url.URL) string {
	n := len(segments(group[0].Path))
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < n; i++ {
		vals := make([]string, len(group))
		for j, u := range group {
			vals[j] = segments(u.Path)[i]
		}
		b.WriteString("/" + generaliseSegment(vals))
	}
	if strings.HasSuffix(group[0].Path, "/") && n > 0 || n == 0 {
		b.WriteString("/")
	}
	b.WriteString(generaliseQuery(group))
	b.WriteString("$")
	return b.String()
}

// generaliseSegment returns the regexp of one path segment given its values.
func generaliseSegment(vals []string) string {
	numeric, same := true, true
	for _, v := range vals {
		numeric = numeric && isDigits(v)
		same = same && v == vals[0]
	}
	switch {
	case numeric:
		return `\d+`
	case same && len(vals) > 1:
		return regexp.QuoteMeta(vals[0])
	}
	if ext := commonExt(vals); ext != "" {
		return `[^/]+` + regexp.QuoteMeta(ext)
	}
	if len(vals) == 1 && !strings.ContainsAny(vals[0], "-_.") {
		return regexp.QuoteMeta(vals[0]) // a lone word segment such as "post" or "blog"
	}
	return `[^/]+`
}

// commonExt returns the extension (".html") every value ends with, or "".
func commonExt(vals []string) string {
	i := strings.LastIndexByte(vals[0], '.')
	if i <= 0 {
		return ""
	}
	ext := vals[0][i:]
	for _, v := range vals {
		if !strings.HasSuffix(v, ext) || len(v) == len(ext) {
			return ""
		}
	}
	return ext
}

// generaliseQuery returns the regexp of the query of a group: the sorted keys
// with numeric or free values.
func generaliseQuery(group []*url.URL) string {
	q := group[0].Query()
	if len(q) == 0 {
		return ""
	}
	keys := make([]string, 0, len(q))
	for k := range q {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		vals := make([]string, len(group))
		for j, u := range group {
			vals[j] = u.Query().Get(k)
		}
		v := `[^&]+`
		if generaliseSegment(vals) == `\d+` {
			v = `\d+`
		}
		parts[i] = regexp.QuoteMeta(k) + "=" + v
	}
	return `\?` + strings.Join(parts, "&")
}

// Match reports whether the canonical URL u looks like a post; a nil
// pattern matches nothing.
func (p *Pattern) Match(u *url.URL) bool {
	if p == nil {
		return false
	}
	segs := segments(u.Path)
	if len(segs) > 0 && p.exclude[segs[0]] {
		return false
	}
	s := u.Path
	if u.RawQuery != "" {
		s += "?" + u.RawQuery
	}
	for _, re := range p.res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

// nonPostSegments are leading path segments that blog platforms use for
// listings, never for posts.
var nonPostSegments = []string{
	"tag", "tags", "category", "categories", "author", "page", "search", "label", "archive",
	"archives", "topics", "topic", "feed", "comments", "wp-content", "date", "tagged", "labels", "type",
}

// ListingSegment reports whether seg (lowercased, without an extension)
// is a leading path segment blog platforms reserve for listings
// (nonPostSegments).
func ListingSegment(seg string) bool { return listingSegments[seg] }

// listingSegments is nonPostSegments as a set.
var listingSegments = func() map[string]bool {
	m := map[string]bool{}
	for _, s := range nonPostSegments {
		m[s] = true
	}
	return m
}()

// verify checks the pattern against URLs known not to be posts (listing
// pages, the home page) and excludes the leading segment of each one that
// matches, unless a post URL (from the feed) starts with it too.
func (p *Pattern) verify(nonPosts []*url.URL, posts []*url.URL) {
	if p == nil {
		return
	}
	postFirst := map[string]bool{}
	for _, u := range posts {
		if s := segments(u.Path); len(s) > 0 {
			postFirst[s[0]] = true
		}
	}
	for _, seg := range nonPostSegments {
		if !postFirst[seg] {
			p.exclude[seg] = true
		}
	}
	for _, u := range nonPosts {
		s := segments(u.Path)
		if len(s) > 0 && !postFirst[s[0]] && p.Match(u) {
			p.exclude[s[0]] = true
		}
	}
}

// String returns the pattern's regexps joined with " | ".
func (p *Pattern) String() string {
	if p == nil {
		return ""
	}
	out := make([]string, len(p.res))
	for i, re := range p.res {
		out[i] = re.String()
	}
	return strings.Join(out, " | ")
}

// isDigits reports whether s is digits only (and not empty).
func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// boolStr is "1" for true, "0" for false (shapeKey).
func boolStr(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// PatternSite is what the post pattern's check reads of the blog: its
// home page, the feed's URL as configured, the home page's links (none
// when it was not read) and the item pages the feed seeded (Seeded.URLs).
type PatternSite struct {
	Home    *url.URL
	FeedURL string
	Links   []Link
	Posts   []*url.URL
}

// Link is one link of the home page as the pattern's check reads it: its
// canonical URL, its rel attribute (lowercased) and whether it is site
// navigation (inside <nav>, <header> or a menu).
type Link struct {
	URL string
	Rel string
	Nav bool
}

// Pending is the crawl's claims as the pattern's check asks them: whether
// a feed item waits for the page u.
type Pending interface {
	Pending(u string) bool
}

// CheckPattern checks p against pages known not to be posts (the home
// page, the feed, and the home page's navigation, tag, category, author
// and paging links that are no feed item's page) and returns the checked
// pattern: p's regexps with the leading segments excluded that those
// pages, or the segments platforms keep for listings, would match (unless
// a post starts with them too). p itself is left as it was; a nil p gives
// nil.
func CheckPattern(p *Pattern, s PatternSite, canon Canon, pend Pending) *Pattern {
	if p == nil {
		return nil
	}
	non := []*url.URL{s.Home}
	if u := parsedCanonical(canon, s.FeedURL); u != nil {
		non = append(non, u)
	}
	for _, l := range s.Links {
		if l.Nav || strings.Contains(l.Rel, "tag") || strings.Contains(l.Rel, "category") ||
			l.Rel == "next" || l.Rel == "prev" || strings.Contains(l.Rel, "author") {
			if u, err := url.Parse(l.URL); err == nil && !pend.Pending(l.URL) { // not a feed item's page
				non = append(non, u)
			}
		}
	}
	q := &Pattern{res: p.res, exclude: maps.Clone(p.exclude)}
	q.verify(non, s.Posts)
	return q
}
