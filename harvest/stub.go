package harvest

import (
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/discover"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/htmlnode"
	"github.com/blogharvest/blogharvest/internal/lazyregexp"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Redirect stubs are the HTML pages static-site generators leave at a
// post's old URLs (Hugo aliases, Jekyll redirect_from, moved slugs): they
// send the reader on and hold no content of their own. A crawl treats them
// as redirects: their target is queued, the stub's URL becomes an alias of
// the target's entry and its ledger fate is "stub".
const (
	maxRefreshDelay = 5   // seconds: a meta refresh this quick is a redirect, not a reload
	thinText        = 200 // bytes of visible body text under which a page holds no content
)

// jsLocationRE matches the JavaScript redirects of stub pages:
// location.replace("…"), location.assign("…"), location.href = "…",
// window.location = "…", location = "…".
var jsLocationRE = []*lazyregexp.Regexp{
	lazyregexp.New(`\blocation\s*\.\s*(?:replace|assign)\s*\(\s*["']([^"'\s]+)["']\s*\)`),
	lazyregexp.New(`(?:^|[^\w.$])(?:(?:window|document|top|self)\s*\.\s*)?location(?:\s*\.\s*href)?\s*=\s*["']([^"'\s]+)["']`),
}

// stubSigns is what stubTarget reads of a page.
type stubSigns struct {
	base    *url.URL
	refresh string       // target of a quick meta refresh
	text    int          // bytes of visible body text
	embeds  bool         // images, video, iframes in the body
	scripts []*html.Node // inline scripts, in document order
}

// stubTarget returns the canonical URL a redirect stub sends its reader
// to, or "" when the page is not a stub: a meta refresh of at most
// maxRefreshDelay seconds to another URL; or, on a thin page (little
// visible text, no images or frames), a JavaScript location redirect or a
// rel=canonical (canonical, already canonicalised) naming another URL.
// doc is the parsed page, fetched from base.
func stubTarget(doc *html.Node, base *url.URL, canonical string) string {
	s := &stubSigns{base: base}
	if doc == nil {
		return ""
	}
	s.walk(doc, false, false)
	self := ""
	if base != nil {
		self, _ = canonicalURL(base)
	}
	other := func(u string) string {
		if u == "" || u == self {
			return ""
		}
		return u
	}
	if t := other(s.refresh); t != "" {
		return t
	}
	if s.text >= thinText || s.embeds {
		return ""
	}
	if t := other(s.jsTarget()); t != "" {
		return t
	}
	return other(canonical)
}

// walk reads the nodes under n in document order. It stops at thinText
// bytes of visible text when no quick meta refresh was met: only one,
// which comes in the head, would still make a page with content a stub.
func (s *stubSigns) walk(n *html.Node, inBody, hidden bool) bool {
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if s.text >= thinText && s.refresh == "" {
			return false
		}
		switch ch.Type {
		case html.TextNode:
			if inBody && !hidden {
				s.text += len(strings.TrimSpace(ch.Data))
			}
		case html.ElementNode:
			if !s.element(ch, inBody, hidden) {
				return false
			}
		}
	}
	return true
}

// element reads one element and its subtree.
func (s *stubSigns) element(n *html.Node, inBody, hidden bool) bool {
	a := n.DataAtom
	switch a {
	case atom.Body:
		inBody = true
	case atom.Meta:
		if strings.EqualFold(strings.TrimSpace(htmlnode.Attr(n, "http-equiv")), "refresh") && s.refresh == "" {
			if delay, target, ok := parseRefresh(htmlnode.Attr(n, "content")); ok && delay <= maxRefreshDelay {
				s.refresh = resolve(s.base, target)
			}
		}
	case atom.Img, atom.Video, atom.Audio, atom.Iframe, atom.Picture, atom.Object, atom.Embed:
		s.embeds = s.embeds || inBody
	case atom.Script:
		if htmlnode.Attr(n, "src") == "" {
			s.scripts = append(s.scripts, n)
		}
	}
	switch a {
	case atom.Script, atom.Style, atom.Template, atom.Title:
		hidden = true
	case atom.Noscript:
		for _, k := range noscriptNodes(n) { // its markup: a tracking pixel is an embed
			if k.Type == html.ElementNode && !s.element(k, inBody, true) {
				return false
			}
		}
		return true
	}
	return s.walk(n, inBody, hidden)
}

// jsTarget returns the target of the first JavaScript location redirect
// in an inline script, or "".
func (s *stubSigns) jsTarget() string {
	for _, sc := range s.scripts {
		text := htmlnode.Text(sc)
		for _, re := range jsLocationRE {
			if m := re.FindStringSubmatch(text); m != nil {
				return resolve(s.base, m[1])
			}
		}
	}
	return ""
}

