package harvest

import (
	"bytes"
	"net/url"
	"strings"

	"github.com/blogharvest/blogharvest/harvest/platform"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// link is one hyperlink found on a page.
type link struct {
	url  string // canonical
	nav  bool   // inside <nav>, <header> or a menu: site navigation
	rel  string // rel attribute, lowercased
	text string // the anchor text, kept only for rel="tag"/"category" links (taxonomy terms)
}

// pageInfo is what one tokenizer pass over a page finds besides its
// article: links, identity hints and signs of what the static HTML lacks.
type pageInfo struct {
	links      []link
	canonical  string   // rel=canonical, canonicalised
	shortlink  string   // rel=shortlink (WordPress ?p=N)
	feeds      []string // rel=alternate feeds (per-post comment feeds among them)
	lang       string
	license    string // the first rel=license link (<link> or <a>, as Creative Commons badges are): the page's license
	ogArticle  bool   // og:type article or article:published_time
	password   bool   // a WordPress post-password-form
	articles   int    // <article> elements and hentry blocks: several make a listing
	jsComments string // the JavaScript comment system found, e.g. "disqus"
	// jsCommentsSrc is the URL of the script or iframe that made
	// jsComments "scripted" or "iframe"; rendering for it is worth it only
	// when the browser may load it.
	jsCommentsSrc string
}

// scanPage tokenizes page (UTF-8 HTML) fetched from base.
func scanPage(page []byte, base *url.URL) *pageInfo {
	pi := &pageInfo{}
	z := html.NewTokenizer(bytes.NewReader(page))
	var nav navStack
	term := -1 // index of the open rel="tag" link whose text is read
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			pi.detectJSComments(page)
			return pi
		case html.StartTagToken, html.SelfClosingTagToken:
			tn, hasAttr := z.TagName()
			a := atom.Lookup(tn)
			attrs := readAttrs(z, hasAttr)
			if tt == html.StartTagToken {
				nav.open(a, attrs)
			}
			n := len(pi.links)
			base = pi.startTag(a, attrs, base, nav.inside())
			if a == atom.A && len(pi.links) > n && (hasRel(pi.links[n].rel, "tag") || hasRel(pi.links[n].rel, "category")) && tt == html.StartTagToken {
				term = n
			}
		case html.TextToken:
			if term >= 0 {
				pi.links[term].text += string(z.Text())
			}
		case html.EndTagToken:
			tn, _ := z.TagName()
			a := atom.Lookup(tn)
			if a == atom.A && term >= 0 {
				pi.links[term].text = strings.Join(strings.Fields(pi.links[term].text), " ")
				term = -1
			}
			nav.close(a)
		}
	}
}

// hasRel reports whether a rel attribute value holds the token tok.
func hasRel(rel, tok string) bool {
	for _, f := range strings.Fields(rel) {
		if f == tok {
			return true
		}
	}
	return false
}

// navStack tracks the open container elements around the tokenizer's
// position, to tell site navigation (<nav>, <header>, menus, page lists)
// from content.
type navStack struct {
	tags []atom.Atom
	nav  []bool
	n    int // open navigation containers
}

// containers are the elements navStack tracks.
var containers = map[atom.Atom]bool{atom.Nav: true, atom.Header: true, atom.Div: true, atom.Ul: true,
	atom.Ol: true, atom.Section: true, atom.Aside: true, atom.Footer: true, atom.Main: true, atom.Article: true}

// navMarkers are class or id fragments of navigation containers.
var navMarkers = []string{"menu", "nav", "pagelist", "widget_pages"}

func (s *navStack) open(a atom.Atom, attrs map[string]string) {
	if !containers[a] {
		return
	}
	isNav := a == atom.Nav || a == atom.Header
	marks := strings.ToLower(attrs["class"] + " " + attrs["id"] + " " + attrs["role"])
	for _, m := range navMarkers {
		isNav = isNav || strings.Contains(marks, m)
	}
	s.tags = append(s.tags, a)
	s.nav = append(s.nav, isNav)
	if isNav {
		s.n++
	}
}

// close pops up to the innermost open a, if any.
func (s *navStack) close(a atom.Atom) {
	if !containers[a] {
		return
	}
	for i := len(s.tags) - 1; i >= 0; i-- {
		if s.tags[i] != a {
			continue
		}
		for k := i; k < len(s.tags); k++ {
			if s.nav[k] {
				s.n--
			}
		}
		s.tags, s.nav = s.tags[:i], s.nav[:i]
		return
	}
}

