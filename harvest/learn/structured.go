package learn

import (
	"encoding/json"
	"strings"

	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest/harvest/htmlnode"
)

// structured is what a page states about its post in structured data:
// JSON-LD BlogPosting/Article, microformats h-entry, OpenGraph and
// article:* meta.
type structured struct {
	title, author, date, body string
	updated                   string     // when the post was last changed: a date when nothing better is said
	hentry                    *html.Node // the h-entry element, if any
	content                   *html.Node // its e-content element, if any
	mfTitle, mfAuthor, mfDate string     // from the h-entry
	commentScripts            []any      // the JSON-LD scripts ldComments reads, parsed
}

// articleTypes are the schema.org types JSON-LD posts use.
var articleTypes = map[string]bool{
	"BlogPosting": true, "Article": true, "NewsArticle": true, "TechArticle": true,
	"SocialMediaPosting": true, "Report": true, "ScholarlyArticle": true, "LiveBlogPosting": true,
}

// readStructured collects the structured data of a page.
func readStructured(root *html.Node) *structured {
	s := &structured{}
	walkElements(root, func(n *html.Node) bool {
		forArticle := n.Data == "script" && strings.Contains(htmlnode.Attr(n, "type"), "ld+json")
		if n.Data == "script" && n.FirstChild != nil {
			s.script(n, forArticle)
		}
		switch {
		case forArticle: // read above
		case n.Data == "meta":
			s.meta(n)
		case s.hentry == nil && hasClass(n, "h-entry"):
			s.hentry = n
			s.microformats(n)
		}
		return true
	})
	return s
}

// meta reads OpenGraph and article:* meta elements.
func (s *structured) meta(n *html.Node) {
	key := firstNonEmpty(htmlnode.Attr(n, "property"), htmlnode.Attr(n, "name"), htmlnode.Attr(n, "itemprop"))
	v := strings.TrimSpace(htmlnode.Attr(n, "content"))
	set := func(dst *string) {
		if *dst == "" {
			*dst = v
		}
	}
	switch strings.ToLower(key) {
	case "og:title", "twitter:title":
		set(&s.title)
	case "article:author", "author", "dc.creator":
		if !strings.HasPrefix(v, "http") {
			set(&s.author)
		}
	case "article:published_time", "article:published", "dc.date", "dc.date.issued", "dc.date.created",
		"dcterms.date", "dcterms.created", "dcterms.issued", "date", "datepublished", "sailthru.date",
		"parsely-pub-date", "publish-date", "pubdate", "publish_date", "citation_publication_date":
		set(&s.date)
	case "og:updated_time", "article:modified_time":
		set(&s.updated)
	}
}

// script parses a JSON-LD script once for both its readers: the post's
// fields (forArticle: its type holds "ld+json") and ldComments (its type
// is application/ld+json in any case, and it lies in no other such
// script).
func (s *structured) script(n *html.Node, forArticle bool) {
	forComments := isLDScript(n) && !inLDScript(n)
	if !forArticle && !forComments || !ldMayHold(n.FirstChild.Data, forArticle, forComments) {
		return
	}
	var v any
	if err := json.Unmarshal([]byte(n.FirstChild.Data), &v); err != nil {
		return
	}
	if forArticle {
		s.visitLD(v, 0)
	}
	if forComments {
		s.commentScripts = append(s.commentScripts, v)
	}
}

// ldMayHold reports whether JSON-LD source src may hold what its readers
// look for: an object whose type is one of articleTypes (forArticle) or a
// Comment (forComments). A string of the parsed JSON has the letters of
// its source unless an escape (\uXXXX) writes them, so a script without
// these names or an escape need not be parsed.
func ldMayHold(src string, forArticle, forComments bool) bool {
	if strings.Contains(src, `\u`) || forComments && strings.Contains(src, "Comment") {
		return true
	}
	if forArticle {
		for t := range articleTypes {
			if strings.Contains(src, t) {
				return true
			}
		}
	}
	return false
}

