package harvest

import (
	"net/url"
	"strings"

	"github.com/blogharvest/blogharvest"

	"github.com/blogharvest/blogharvest/harvest/htmlnode"
	"github.com/blogharvest/blogharvest/internal/lazyregexp"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// requisiteRef is one page requisite a document names: its absolute URL
// and what it is, which says how to read it once fetched.
type requisiteRef struct {
	url  string
	kind refKind
}

// refKind says how a fetched requisite is read for further requisites.
type refKind int

const (
	refPlain  refKind = iota // read no further: an image, a script, a font
	refCSS                   // a stylesheet: its @import and url() are requisites
	refIframe                // a frame's document: its own requisites, on the blog's origins
)

// requisiteRefs returns the requisites an HTML document names, in
// document order, without duplicates: stylesheets, icons, preloads,
// scripts, images (src, every srcset candidate, lazy data-src, data-srcset
// and data-lazy-src, <picture> sources, the background attribute), media
// posters and sources, tracks, embeds and objects, iframe documents, and
// the url() and @import of <style> elements and style attributes. A
// <base href> is honoured.
func requisiteRefs(doc *html.Node, base *url.URL) []requisiteRef {
	var out []requisiteRef
	seen := map[string]bool{}
	add := func(ref string, k refKind, against *url.URL) {
		if u := absRequisite(ref, against); u != "" && !seen[u] {
			seen[u] = true
			out = append(out, requisiteRef{u, k})
		}
	}
	eachElement(doc, func(n *html.Node) {
		if n.DataAtom == atom.Base && htmlnode.Attr(n, "href") != "" {
			if b, err := base.Parse(htmlnode.Attr(n, "href")); err == nil {
				base = b
			}
		}
	})
	eachElement(doc, func(n *html.Node) { elementRequisites(n, base, add) })
	return out
}

// elementRequisites passes the requisites one element names to add.
func elementRequisites(n *html.Node, base *url.URL, add func(string, refKind, *url.URL)) {
	plain := func(keys ...string) {
		for _, k := range keys {
			add(htmlnode.Attr(n, k), refPlain, base)
		}
	}
	srcsets := func(keys ...string) {
		for _, k := range keys {
			for _, c := range srcsetURLs(htmlnode.Attr(n, k)) {
				add(c, refPlain, base)
			}
		}
	}
	switch n.DataAtom {
	case atom.Link:
		linkRequisite(n, base, add)
	case atom.Script:
		plain("src")
	case atom.Img:
		plain("src", "data-src", "data-lazy-src", "data-original", "data-orig-file")
		srcsets("srcset", "data-srcset", "data-lazy-srcset")
	case atom.Source:
		plain("src", "data-src")
		srcsets("srcset", "data-srcset")
	case atom.Video:
		plain("src", "poster")
	case atom.Audio, atom.Track, atom.Embed:
		plain("src")
	case atom.Object:
		plain("data")
	case atom.Input:
		if strings.EqualFold(htmlnode.Attr(n, "type"), "image") {
			plain("src")
		}
	case atom.Iframe:
		add(htmlnode.Attr(n, "src"), refIframe, base)
	case atom.Image: // <image href> in inline SVG
		plain("href", "xlink:href")
	case atom.Style:
		if n.FirstChild != nil && n.FirstChild.Type == html.TextNode {
			for _, r := range cssRefs(n.FirstChild.Data) {
				add(r.url, r.kind, base)
			}
		}
	}
	plain("background")
	if s := htmlnode.Attr(n, "style"); strings.Contains(s, "url(") {
		for _, r := range cssRefs(s) {
			add(r.url, r.kind, base)
		}
	}
}

// linkRelRequisites are the <link rel> tokens that name a requisite.
var linkRelRequisites = map[string]bool{
	"stylesheet": true, "icon": true, "apple-touch-icon": true, "apple-touch-icon-precomposed": true,
	"mask-icon": true, "preload": true, "modulepreload": true,
}

// linkRequisite adds the requisite a <link> names, if its rel names one.
func linkRequisite(n *html.Node, base *url.URL, add func(string, refKind, *url.URL)) {
	for _, rel := range strings.Fields(strings.ToLower(htmlnode.Attr(n, "rel"))) {
		if !linkRelRequisites[rel] {
			continue
		}
		k := refPlain
		if rel == "stylesheet" || rel == "preload" && strings.EqualFold(htmlnode.Attr(n, "as"), "style") {
			k = refCSS
		}
		add(htmlnode.Attr(n, "href"), k, base)
		for _, c := range srcsetURLs(htmlnode.Attr(n, "imagesrcset")) {
			add(c, refPlain, base)
		}
		return
	}
}

// srcsetURLs returns every candidate URL of a srcset attribute, read as
// the HTML standard says (a URL runs to the next white space; a trailing
// comma ends it; descriptors run to the next comma).
func srcsetURLs(s string) []string {
	var out []string
	for {
		s = strings.TrimLeft(s, " \t\n\r\f,")
		if s == "" {
			return out
		}
		end := strings.IndexAny(s, " \t\n\r\f")
		if end < 0 {
			end = len(s)
		}
		u := s[:end]
		s = s[end:]
		if strings.HasSuffix(u, ",") {
			u = strings.TrimRight(u, ",")
		} else if i := strings.IndexByte(s, ','); i >= 0 {
			s = s[i+1:]
		} else {
			s = ""
		}
		if u != "" {
			out = append(out, u)
		}
	}
}

// CSS references: @import with a string or url(), and every url().
var (
	cssComment = lazyregexp.New(`(?s)/\*.*?\*/`)
	cssImport  = lazyregexp.New(`(?i)@import\s+(?:url\(\s*)?(?:"([^"]*)"|'([^']*)'|([^\s"');]+))`)
	cssURL     = lazyregexp.New(`(?i)url\(\s*(?:"([^"]*)"|'([^']*)'|([^\s"')]*))\s*\)`)
)

// cssRefs returns the (relative) references of a stylesheet: @import
// rules (stylesheets) and url() values (fonts, images), in order.
func cssRefs(css string) []requisiteRef {
	if strings.Contains(css, "/*") {
		css = cssComment.ReplaceAllString(css, "")
	}
	// Most style sheets and style attributes hold neither: the regular
	// expressions below cost far more than a look for their literal part.
	if !containsFold(css, "url(") && !containsFold(css, "@import") {
		return nil
	}
	var out []requisiteRef
	imports := map[string]bool{}
	for _, m := range cssImport.FindAllStringSubmatch(css, -1) {
		ref := m[1] + m[2] + m[3]
		imports[ref] = true
		out = append(out, requisiteRef{ref, refCSS})
	}
	for _, m := range cssURL.FindAllStringSubmatch(css, -1) {
		if ref := m[1] + m[2] + m[3]; !imports[ref] {
			out = append(out, requisiteRef{ref, refPlain})
		}
	}
	return out
}

// containsFold reports whether s holds sub, ASCII letters matched without
// regard to case (sub is lower case ASCII).
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		j := strings.IndexAny(s[i:], sub[:1]+strings.ToUpper(sub[:1]))
		if j < 0 {
			return false
		}
		i += j
		if i+len(sub) <= len(s) && strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// absRequisite resolves ref against base: an absolute http(s) URL without
// fragment, or "" for an empty, data:, javascript: or unparsable one.
func absRequisite(ref string, base *url.URL) string {
	ref = blogharvest.NormalizeURL(ref)
	if ref == "" || strings.HasPrefix(ref, "#") {
		return ""
	}
	u, err := base.Parse(ref)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	u.Fragment = ""
	return u.String()
}
