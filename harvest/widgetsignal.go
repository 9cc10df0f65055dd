package harvest

import (
	"net/url"
	"strings"

	"github.com/blogharvest/blogharvest/internal/lazyregexp"
	"golang.org/x/net/html"
)

// This file finds script widgets that draw part of a page from an API,
// whatever they call themselves: a comment service named only by its
// product (<div id="waline">, Waline.init({el: '#waline', serverURL: …}))
// uses no comment word a reader could look for. Two signs, together:
//
//   - an API: inline code assigning a URL to a key naming a server, an API,
//     an endpoint, a backend or a host (serverURL: 'https://…', host: …,
//     api_url = …), or an element carrying such a URL in a data-attribute
//     (data-host, data-isso, data-api);
//   - a mount point the static page leaves empty: the element the code
//     names ('#id', getElementById('id'), el: 'id'), the element that
//     carries the data-attribute, or, for a script carrying it, the element
//     that holds nothing but that script (a theme's comment section around
//     the service's loader) or an empty element with an id: no text and
//     nothing but scripts in it.
//
// The render then decides whether the widget drew comments (repeated,
// dated, authored records, or JSON records the page fetched); a widget
// that drew none costs its render, which the crawl's per-reason account
// (renderAccount) stops paying for after a few renders that added nothing.

// apiKeyRe finds a key naming a server or an API assigned a URL (absolute,
// scheme-relative, or a path holding "api") in inline code.
var apiKeyRe = lazyregexp.New(`(?i)["']?\b([a-z_$]*(?:server|api|endpoint|backend|host)[a-z_]*)["']?\s*[:=]\s*["'` + "`" + `]((?:https?:)?//[^"'` + "`" + `\s]+|/[^"'` + "`" + `\s]*api[^"'` + "`" + `\s]*)["'` + "`" + `]`)

// mountRes find the element an inline script mounts into: a '#id'
// selector, getElementById('id'), or an el/element/container key naming
// an id.
var mountRes = []*lazyregexp.Regexp{
	lazyregexp.New(`["'` + "`" + `]#([A-Za-z][\w-]*)["'` + "`" + `]`),
	lazyregexp.New(`getElementById\(\s*["'` + "`" + `]([\w-]+)["'` + "`" + `]`),
	lazyregexp.New(`(?i)\b(?:el|element|container|target|selector|node)\s*:\s*["'` + "`" + `]#?([A-Za-z][\w-]*)["'` + "`" + `]`),
}

// widgetSignal returns the sign of a script widget drawing the page from
// an API: an inline init call naming an API and an empty element it
// mounts into, or an empty element configured with an API URL in a
// data-attribute. The signal's src is the API's URL (the browser must be
// allowed to reach it).
func widgetSignal(root *html.Node, base *url.URL) commentSignal {
	if root == nil {
		return commentSignal{}
	}
	ids := map[string]*html.Node{}
	var scripts, configured, withID []*html.Node
	var walk func(n *html.Node, chrome bool)
	walk = func(n *html.Node, chrome bool) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			ch := chrome || isChromeArea(c)
			if id := getAttr(c, "id"); id != "" && !ch {
				if _, dup := ids[id]; !dup {
					ids[id] = c
					withID = append(withID, c)
				}
			}
			switch {
			case c.Data == "script" && getAttr(c, "src") == "":
				scripts = append(scripts, c)
				continue
			case !ch && apiAttr(c) != "":
				configured = append(configured, c)
			}
			walk(c, ch)
		}
	}
	walk(root, false)
	for _, s := range scripts {
		code := textOf(s)
		m := apiKeyRe.FindStringSubmatch(code)
		if m == nil {
			continue
		}
		for _, re := range mountRes {
			for _, mm := range re.FindAllStringSubmatch(code, -1) {
				if el := ids[mm[1]]; el != nil && emptyMount(el) {
					return commentSignal{reason: "an inline init call names an API (" + m[1] + ") and mounts into the empty #" + mm[1], src: srcURL(base, m[2])}
				}
			}
		}
	}
	for _, el := range configured {
		mount := el
		if el.Data == "script" { // <script data-isso="…" src="…">: the mount is the element the script alone fills, or an empty element with an id
			mount = nil
			if p := el.Parent; p != nil && p.Type == html.ElementNode && emptyMount(p) {
				mount = p
			}
			for _, n := range withID {
				if mount != nil {
					break
				}
				if n.Data != "script" && emptyMount(n) && n.FirstChild == nil && !isInside(n, el) {
					mount = n
					break
				}
			}
		}
		if mount != nil && emptyMount(mount) {
			return commentSignal{reason: "an element configured with an API URL (" + apiAttr(el) + ") leaves the page's " + mount.Data + " empty", src: srcURL(base, getAttr(el, apiAttr(el)))}
		}
	}
	return commentSignal{}
}

// apiAttr returns the name of n's data-attribute holding an API URL
// (data-host="https://…", data-isso="//…"), or "".
func apiAttr(n *html.Node) string {
	for _, a := range n.Attr {
		if !strings.HasPrefix(a.Key, "data-") {
			continue
		}
		v := strings.TrimSpace(a.Val)
		if strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") || strings.HasPrefix(v, "//") {
			k := strings.ToLower(a.Key)
			if strings.Contains(k, "host") || strings.Contains(k, "api") || strings.Contains(k, "server") || strings.Contains(k, "endpoint") ||
				strings.Count(k, "-") == 1 && !linkAttrs[strings.TrimPrefix(k, "data-")] {
				return a.Key
			}
		}
	}
	return ""
}

// linkAttrs are data-attribute names (after "data-") that carry a link
// or a medium, not a service: data-href of a share or like box,
// data-src of a lazy image.
var linkAttrs = map[string]bool{"href": true, "url": true, "src": true, "link": true, "image": true, "img": true,
	"original": true, "lazy": true, "srcset": true, "poster": true, "background": true, "bg": true, "thumb": true,
	"full": true, "permalink": true, "share": true, "canonical": true, "page": true, "uri": true, "target": true}

// emptyMount reports whether n is an element a script has still to fill:
// no visible text and no element but scripts, styles and templates.
func emptyMount(n *html.Node) bool {
	if n.Data == "body" || n.Data == "html" || n.Data == "head" || n.Data == "script" {
		return false
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode && strings.TrimSpace(c.Data) != "":
			return false
		case c.Type == html.ElementNode && c.Data != "script" && c.Data != "style" && c.Data != "template" && c.Data != "noscript":
			return false
		}
	}
	return true
}

// isInside reports whether n lies within a.
func isInside(n, a *html.Node) bool {
	for p := n; p != nil; p = p.Parent {
		if p == a {
			return true
		}
	}
	return false
}
