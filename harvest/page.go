package harvest

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/htmlnode"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/platform"
	xnethtml "github.com/blogharvest/blogharvest/internal/xnet/html"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// fetchedPage is an HTML page in memory, parsed once, with what reading
// the tree found on it.
type fetchedPage struct {
	resp  *fetch.Response
	html  []byte     // decoded to UTF-8
	doc   *html.Node // html parsed once: every reader of the page walks this tree; nil if the parser refused it
	url   *url.URL
	ident string // canonical identity: rel=canonical in scope, else the final URL
	stub  string // the target a redirect stub page sends its reader to; "" for other pages
	info  *pageInfo
	// parked: doc was let go until the page's entry is built, and is
	// parsed again from html then (unpark): a large training page waiting
	// for the other training pages' entries (train.go).
	parked bool
}

// park lets the page's tree go until unpark; html stays.
func (p *fetchedPage) park() {
	if p.doc != nil {
		p.doc, p.parked = nil, true
	}
}

// unpark parses a parked page's html again: the same tree, as html.Parse
// is deterministic.
func (p *fetchedPage) unpark() {
	if p.parked {
		p.doc, _ = xnethtml.Parse(bytes.NewReader(p.html))
		p.parked = false
	}
}

// newFetchedPage decodes, parses and reads a fetched HTML response.
func newFetchedPage(resp *fetch.Response) (*fetchedPage, error) {
	text, _, err := resp.Text()
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w", resp.URL, err)
	}
	u, err := url.Parse(resp.URL)
	if err != nil {
		return nil, blogharvest.Permanent(fmt.Errorf("page %q: %w", resp.URL, err))
	}
	final, err := canonicalURL(u)
	if err != nil {
		return nil, blogharvest.Permanent(err)
	}
	fu, _ := url.Parse(final)
	// A page the parser refuses (nested deeper than it allows) keeps a nil
	// tree: its links are not read; the extractor says what it makes of it.
	doc, _ := xnethtml.Parse(bytes.NewReader(text))
	return &fetchedPage{resp: resp, html: text, doc: doc, url: fu, ident: final, info: readPage(doc, u)}, nil
}

// link is one hyperlink found on a page.
type link struct {
	url  string // canonical
	nav  bool   // inside <nav>, <header> or a menu: site navigation
	rel  string // rel attribute, lowercased
	text string // the anchor text, kept only for rel="tag"/"category" links (taxonomy terms)
}

// pageInfo is what one walk over a parsed page finds besides its
// article: links, identity hints and signs of what the static HTML lacks.
type pageInfo struct {
	links     []link
	canonical string   // rel=canonical, canonicalised
	shortlink string   // rel=shortlink (WordPress ?p=N)
	feeds     []string // rel=alternate feeds (per-post comment feeds among them)
	lang      string
	title     string // the text of the document's first <title>
	license   string // the first rel=license link (<link> or <a>, as Creative Commons badges are): the page's license
	ogArticle bool   // og:type article or article:published_time
	password  bool   // a WordPress post-password-form
	articles  int    // <article> elements and hentry blocks (comments aside)
	// summaries is how many articles make the page's main content a
	// sequence of post summaries (a listing): the articles outside asides,
	// footers, navigation and related-post boxes, not nested in one
	// another, when none of them holds most of their text; 1 when one
	// does (a post with related-post cards), 0 without articles.
	summaries    int
	articleNodes []*html.Node // the walk's articles, read by readPage and then dropped
	jsComments   string       // the JavaScript comment system the walk found ("scripted", "iframe"); jsSystem adds the markers' ("disqus")
	// jsCommentsSrc is the URL of the script or iframe that made
	// jsComments "scripted" or "iframe"; rendering for it is worth it only
	// when the browser may load it.
	jsCommentsSrc string
}

// pageLinks is room for the links of a typical blog page (menu, sidebar,
// post and comments), so that its slice is not regrown link by link.
const pageLinks = 64

// readPage reads what pageInfo holds from doc, the parsed page fetched
// from base, in document order (a <base href> changes the base of the
// links after it).
func readPage(doc *html.Node, base *url.URL) *pageInfo {
	r := &pageReader{pi: &pageInfo{links: make([]link, 0, pageLinks)}, base: base}
	if doc != nil {
		r.walk(doc, false)
	}
	r.pi.summaries = mainArticles(r.pi.articleNodes)
	r.pi.articleNodes = nil
	return r.pi
}

// articleLinks returns the links of an extracted article: read from its
// cleaned element when the extraction has one (ContentHTML renders that
// element's children), else from ContentHTML parsed.
func articleLinks(ex learn.Extraction, base *url.URL) []link {
	if n := ex.CleanedArticle(); n != nil {
		return nodeLinks(n, base)
	}
	return linksOf(ex.ContentHTML, base)
}