func (s *navStack) inside() bool { return s.n > 0 }

// readAttrs returns the attributes of the current tag, keys lowercased.
func readAttrs(z *html.Tokenizer, more bool) map[string]string {
	if !more {
		return nil
	}
	m := map[string]string{}
	for more {
		var k, v []byte
		k, v, more = z.TagAttr()
		m[string(k)] = string(v)
	}
	return m
}

// startTag records what one start tag says; it returns the base URL for
// later links (changed by <base href>).
func (pi *pageInfo) startTag(a atom.Atom, attrs map[string]string, base *url.URL, nav bool) *url.URL {
	switch a {
	case atom.A, atom.Area:
		if u := resolve(base, attrs["href"]); u != "" {
			pi.links = append(pi.links, link{url: u, nav: nav, rel: strings.ToLower(attrs["rel"])})
			if hasRel(strings.ToLower(attrs["rel"]), "license") && pi.license == "" {
				pi.license = u
			}
		}
	case atom.Link:
		pi.linkTag(attrs, base)
	case atom.Meta:
		pi.metaTag(attrs)
	case atom.Html:
		pi.lang = attrs["lang"]
	case atom.Base:
		if b, err := base.Parse(attrs["href"]); err == nil && attrs["href"] != "" {
			return b
		}
	case atom.Script:
		if src := strings.ToLower(attrs["src"]); strings.Contains(src, "comment") && !strings.Contains(src, "comment-reply") && pi.jsComments == "" {
			pi.jsComments, pi.jsCommentsSrc = "scripted", srcURL(base, attrs["src"])
		}
	case atom.Iframe:
		if src := strings.ToLower(attrs["src"]); strings.Contains(src, "comment") && pi.jsComments == "" {
			pi.jsComments, pi.jsCommentsSrc = "iframe", srcURL(base, attrs["src"])
		}
	case atom.Article:
		if !strings.Contains(strings.ToLower(attrs["class"]+" "+attrs["id"]), "comment") {
			pi.articles++ // comments are <article class="comment-body"> in HTML5 themes
		}
	case atom.Div:
		if hasRel(attrs["class"], "hentry") {
			pi.articles++ // pre-HTML5 themes mark each post so
		}
	case atom.Form, atom.Input:
		if strings.Contains(attrs["class"], "post-password-form") || strings.Contains(attrs["action"], "action=postpass") ||
			attrs["name"] == "post_password" {
			pi.password = true
		}
	}
	return base
}

// srcURL resolves a script's or iframe's src against base; a src that
// does not resolve yields "invalid:" (which no browser may load).
func srcURL(base *url.URL, src string) string {
	u, err := base.Parse(strings.TrimSpace(src))
	if err != nil {
		return "invalid:"
	}
	return u.String()
}

// linkTag records <link rel=canonical|shortlink|alternate|next|prev|license>.
func (pi *pageInfo) linkTag(attrs map[string]string, base *url.URL) {
	u := resolve(base, attrs["href"])
	if u == "" {
		return
	}
	for _, rel := range strings.Fields(strings.ToLower(attrs["rel"])) {
		switch rel {
		case "canonical":
			pi.canonical = u
		case "shortlink":
			pi.shortlink = u
		case "alternate":
			if t := strings.ToLower(attrs["type"]); strings.Contains(t, "rss") || strings.Contains(t, "atom") {
				pi.feeds = append(pi.feeds, u)
			}
		case "next", "prev", "previous":
			pi.links = append(pi.links, link{url: u, rel: rel})
		case "license":
			if pi.license == "" {
				pi.license = u
			}
		}
	}
}

// metaTag records OpenGraph article markers.
func (pi *pageInfo) metaTag(attrs map[string]string) {
	prop := strings.ToLower(attrs["property"] + attrs["name"])
	switch {
	case prop == "og:type" && strings.EqualFold(attrs["content"], "article"):
		pi.ogArticle = true
	case prop == "article:published_time":
		pi.ogArticle = true
	}
}

// detectJSComments looks for the markers of JavaScript comment systems
// (the platform table's JSMarkers).
func (pi *pageInfo) detectJSComments(page []byte) {
	if pi.jsComments != "" {
		return
	}
	pi.jsComments = platform.JSSystem(page)
}