// parseRefresh parses a meta refresh content value, "5" or
// "0; url=https://…" (also "0;URL='…'" and "0, url=…"); ok is false when
// there is no URL to go to.
func parseRefresh(content string) (delay float64, target string, ok bool) {
	content = strings.TrimSpace(content)
	i := strings.IndexAny(content, ";,")
	if i < 0 {
		return 0, "", false
	}
	d, err := strconv.ParseFloat(strings.TrimSpace(content[:i]), 64)
	if err != nil || d < 0 {
		return 0, "", false
	}
	rest := strings.TrimSpace(content[i+1:])
	if len(rest) >= 4 && strings.EqualFold(rest[:3], "url") {
		if r := strings.TrimSpace(rest[3:]); strings.HasPrefix(r, "=") {
			rest = strings.TrimSpace(r[1:])
		}
	}
	rest = strings.Trim(rest, `"' `)
	if rest == "" || !utf8.ValidString(rest) {
		return 0, "", false
	}
	return d, rest, true
}

// lateStubs keeps what the coordinator needs to handle redirect stubs met
// after the entry they lead to was emitted (a stub linked only from a page
// read later): that entry is read and emitted again (rereadForAlias), a
// new version whose aliases list the stub.
type lateStubs struct {
	entries map[string]lateEntry // the entries emitted, by URL
	queued  map[string]bool      // re-reads queued and not emitted yet
}

// lateEntry is what the crawl remembers of an emitted entry.
type lateEntry struct {
	kind  blogharvest.Kind
	stubs int    // stubs leading to it when it was emitted
	guid  string // the feed item's guid it was emitted with (Entry.AltIdentifier)
}

// note records an entry about to be emitted, whose aliases it completes
// with stubs (all those leading to it met so far: one whose page was
// processed while the entry's was).
func (l *lateStubs) note(e *blogharvest.Entry, stubs []string) {
	for _, a := range stubs {
		if a != e.URL && !contains(e.Aliases, a) {
			e.Aliases = append(e.Aliases, a)
		}
	}
	if l.entries == nil {
		l.entries = map[string]lateEntry{}
	}
	l.entries[e.URL] = lateEntry{kind: e.Kind, stubs: len(stubs), guid: e.AltIdentifier}
	delete(l.queued, e.URL)
}

// rereadForAlias handles a redirect stub whose target was processed
// before: when the target was emitted as an entry that lacks one of the
// stubs leading to it, the target is queued again (with its feed item:
// it, the stub's, else the feed's own: the item whose page is the target
// or one of its stubs, or whose guid the entry was emitted with) and
// emitted anew, the same entry with one more alias: an alias never opens
// a second entry.
func (c *crawl) rereadForAlias(target string, it *feed.Item) {
	e, ok := c.late.entries[target]
	if !ok {
		c.log.Info("redirect stub: its target was processed before, not as an entry", "target", target)
		return
	}
	if c.late.queued[target] || len(c.claims.stubsOf(target)) <= e.stubs {
		return // a re-read is queued, or the entry lists the stub already
	}
	if it == nil {
		it = c.feedItemOf(target, e.guid)
	}
	if it != nil {
		c.claims.replace(target, it)
	}
	kind := "post"
	if e.kind == blogharvest.KindPage {
		kind = "page"
	}
	if c.late.queued == nil {
		c.late.queued = map[string]bool{}
	}
	c.late.queued[target] = true
	c.front.requeue(task{url: target, kind: kind, prio: prioPost, again: true})
	c.log.Info("redirect stub met after its target was archived: the target is read again for its aliases", "target", target)
}

// feedItemOf returns the feed item of the entry at u: the item whose page
// is u or a redirect stub leading to u, else the item whose guid is guid;
// nil when there is none.
func (c *crawl) feedItemOf(u, guid string) *feed.Item {
	if c.site.feed == nil {
		return nil
	}
	urls := map[string]bool{u: true}
	for _, s := range c.claims.stubsOf(u) {
		urls[s] = true
	}
	for i := range c.site.feed.Items {
		if p := discover.ItemURL(&c.site.feed.Items[i], discoverScope{s: c.site.scope}); p != nil && urls[p.String()] {
			return &c.site.feed.Items[i]
		}
	}
	for i := range c.site.feed.Items {
		if guid != "" && c.site.feed.Items[i].GUID == guid {
			return &c.site.feed.Items[i]
		}
	}
	return nil
}
