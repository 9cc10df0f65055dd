package learn

import (
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/textsim"
	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest/harvest/htmlnode"
)

// fallback finds fields without learned rules: structured data first, then
// platform heuristics, then (for the article) text density.
type fallback struct {
	root *html.Node
	sd   *structured // read on first use
}

func newFallback(root *html.Node) *fallback { return &fallback{root: root} }

// data returns the page's structured data, reading it once.
func (f *fallback) data() *structured {
	if f.sd == nil {
		f.sd = readStructured(f.root)
	}
	return f.sd
}

// minArticleText is the shortest text a heuristic article element may hold.
const minArticleText = 40

// contentClasses are the class tokens and ids of article containers on
// common platforms (WordPress, Blogger, Tumblr, Medium, Ghost, Jekyll …),
// most specific first.
var contentClasses = []string{
	"entry-content", "post-content", "post-body", "article-content", "entry-body", "article-body",
	"post-entry", "postbody", "post_content", "entry_content", "single-post-content", "blog-post-body",
	"story-body", "td-post-content", "gh-content", "markdown-body", "post-text", "entrytext",
	"articleBody", "blog-content", "content-body", "text", "entry", "hentry", "post", "blog-post",
}

// contentRank ranks contentClasses from 1, most specific first.
var contentRank = func() map[string]int {
	rank := make(map[string]int, len(contentClasses))
	for i, c := range contentClasses {
		rank[c] = i + 1
	}
	return rank
}()

// article returns the article element and the method that found it.
func (f *fallback) article() (*html.Node, blogharvest.Method) {
	if c := f.data().content; c != nil && len(nodeText(c)) >= minArticleText {
		return c, blogharvest.MethodStructured
	}
	if n := f.byItemprop("articleBody"); n != nil {
		return n, blogharvest.MethodStructured
	}
	if n := f.heuristicArticle(); n != nil {
		return n, blogharvest.MethodHeuristic
	}
	if n := densest(f.root); n != nil {
		return n, blogharvest.MethodDensity
	}
	return nil, ""
}

// byItemprop returns the first element with itemprop p and enough text.
func (f *fallback) byItemprop(p string) *html.Node {
	var found *html.Node
	walkElements(f.root, func(n *html.Node) bool {
		if found == nil && htmlnode.Attr(n, "itemprop") == p && len(nodeText(n)) >= minArticleText {
			found = n
		}
		return found == nil
	})
	return found
}

// heuristicArticle returns the element whose class or id comes first in
// contentClasses (an <article> or <main> element after them), among those
// with enough text.
func (f *fallback) heuristicArticle() *html.Node {
	var best *html.Node
	bestRank := len(contentClasses) + 3
	walkElements(f.root, func(n *html.Node) bool {
		r := elementRank(n, contentRank, len(contentClasses))
		if r < bestRank && len(nodeText(n)) >= minArticleText {
			best, bestRank = n, r
		}
		return true
	})
	return best
}

// elementRank returns the best rank of n's class tokens or id, or a rank
// after every class for <article> and <main>, or a rank beyond all.
func elementRank(n *html.Node, rank map[string]int, last int) int {
	r := last + 3
	for tok := range strings.FieldsSeq(htmlnode.Attr(n, "class")) {
		if v, ok := rank[tok]; ok && v < r {
			r = v
		}
	}
	if v, ok := rank[htmlnode.Attr(n, "id")]; ok && v < r {
		r = v
	}
	switch {
	case r <= last:
	case n.Data == "article":
		r = last + 1
	case n.Data == "main":
		r = last + 2
	}
	return r
}

// titleClasses mark post titles on common platforms.
var titleClasses = map[string]bool{
	"entry-title": true, "post-title": true, "article-title": true, "p-name": true, "posttitle": true,
	"title": true, "headline": true, "post-header": true, "entry-header": true,
}

// title returns the post's title and the method that found it.
func (f *fallback) title(article *html.Node) (string, blogharvest.Method) {
	sd := f.data()
	if t := firstNonEmpty(sd.title, sd.mfTitle); t != "" {
		return textsim.Collapse(t), blogharvest.MethodStructured
	}
	var h1, classed *html.Node
	walkElements(f.root, func(n *html.Node) bool {
		if h1 == nil && n.Data == "h1" && nodeText(n) != "" {
			h1 = n
		}
		if classed == nil && isHeading(n) && anyClass(n, titleClasses) && nodeText(n) != "" {
			classed = n
		}
		return true
	})
	switch {
	case classed != nil:
		return nodeText(classed), blogharvest.MethodHeuristic
	case h1 != nil:
		return nodeText(h1), blogharvest.MethodHeuristic
	}
	if t := documentTitle(f.root); t != "" {
		return t, blogharvest.MethodHeuristic
	}
	return "", ""
}

// isHeading reports whether n is h1–h6 or holds a heading's class.
func isHeading(n *html.Node) bool {
	return len(n.Data) == 2 && n.Data[0] == 'h' && n.Data[1] >= '1' && n.Data[1] <= '6'
}

// anyClass reports whether one of n's class tokens is in set.
func anyClass(n *html.Node, set map[string]bool) bool {
	for tok := range strings.FieldsSeq(htmlnode.Attr(n, "class")) {
		if set[tok] {
			return true
		}
	}
	return false
}