// isLDScript reports whether element n is a script of type
// application/ld+json, in any case.
func isLDScript(n *html.Node) bool {
	return n.Data == "script" && strings.EqualFold(htmlnode.Attr(n, "type"), "application/ld+json")
}

// inLDScript reports whether n lies inside an isLDScript element (a
// script in foreign content may hold elements).
func inLDScript(n *html.Node) bool {
	for a := n.Parent; a != nil; a = a.Parent {
		if a.Type == html.ElementNode && isLDScript(a) {
			return true
		}
	}
	return false
}

// visitLD looks for article objects in a JSON-LD value (arrays and @graph
// included).
func (s *structured) visitLD(v any, depth int) {
	if depth > 6 {
		return
	}
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			s.visitLD(x, depth+1)
		}
	case map[string]any:
		if g, ok := v["@graph"]; ok {
			s.visitLD(g, depth+1)
		}
		if !isArticleType(v["@type"]) {
			return
		}
		setFirst(&s.title, ldString(v["headline"]), ldString(v["name"]))
		setFirst(&s.author, ldName(v["author"]))
		setFirst(&s.date, ldString(v["datePublished"]), ldString(v["dateCreated"]))
		setFirst(&s.body, ldString(v["articleBody"]))
	}
}

// isArticleType reports whether a JSON-LD @type names an article type.
func isArticleType(t any) bool {
	switch t := t.(type) {
	case string:
		return articleTypes[t]
	case []any:
		for _, x := range t {
			if isArticleType(x) {
				return true
			}
		}
	}
	return false
}

// ldString returns v when it is a string.
func ldString(v any) string {
	s, _ := v.(string)
	return strings.TrimSpace(s)
}

// ldName returns the name of a JSON-LD person (or the first of a list).
func ldName(v any) string {
	switch v := v.(type) {
	case string:
		return strings.TrimSpace(v)
	case map[string]any:
		return ldString(v["name"])
	case []any:
		if len(v) > 0 {
			return ldName(v[0])
		}
	}
	return ""
}

// setFirst sets *dst to the first non-empty value, if *dst is empty.
func setFirst(dst *string, vals ...string) {
	for _, v := range vals {
		if *dst == "" && v != "" {
			*dst = v
		}
	}
}

// microformats reads an h-entry's properties.
func (s *structured) microformats(entry *html.Node) {
	walkElements(entry, func(n *html.Node) bool {
		if n != entry && hasClass(n, "h-entry") {
			return false
		}
		switch {
		case s.mfTitle == "" && hasClass(n, "p-name"):
			s.mfTitle = nodeText(n)
		case s.mfAuthor == "" && hasClass(n, "p-author"):
			s.mfAuthor = nodeText(n)
		case s.mfDate == "" && hasClass(n, "dt-published"):
			s.mfDate = firstNonEmpty(htmlnode.Attr(n, "datetime"), htmlnode.Attr(n, "title"), nodeText(n))
		case s.content == nil && hasClass(n, "e-content"):
			s.content = n
		}
		return true
	})
}

// firstNonEmpty returns the first non-empty value.
func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v = strings.TrimSpace(v); v != "" {
			return v
		}
	}
	return ""
}

// hasClass reports whether element n has class token c.
func hasClass(n *html.Node, c string) bool {
	v := htmlnode.Attr(n, "class")
	for {
		i := strings.Index(v, c)
		if i < 0 {
			return false
		}
		j := i + len(c)
		if (i == 0 || isHTMLSpace(v[i-1])) && (j == len(v) || isHTMLSpace(v[j])) {
			return true
		}
		v = v[i+1:]
	}
}

// isHTMLSpace reports whether b is ASCII white space as HTML defines it.
func isHTMLSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' }

// walkElements calls f on every element under n (n included) in document
// order, skipping the children of elements for which f returns false.
func walkElements(n *html.Node, f func(*html.Node) bool) {
	if n.Type == html.ElementNode && !f(n) {
		return
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		walkElements(c, f)
	}
}