// nodeLinks returns the links under n.
func nodeLinks(n *html.Node, base *url.URL) []link {
	r := &pageReader{pi: &pageInfo{}, base: base}
	r.walk(n, false)
	return r.pi.links
}

// linksOf returns the links of an HTML fragment (an extracted article).
func linksOf(fragment string, base *url.URL) []link {
	doc, err := xnethtml.Parse(strings.NewReader(fragment))
	if err != nil {
		return nil
	}
	return nodeLinks(doc, base)
}

// pageReader is one walk of readPage.
type pageReader struct {
	pi       *pageInfo
	base     *url.URL
	resolved map[string]string // hrefs resolved against base (a page repeats its links)
}

// resolve resolves and canonicalises an href against the base, once per
// page and href; an href the crawl-wide cache holds (absolute or
// root-relative) is read from it alone.
func (r *pageReader) resolve(href string) string {
	if href == "" || href[0] == '#' {
		return "" // no href, or a fragment of this page: no link, as resolve says
	}
	if k, ok := cacheKey(r.base, href); ok {
		return resolveKeyed(k, r.base, href)
	}
	if u, ok := r.resolved[href]; ok {
		return u
	}
	u := resolve(r.base, href)
	if r.resolved == nil {
		r.resolved = map[string]string{}
	}
	r.resolved[href] = u
	return u
}

// walk reads the elements under n; nav says whether n is inside site
// navigation (<nav>, <header>, a menu).
func (r *pageReader) walk(n *html.Node, nav bool) {
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type != html.ElementNode {
			continue
		}
		r.element(ch, nav)
		inNav := nav || isNavContainer(ch)
		if ch.DataAtom == atom.Noscript {
			for _, k := range noscriptNodes(ch) {
				r.element(k, inNav)
				r.walk(k, inNav || isNavContainer(k))
			}
			continue
		}
		r.walk(ch, inNav)
	}
}

// element records what one element says.
func (r *pageReader) element(n *html.Node, nav bool) {
	pi := r.pi
	switch n.DataAtom {
	case atom.A, atom.Area:
		if u := r.resolve(htmlnode.Attr(n, "href")); u != "" {
			l := link{url: u, nav: nav, rel: strings.ToLower(htmlnode.Attr(n, "rel"))}
			if hasRel(l.rel, "license") && pi.license == "" {
				pi.license = u
			}
			if n.DataAtom == atom.A && (hasRel(l.rel, "tag") || hasRel(l.rel, "category")) {
				l.text = strings.Join(strings.Fields(htmlnode.Text(n)), " ") // a taxonomy term
			}
			pi.links = append(pi.links, l)
		}
	case atom.Link:
		r.linkTag(n)
	case atom.Meta:
		pi.metaTag(n)
	case atom.Html:
		pi.lang = htmlnode.Attr(n, "lang")
	case atom.Title:
		if pi.title == "" && n.Namespace == "" {
			pi.title = htmlnode.Text(n)
		}
	case atom.Base:
		if href := htmlnode.Attr(n, "href"); href != "" {
			if b, err := r.base.Parse(href); err == nil {
				r.base, r.resolved = b, nil
			}
		}
	case atom.Script:
		if src := strings.ToLower(htmlnode.Attr(n, "src")); strings.Contains(src, "comment") && !strings.Contains(src, "comment-reply") && pi.jsComments == "" {
			pi.jsComments, pi.jsCommentsSrc = "scripted", srcURL(r.base, htmlnode.Attr(n, "src"))
		}
	case atom.Iframe:
		if src := strings.ToLower(htmlnode.Attr(n, "src")); strings.Contains(src, "comment") && pi.jsComments == "" {
			pi.jsComments, pi.jsCommentsSrc = "iframe", srcURL(r.base, htmlnode.Attr(n, "src"))
		}
	case atom.Article:
		if !strings.Contains(strings.ToLower(htmlnode.Attr(n, "class")+" "+htmlnode.Attr(n, "id")), "comment") {
			pi.articles++ // comments are <article class="comment-body"> in HTML5 themes
			pi.articleNodes = append(pi.articleNodes, n)
		}
	case atom.Div:
		if hasRel(htmlnode.Attr(n, "class"), "hentry") {
			pi.articles++ // pre-HTML5 themes mark each post so
			pi.articleNodes = append(pi.articleNodes, n)
		}
	case atom.Form, atom.Input:
		if strings.Contains(htmlnode.Attr(n, "class"), "post-password-form") || strings.Contains(htmlnode.Attr(n, "action"), "action=postpass") ||
			htmlnode.Attr(n, "name") == "post_password" {
			pi.password = true
		}
	}
}

