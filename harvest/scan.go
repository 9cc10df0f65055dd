package harvest

import (
	"bytes"
	"net/url"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// link is one hyperlink found on a page.
type link struct {
	url string // canonical
	nav bool   // inside <nav>, <header> or a menu: site navigation
	rel string // rel attribute, lowercased
}

// pageInfo is what one tokenizer pass over a page finds besides its
// article: links, identity hints and signs of what the static HTML lacks.
type pageInfo struct {
	links      []link
	canonical  string   // rel=canonical, canonicalised
	shortlink  string   // rel=shortlink (WordPress ?p=N)
	feeds      []string // rel=alternate feeds (per-post comment feeds among them)
	lang       string
	ogArticle  bool   // og:type article or article:published_time
	password   bool   // a WordPress post-password-form
	jsComments string // the JavaScript comment system found, e.g. "disqus"
}

// jsCommentMarkers maps markup fragments to the JavaScript comment system
// they reveal.
var jsCommentMarkers = []struct{ marker, system string }{
	{"disqus_thread", "disqus"}, {"disqus.com/embed", "disqus"}, {".disqus.com", "disqus"},
	{"livefyre", "livefyre"}, {"fyre.co", "livefyre"}, {"jetpack_remote_comment", "jetpack"},
	{"jetpack-comments", "jetpack"}, {"fb-comments", "facebook"}, {"facebook.com/plugins/comments", "facebook"},
	{"intensedebate", "intensedebate"}, {"utteranc.es", "utterances"}, {"giscus.app", "giscus"},
	{"commento", "commento"}, {"data-comments-src", "scripted"}, {"comments-iframe", "iframe"},
}

// scanPage tokenizes page (UTF-8 HTML) fetched from base.
func scanPage(page []byte, base *url.URL) *pageInfo {
	pi := &pageInfo{}
	z := html.NewTokenizer(bytes.NewReader(page))
	navDepth := 0
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
			if (a == atom.Nav || a == atom.Header) && tt == html.StartTagToken {
				navDepth++
			}
			base = pi.startTag(a, attrs, base, navDepth > 0)
		case html.EndTagToken:
			tn, _ := z.TagName()
			if a := atom.Lookup(tn); (a == atom.Nav || a == atom.Header) && navDepth > 0 {
				navDepth--
			}
		}
	}
}

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
	case atom.Form, atom.Input:
		if strings.Contains(attrs["class"], "post-password-form") || strings.Contains(attrs["action"], "action=postpass") ||
			attrs["name"] == "post_password" {
			pi.password = true
		}
	}
	return base
}

// linkTag records <link rel=canonical|shortlink|alternate|next|prev>.
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

// detectJSComments looks for the markers of JavaScript comment systems.
func (pi *pageInfo) detectJSComments(page []byte) {
	for _, m := range jsCommentMarkers {
		if bytes.Contains(page, []byte(m.marker)) {
			pi.jsComments = m.system
			return
		}
	}
}
