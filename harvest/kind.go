package harvest

import (
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/htmlnode"
	"github.com/blogharvest/blogharvest/harvest/learn"
)

// minListingPosts is how many distinct posts a page inside the post
// pattern must link to, outside its navigation, to be a listing.
const minListingPosts = 5

// isListing reports whether a page whose URL matches the post pattern,
// but that no feed item names, is a listing rather than a post (a static
// generator's index2.html … among posts at /slug.html): several articles
// making its main content, or no article element, links to many posts and a link to a
// sibling page of the same listing (index3.html, /page/3/). A post has one
// main article (related-post cards in an aside or beside a long article
// do not count: mainArticles), or links to few posts, or no paging. The
// last page of a listing, with fewer posts, is told by its title: the
// blog's own.
func (s *site) isListing(p *fetchedPage) bool {
	if p.info.summaries > 1 {
		return true
	}
	if p.info.summaries == 1 {
		return false
	}
	posts := map[string]bool{}
	paged := false
	for _, l := range p.info.links {
		u, err := url.Parse(l.url)
		if err != nil || sameDoc(u, p.url) {
			continue
		}
		if digitSibling(p.url, u) {
			paged = true
			continue
		}
		if !l.nav && s.pattern.Match(u) {
			posts[u.Path] = true
		}
	}
	return paged && (len(posts) >= minListingPosts || len(posts) >= 2 && s.titledAsBlog(p))
}

// titledAsBlog reports whether the page's title is the blog's own (the
// feed's title), as listings are titled and posts never are.
func (s *site) titledAsBlog(p *fetchedPage) bool {
	if s.feed == nil || strings.TrimSpace(s.feed.Title) == "" {
		return false
	}
	return p.info.title != "" && strings.EqualFold(strings.Join(strings.Fields(p.info.title), " "),
		strings.Join(strings.Fields(s.feed.Title), " "))
}

// sameDoc reports whether a and b name the same document (fragments and
// queries aside).
func sameDoc(a, b *url.URL) bool { return a.Host == b.Host && a.Path == b.Path }

// digitSibling reports whether b's path is a's with other digits only, or
// with the digits dropped ("index2.html" and "index3.html" or
// "index.html"; "/page/2/" and "/page/3/"): a page of the same paged
// listing.
func digitSibling(a, b *url.URL) bool {
	if a.Host != b.Host || a.Path == b.Path {
		return false
	}
	da, db := stripDigits(a.Path), stripDigits(b.Path)
	if da != db {
		return false
	}
	return hasDigit(a.Path) || hasDigit(b.Path)
}

// stripDigits removes the ASCII digits of s, and a "-" or "_" left
// before an extension or at the end ("index-2.html" → "index.html").
func stripDigits(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			b.WriteByte(s[i])
		}
	}
	r := b.String()
	for _, sep := range []string{"-.", "_.", "-/", "_/"} {
		r = strings.ReplaceAll(r, sep, sep[1:])
	}
	return strings.TrimRight(r, "-_")
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// minPostText is how much article text (bytes) a page needs to read as a
// post without the post pattern's word.
const minPostText = 500

// readsAsPost reports whether a page the post pattern does not name reads
// as a post: a long article, a title of its own (not the blog's) and a
// date the page gives by the learned rule or its structured data.
func (s *site) readsAsPost(ex learn.Extraction, p *fetchedPage) bool {
	if len(ex.ContentText) < minPostText || strings.TrimSpace(ex.Title) == "" || ex.Date.IsZero() || s.titledAsBlog(p) {
		return false
	}
	if s.feed != nil && strings.EqualFold(strings.TrimSpace(ex.Title), strings.TrimSpace(s.feed.Title)) {
		return false
	}
	m := ex.Methods[learn.FieldDate]
	return m == blogharvest.MethodRule || m == blogharvest.MethodStructured
}