// hasRel reports whether a rel attribute value holds the token tok.
func hasRel(rel, tok string) bool {
	if !strings.Contains(rel, tok) {
		return false // most class and rel values: no need to split them
	}
	for f := range strings.FieldsSeq(rel) {
		if f == tok {
			return true
		}
	}
	return false
}

// isContainer reports whether an element may hold site navigation.
func isContainer(a atom.Atom) bool {
	switch a {
	case atom.Nav, atom.Header, atom.Div, atom.Ul, atom.Ol, atom.Section, atom.Aside, atom.Footer, atom.Main, atom.Article:
		return true
	}
	return false
}

// navMarkers are class or id fragments of navigation containers.
var navMarkers = []string{"menu", "nav", "pagelist", "widget_pages"}

// isNavContainer reports whether n is site navigation: <nav>, <header>,
// or a container whose class, id or role names a menu or page list.
func isNavContainer(n *html.Node) bool {
	if !isContainer(n.DataAtom) {
		return false
	}
	if n.DataAtom == atom.Nav || n.DataAtom == atom.Header {
		return true
	}
	for _, a := range n.Attr {
		if a.Namespace != "" || a.Key != "class" && a.Key != "id" && a.Key != "role" {
			continue
		}
		val := strings.ToLower(a.Val)
		for _, m := range navMarkers {
			if strings.Contains(val, m) {
				return true
			}
		}
	}
	return false
}

// eachElement calls f for every element under n in document order, the
// markup inside <noscript> included (see noscriptNodes).
func eachElement(n *html.Node, f func(*html.Node)) {
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type != html.ElementNode {
			continue
		}
		f(ch)
		if ch.DataAtom == atom.Noscript {
			for _, k := range noscriptNodes(ch) {
				if k.Type == html.ElementNode {
					f(k)
					eachElement(k, f)
				}
			}
			continue
		}
		eachElement(ch, f)
	}
}

// noscriptNodes parses the content of a <noscript> element, which the
// parser (scripting on, as a browser) keeps as text: the markup a reader
// without JavaScript gets (lazy images' fallbacks, links, frames) counts.
func noscriptNodes(n *html.Node) []*html.Node {
	if n.FirstChild == nil || n.FirstChild.Type != html.TextNode || !strings.Contains(n.FirstChild.Data, "<") {
		return nil
	}
	ctx := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := xnethtml.ParseFragment(strings.NewReader(n.FirstChild.Data), ctx)
	if err != nil {
		return nil
	}
	return nodes
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

// linkTag records <link rel=canonical|shortlink|alternate|next|prev|license>;
// the href of other <link>s (stylesheets, icons, preloads) is not resolved.
func (r *pageReader) linkTag(n *html.Node) {
	rels := strings.ToLower(htmlnode.Attr(n, "rel"))
	if !hasLinkRel(rels) {
		return
	}
	u := r.resolve(htmlnode.Attr(n, "href"))
	if u == "" {
		return
	}
	pi := r.pi
	for rel := range strings.FieldsSeq(rels) {
		switch rel {
		case "canonical":
			pi.canonical = u
		case "shortlink":
			pi.shortlink = u
		case "alternate":
			if t := strings.ToLower(htmlnode.Attr(n, "type")); strings.Contains(t, "rss") || strings.Contains(t, "atom") {
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

// hasLinkRel reports whether a rel attribute value (lowercased) names a
// relation linkTag records.
func hasLinkRel(rels string) bool {
	for rel := range strings.FieldsSeq(rels) {
		switch rel {
		case "canonical", "shortlink", "alternate", "next", "prev", "previous", "license":
			return true
		}
	}
	return false
}

// metaTag records OpenGraph article markers.
func (pi *pageInfo) metaTag(n *html.Node) {
	prop := strings.ToLower(htmlnode.Attr(n, "property") + htmlnode.Attr(n, "name"))
	switch {
	case prop == "og:type" && strings.EqualFold(htmlnode.Attr(n, "content"), "article"):
		pi.ogArticle = true
	case prop == "article:published_time":
		pi.ogArticle = true
	}
}

// jsSystem returns the JavaScript comment system the page shows: what
// the walk found (a script or frame naming comments: "scripted",
// "iframe"), else the first platform whose JSMarkers page, the page's
// bytes, holds (e.g. "disqus"), else "". Only renderReason asks, when it
// gets that far: a crawl that never renders never searches the bytes.
func (pi *pageInfo) jsSystem(page []byte) string {
	if pi.jsComments != "" {
		return pi.jsComments
	}
	return platform.JSSystem(page)
}