// documentTitle returns the <title> text without the blog name: the longest
// part between " | ", " - ", " – ", " — ", " » " and " :: ".
func documentTitle(root *html.Node) string {
	var t string
	walkElements(root, func(n *html.Node) bool {
		if t == "" && n.Data == "title" {
			t = nodeText(n)
		}
		return t == ""
	})
	best := ""
	for _, part := range splitAny(t, []string{" | ", " - ", " – ", " — ", " » ", " :: "}) {
		if len(part) > len(best) {
			best = part
		}
	}
	return strings.TrimSpace(best)
}

// splitAny splits s at every separator in seps.
func splitAny(s string, seps []string) []string {
	for _, sep := range seps {
		s = strings.ReplaceAll(s, sep, "\x00")
	}
	return strings.Split(s, "\x00")
}

// authorClasses mark bylines on common platforms.
var authorClasses = map[string]bool{
	"author": true, "byline": true, "post-author": true, "entry-author": true, "author-name": true,
	"fn": true, "p-author": true, "vcard": true, "g-profile": true,
}

// author returns the post's author and the method that found it.
func (f *fallback) author() (string, blogharvest.Method) {
	sd := f.data()
	if a := firstNonEmpty(sd.author, sd.mfAuthor); a != "" {
		return textsim.CleanAuthor(a), blogharvest.MethodStructured
	}
	var found string
	walkElements(f.root, func(n *html.Node) bool {
		if isCommentBox(n) || isSiteFooter(n) {
			return false
		}
		if found == "" && (anyClass(n, authorClasses) || htmlnode.Attr(n, "rel") == "author" || htmlnode.Attr(n, "itemprop") == "author") {
			text := nodeText(n)
			if t := textsim.CleanAuthor(text); t != "" && len(t) <= 60 {
				if found = firstNonEmpty(bylineName(text), t); !plausibleAuthor(found) {
					found = ""
				}
			}
		}
		return found == ""
	})
	if found == "" {
		found = firstNonEmpty(textByline(f.root), looseByline(f.root))
	}
	if !plausibleAuthor(found) {
		found = ""
	}
	if found != "" {
		return found, blogharvest.MethodHeuristic
	}
	return "", ""
}

// isSiteFooter reports whether n is the site's footer (a <footer> or
// role=contentinfo outside any article), whose vcard names the site or its
// software ("Proudly powered by …"), not the post's author.
func isSiteFooter(n *html.Node) bool {
	if n.Data != "footer" && htmlnode.Attr(n, "role") != "contentinfo" {
		return false
	}
	for a := n.Parent; a != nil; a = a.Parent {
		if a.Data == "article" || hasClass(a, "hentry") || hasClass(a, "h-entry") {
			return false
		}
	}
	return true
}

// isCommentBox reports whether n is a comment list, whose authors are not
// the post's.
func isCommentBox(n *html.Node) bool {
	return containsFold(htmlnode.Attr(n, "id"), "comment") || containsFold(htmlnode.Attr(n, "class"), "comment")
}

// dateClasses mark post dates on common platforms.
var dateClasses = map[string]bool{
	"published": true, "entry-date": true, "post-date": true, "date-header": true, "postdate": true,
	"date": true, "dt-published": true, "post-meta": true, "entry-meta": true, "meta-date": true, "timestamp": true,
}

// date returns the post's date, its precision and the method that found
// it: structured data's published date, else a date the page marks as the
// published one (<time pubdate>, an HTML comment such as "<!-- published:
// 2023-09-01 -->"), else the first dated element that is not a "last
// edited" date, else structured data's modified date.
func (f *fallback) date(lang string) (time.Time, blogharvest.Precision, blogharvest.Method) {
	sd := f.data()
	for _, s := range []string{sd.date, sd.mfDate} {
		if t, p, ok := parseDatePrec(s, lang); ok {
			return t, p, blogharvest.MethodStructured
		}
	}
	if t, p, ok := publishedHint(f.root, lang); ok {
		return t, p, blogharvest.MethodHeuristic
	}
	if t, p, m := f.heuristicDate(lang); !t.IsZero() {
		return t, p, m
	}
	if t, p, ok := parseDatePrec(sd.updated, lang); ok {
		return t, p, blogharvest.MethodStructured
	}
	return time.Time{}, "", ""
}

// heuristicDate returns the date of the first <time>, dated class or
// itemprop datePublished outside the comments that does not say when the
// post was last edited.
func (f *fallback) heuristicDate(lang string) (time.Time, blogharvest.Precision, blogharvest.Method) {
	var found time.Time
	var prec blogharvest.Precision
	walkElements(f.root, func(n *html.Node) bool {
		if isCommentBox(n) || modifiedLike(n) {
			return false
		}
		if found.IsZero() && (n.Data == "time" || anyClass(n, dateClasses) || htmlnode.Attr(n, "itemprop") == "datePublished") {
			if t, p, ok := nodeDatePrec(n, "", lang); ok {
				found, prec = t, p
			}
		}
		return found.IsZero()
	})
	if !found.IsZero() {
		return found, prec, blogharvest.MethodHeuristic
	}
	return time.Time{}, "", ""
}

// structuredBody returns a JSON-LD articleBody, the last resort for the
// article's text.
func (f *fallback) structuredBody() string { return f.data().body }