// titleLinksAway reports whether an anchor of the page whose text is the
// extracted title leads to another page: the title of a summary in a
// listing, not the page's own.
func titleLinksAway(p *fetchedPage, title string) bool {
	title = strings.Join(strings.Fields(title), " ")
	if title == "" || p.doc == nil {
		return false
	}
	away := false
	eachElement(p.doc, func(n *html.Node) {
		if away || n.DataAtom != atom.A {
			return
		}
		if !strings.EqualFold(strings.Join(strings.Fields(htmlnode.Text(n)), " "), title) {
			return
		}
		if u, err := p.url.Parse(htmlnode.Attr(n, "href")); err == nil && htmlnode.Attr(n, "href") != "" && htmlnode.Attr(n, "href")[0] != '#' &&
			canonicalOr(u.String()) != p.ident && canonicalOr(u.String()) != p.url.String() {
			away = true
		}
	})
	return away
}

// summaryOf reports whether the page's one article is the summary of
// another page, as an archive holding one post shows it: outside its text,
// its first heading links to another page, or a link (a rel="bookmark"
// permalink, "Continue reading") leads to a post.
func (s *site) summaryOf(p *fetchedPage, ex learn.Extraction) bool {
	box := postBox(ex)
	if box == nil {
		return false
	}
	away, heading := false, false
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for ch := n.FirstChild; ch != nil && !away; ch = ch.NextSibling {
			if ch.Type != html.ElementNode || ch == ex.ArticleNode {
				continue
			}
			switch ch.DataAtom {
			case atom.H1, atom.H2, atom.H3:
				if !heading {
					heading = true
					eachElement(ch, func(a *html.Node) {
						if a.DataAtom == atom.A && linksAway(p, htmlnode.Attr(a, "href")) {
							away = true
						}
					})
				}
			case atom.A:
				href := htmlnode.Attr(ch, "href")
				if linksAway(p, href) && (hasRel(strings.ToLower(htmlnode.Attr(ch, "rel")), "bookmark") || s.isPostLink(p, href)) {
					away = true
				}
			}
			walk(ch)
		}
	}
	walk(box)
	return away
}

// isPostLink reports whether href, from p, names a post by the pattern.
func (s *site) isPostLink(p *fetchedPage, href string) bool {
	u, err := p.url.Parse(href)
	if err != nil {
		return false
	}
	c := mustCanonical(u.String())
	return c != nil && s.pattern.Match(c)
}

// linksAway reports whether href leads from p to another page (not a
// fragment of p, not p under another of its URLs).
func linksAway(p *fetchedPage, href string) bool {
	if href == "" || href[0] == '#' {
		return false
	}
	u, err := p.url.Parse(href)
	if err != nil {
		return false
	}
	c := canonicalOr(u.String())
	return c != "" && c != p.ident && c != canonicalOr(p.url.String())
}

// underPost reports whether the page lies under a post's URL and links
// back to it: a part of that post (an attachment page, a comment page,
// each linking to the post it belongs to), not a page of its own. A
// prefix the pattern matches but the page does not link to is no post
// the crawl knows (a generator's subfolder of posts, /2020/02/15/notes/).
func (s *site) underPost(p *fetchedPage) bool {
	u := p.url
	segs := segments(u.EscapedPath())
	for i := len(segs) - 1; i >= 1; i-- {
		v := *u
		v.RawQuery, v.Fragment = "", ""
		for _, path := range []string{"/" + strings.Join(segs[:i], "/") + "/", "/" + strings.Join(segs[:i], "/")} {
			blogharvest.SetEscapedPath(&v, path)
			if s.pattern.Match(&v) && linksTo(p, canonicalOr(v.String())) {
				return true
			}
		}
	}
	return false
}

// linksTo reports whether the page links to the canonical URL c.
func linksTo(p *fetchedPage, c string) bool {
	if c == "" {
		return false
	}
	for _, l := range p.info.links {
		if l.url == c {
			return true
		}
	}
	return false
}

// outsidePattern reports whether a feed item's page lies outside the post
// pattern that the feed's other items make (a static generator's feed that
// lists /about/ among /posts/slug/): a page, not a post.
func (s *site) outsidePattern(ident string) bool {
	u, err := url.Parse(ident)
	return err == nil && s.pattern != nil && !s.pattern.Match(u)
}
