package harvest

import (
	"context"
	"net/url"
	"slices"
	"strings"
	"sync"

	"github.com/blogharvest/blogharvest/harvest/comments"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/render"
	"github.com/blogharvest/blogharvest/internal/lazyregexp"
	"golang.org/x/net/html"
)

// This file finds comment widgets whose mount element no static page
// holds: a site generator's injector (an inline script, or a script file
// of the blog's own) creates <div id="…"> at run time, puts it in the
// page and then calls the service's init with the service's URL
// (Waline.init({el: '#waline', serverURL: …}), new Valine({el, …}),
// Artalk.init({el, server: …})). widgetsignal.go finds the widget whose
// empty element the page already holds; here the code alone tells, read
// as the browser would run it, or else what an earlier render of the same
// blog learned.
//
// From the code (scriptWidget): three signs in one script, together:
//
//   - it creates a container (createElement('div'), a custom element, or
//     markup such as insertAdjacentHTML('afterend', '<div id="x">')) and
//     puts it in the document (appendChild, append, insertBefore, after,
//     …; inserted markup is in it already);
//   - it names a service: a key naming a server, an API, an endpoint, a
//     backend, a host or an environment assigned a URL (serverURL: 'https:
//     //…', envId: '//…'), or a data-attribute set to one on the element
//     it made (setAttribute('data-host', 'https://…'));
//   - it mounts a widget there: an init-like call (.init, .mount, .render,
//     .setup, …, new Widget) with an el-like key (el, element, container,
//     target, selector, node, root), or the data-attribute configuration,
//     or a script it creates to load the service's client into an element
//     given an id.
//
// An analytics or chat snippet creates script elements only, or names no
// service key, or mounts nothing: none of them is a widget. The blog's
// own scripts (same origin) are read through the crawl's requisite cache
// (fetchRequisite: the page's requisites are asked for once per crawl
// anyway), each read once per crawl, and only when Options.Requisites
// captures them: a crawl that captures no requisites reads inline code
// only.
//
// From an earlier render (widgetScripts): when a rendered page showed
// comments read from the JSON its scripts fetched, the script whose code
// made those requests (render.APIResponse.Script: the widget's client,
// waline.umd.js, embed.min.js) is a comment widget's loader for this
// blog, unless the home page names it too (a theme's or a library's
// script every page loads). State.WidgetScripts keeps them (at most
// maxWidgetScripts) for the next crawls, and a page that names one (a
// script src, or a string in its inline code or in one of its own
// scripts' code, as an injector loads the client) is rendered for its
// comments: ReasonKnownWidget.
// Both reasons are guesses: after uselessAfter renders that added
// nothing, a crawl stops paying for them.

// Bounds of the script reading.
const (
	maxPageScripts   = 8         // same-origin scripts read per page
	maxScriptCode    = 512 << 10 // bytes of one script's code read
	maxScriptNames   = 200       // script URLs kept per script
	maxWidgetScripts = 8         // widget loaders kept for the blog
	maxInitObject    = 4 << 10   // bytes of an init call's argument read
)

// Patterns of scriptWidget.
var (
	// createdTagRe finds the elements a script creates.
	createdTagRe = lazyregexp.New(`createElement\(\s*["'` + "`" + `]([A-Za-z][\w-]*)["'` + "`" + `]\s*\)`)
	// attachRe finds a created element put into the document.
	attachRe = lazyregexp.New(`\.(?:appendChild|append|prepend|insertBefore|insertAdjacentElement|after|before|replaceWith|replaceChildren)\s*\(`)
	// markupRe finds container markup a script inserts.
	markupRe = lazyregexp.New(`(?i)(?:insertAdjacentHTML\s*\(\s*["'` + "`" + `][\w-]+["'` + "`" + `]\s*,|innerHTML\s*\+?=|outerHTML\s*=|document\.write(?:ln)?\s*\()\s*["'` + "`" + `]\s*<((?:div|section|article|aside|footer|main)\b|[a-z]+-[\w-]*)`)
	// serviceKeyRe finds a key naming a service assigned a URL.
	serviceKeyRe = lazyregexp.New(`(?i)["']?\b([a-z_$]*(?:server|api|endpoint|backend|host|env)[a-z_]*)["']?\s*[:=]\s*["'` + "`" + `]((?:https?:)?//[^"'` + "`" + `\s]+)["'` + "`" + `]`)
	// dataConfigRe finds a data-attribute set to a URL.
	dataConfigRe = lazyregexp.New(`(?:setAttribute\(\s*["']data-([\w-]+)["']\s*,|dataset\.([A-Za-z]\w*)\s*=)\s*["'` + "`" + `]((?:https?:)?//[^"'` + "`" + `\s]+)["'` + "`" + `]`)
	// initCallRe finds an init-like call (a method or a function of its
	// own) or a constructor given an object literal or a name (the
	// options built before).
	initCallRe = lazyregexp.New(`(?:\b(?:init[A-Za-z]*|initial|mount[A-Za-z]*|render[A-Za-z]*|create(?:App|Widget|Comments?)?|setup|start|boot|load)|\bnew\s+[A-Z][\w$]*)\s*\(\s*([{\w$])`)
	// elKeyRe finds an el-like key of an object literal.
	elKeyRe = lazyregexp.New(`(?:^|[{,\s])["']?(?:el|element|container|target|selector|node|root|mount|mountPoint)["']?\s*(?::|,|\})`)
	// idSetRe finds an id given to an element.
	idSetRe = lazyregexp.New(`(?:\.id\s*=|setAttribute\(\s*["']id["']\s*,)\s*["'` + "`" + `][A-Za-z][\w-]*["'` + "`" + `]`)
	// scriptNameRe finds the script URLs code names in a string.
	scriptNameRe = lazyregexp.New(`["'` + "`" + `]((?:https?:)?//[^"'` + "`" + `\s]+\.m?js|[\w./-]*/[\w.-]+\.m?js)(?:\?[^"'` + "`" + `\s]*)?["'` + "`" + `]`)
)

// containerTag reports whether a created element named tag may hold a
// widget: a block container or a custom element.
func containerTag(tag string) bool {
	switch strings.ToLower(tag) {
	case "div", "section", "article", "aside", "footer", "main":
		return true
	}
	return strings.Contains(tag, "-")
}

// scriptWidget returns the sign of a comment widget in one script's code
// (see the file comment): the reason and the service's URL, resolved
// against base; the zero signal when the code shows none. label names the
// script in the reason ("an inline script", "the script /js/x.js").
func scriptWidget(code string, base *url.URL, label string) commentSignal {
	if len(code) > maxScriptCode {
		code = code[:maxScriptCode]
	}
	if !strings.Contains(code, "createElement") && !strings.Contains(code, "HTML") && !strings.Contains(code, "document.write") {
		return commentSignal{}
	}
	created := ""
	if m := markupRe.FindStringSubmatch(code); m != nil {
		created = "<" + strings.ToLower(m[1]) + ">"
	}
	makesScript := false
	for _, m := range createdTagRe.FindAllStringSubmatch(code, -1) {
		switch {
		case strings.EqualFold(m[1], "script"):
			makesScript = true
		case created == "" && containerTag(m[1]) && attachRe.MatchString(code):
			created = "<" + strings.ToLower(m[1]) + ">"
		}
	}
	if created == "" {
		return commentSignal{}
	}
	if m := dataConfigRe.FindStringSubmatch(code); m != nil {
		key := "data-" + m[1]
		if m[2] != "" {
			key = "dataset." + m[2]
		}
		if serviceAttr(firstNonEmpty(m[1], m[2])) {
			return commentSignal{reason: label + " creates a " + created + " configured with a service URL (" + key + ")", src: srcURL(base, m[3])}
		}
	}
	m := serviceKeyRe.FindStringSubmatch(code)
	if m == nil {
		return commentSignal{}
	}
	if initWithMount(code) {
		return commentSignal{reason: label + " creates a " + created + " and mounts a widget into it (an init call with an element, " + m[1] + ")", src: srcURL(base, m[2])}
	}
	if makesScript && idSetRe.MatchString(code) {
		return commentSignal{reason: label + " creates a " + created + " with an id and loads a widget into it (" + m[1] + ")", src: srcURL(base, m[2])}
	}
	return commentSignal{}
}

// initWithMount reports whether code calls an init-like function with an
// object literal holding an el-like key, or with options built before
// (a name) while the code holds such a key.
func initWithMount(code string) bool {
	named := false
	for _, loc := range initCallRe.FindAllStringSubmatchIndex(code, 32) {
		if code[loc[2]] != '{' {
			named = true
			continue
		}
		if elKeyRe.MatchString(objectLiteral(code[loc[2]:])) {
			return true
		}
	}
	return named && elKeyRe.MatchString(code)
}

// objectLiteral returns the object literal code starts with, its braces
// balanced (strings are not parsed: a brace in one may end it early), at
// most maxInitObject bytes.
func objectLiteral(code string) string {
	depth := 0
	for i := 0; i < len(code) && i < maxInitObject; i++ {
		switch code[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return code[:i+1]
			}
		}
	}
	return code[:min(len(code), maxInitObject)]
}

// serviceAttr reports whether a data-attribute named key (after "data-",
// or a dataset name) holds a service's URL: it names a host, an API, a
// server or an endpoint, or is one word that names no link or medium.
func serviceAttr(key string) bool {
	k := strings.ToLower(key)
	return strings.Contains(k, "host") || strings.Contains(k, "api") || strings.Contains(k, "server") || strings.Contains(k, "endpoint") ||
		!strings.ContainsAny(k, "-_") && !linkAttrs[k]
}

// scriptNames returns the script URLs code names in its strings, resolved
// against base, without query or fragment.
func scriptNames(code string, base *url.URL) []string {
	if len(code) > maxScriptCode {
		code = code[:maxScriptCode]
	}
	var out []string
	for _, m := range scriptNameRe.FindAllStringSubmatch(code, maxScriptNames) {
		if u := noQuery(base, m[1]); u != "" && !slices.Contains(out, u) {
			out = append(out, u)
		}
	}
	return out
}

// noQuery returns raw resolved against base without its query and
// fragment; "" when it is no http(s) URL.
func noQuery(base *url.URL, raw string) string {
	var u *url.URL
	var err error
	if base != nil {
		u, err = base.Parse(strings.TrimSpace(raw))
	} else {
		u, err = url.Parse(strings.TrimSpace(raw))
	}
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = "", false, "", ""
	return u.String()
}

// pageScript is one script of a static page as the widget detection reads
// it: the sign of a widget its code mounts, and the script URLs it names.
type pageScript struct {
	url   string        // "" for inline code
	sig   commentSignal // scriptWidget's
	names []string      // its own URL (a src) and the script URLs its code names
}

// scriptReads are the blog's own scripts read by this crawl's pages,
// each once, by URL. Safe for concurrent use.
type scriptReads struct {
	mu   sync.Mutex
	read map[string]*pageScript
}

// widgetScripts are the scripts known to load a comment widget on this
// blog: the last crawl's (State.WidgetScripts) and those this crawl's
// renders found. Safe for concurrent use.
type widgetScripts struct {
	mu    sync.Mutex
	known []string
	// common are the scripts the home page names: a theme's or a
	// library's, which every page loads, are no widget's loader even when
	// a widget's requests go through them.
	common map[string]bool
}

// newWidgetScripts starts the list from the last crawl's.
func newWidgetScripts(last []string) *widgetScripts {
	return &widgetScripts{known: slices.Clone(last[:min(len(last), maxWidgetScripts)])}
}

// setHome notes the scripts the home page names (its srcs and the script
// URLs of its inline code), which add does not take; before the workers
// start.
func (s *widgetScripts) setHome(home *fetchedPage) {
	if s == nil || home == nil || home.doc == nil {
		return
	}
	inline, srcs := staticScripts(home.doc, home.url)
	s.common = map[string]bool{}
	for _, u := range srcs {
		s.common[u] = true
	}
	for _, ps := range inline {
		for _, u := range ps.names {
			s.common[u] = true
		}
	}
}

// add keeps the loaders a render found, within maxWidgetScripts, but for
// the home page's scripts.
func (s *widgetScripts) add(urls []string) {
	if s == nil || len(urls) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, u := range urls {
		if len(s.known) < maxWidgetScripts && !s.common[u] && !slices.Contains(s.known, u) {
			s.known = append(s.known, u)
		}
	}
}

// list returns the loaders known, for State.WidgetScripts; nil when none.
func (s *widgetScripts) list() []string {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.known) == 0 {
		return nil
	}
	return slices.Clone(s.known)
}

// loadedBy returns the known loader one of scripts names, or "".
func (s *widgetScripts) loadedBy(scripts []pageScript) string {
	if s == nil {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, k := range s.known {
		for _, ps := range scripts {
			if slices.Contains(ps.names, k) {
				return k
			}
		}
	}
	return ""
}

// widgetScriptsOf returns the scripts that fetched, rendering a page, the
// JSON its comments were read from (see the file comment), without query:
// each made a request answered with records the rendered page shows. The
// page's own inline code (the script URL is the page's) is no loader.
func widgetScriptsOf(res *render.Result, lang string) []string {
	own := noQuery(nil, firstNonEmpty(res.FinalURL, res.URL))
	var out []string
	var pages []learn.Page
	for _, a := range res.API {
		s := noQuery(nil, a.Script)
		if s == "" || s == own || s == noQuery(nil, res.URL) || a.Status >= 300 || slices.Contains(out, s) {
			continue
		}
		if pages == nil {
			pages = comments.RenderedPages(res, lang)
		}
		if len(learn.APIComments([][]byte{a.Body}, pages)) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// staticScripts returns the page's inline scripts and script srcs, in
// document order, with what their code shows (scriptWidget, scriptNames);
// the same-origin srcs are only named (readOwnScripts reads them).
func staticScripts(root *html.Node, base *url.URL) (inline []pageScript, srcs []string) {
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if c.Data == "script" {
				if !jsType(getAttr(c, "type")) {
					continue
				}
				if src := getAttr(c, "src"); src != "" {
					if u := noQuery(base, src); u != "" && !slices.Contains(srcs, u) {
						srcs = append(srcs, u)
					}
					continue
				}
				code := textOf(c)
				inline = append(inline, pageScript{sig: scriptWidget(code, base, "an inline script"), names: scriptNames(code, base)})
				continue
			}
			walk(c)
		}
	}
	if root != nil {
		walk(root)
	}
	return inline, srcs
}

// jsType reports whether a script's type attribute names code the
// browser runs.
func jsType(t string) bool {
	t = strings.ToLower(strings.TrimSpace(t))
	if i := strings.IndexByte(t, ';'); i >= 0 {
		t = strings.TrimSpace(t[:i])
	}
	switch t {
	case "", "module", "text/javascript", "application/javascript", "application/ecmascript", "text/ecmascript", "application/x-javascript":
		return true
	}
	return false
}

// readOwnScripts reads the first maxPageScripts of srcs that are on the
// blog's origins (once per crawl each, through the requisite cache), when
// the crawl captures requisites; the others are returned named only.
func (w *pageWorker) readOwnScripts(ctx context.Context, srcs []string) []pageScript {
	out := make([]pageScript, 0, len(srcs))
	read := 0
	for _, src := range srcs {
		ps := pageScript{url: src, names: []string{src}}
		if read < maxPageScripts && w.ownScript(src) {
			read++
			if r := w.readScript(ctx, src); r != nil {
				ps = *r
			}
		}
		out = append(out, ps)
	}
	return out
}

// ownScript reports whether the script at src is one readOwnScripts reads:
// on the blog's origins, with requisites captured.
func (w *pageWorker) ownScript(src string) bool {
	if w.scripts == nil || w.fetch.requisites == nil || w.fetch.cfg.req.mode == RequisitesNone || w.site.scope == nil {
		return false
	}
	u, err := url.Parse(src)
	return err == nil && w.site.scope.hosts[strings.ToLower(u.Host)]
}

// readScript returns what the blog's script at src shows, reading it the
// first time a page names it; nil when it could not be read.
func (w *pageWorker) readScript(ctx context.Context, src string) *pageScript {
	w.scripts.mu.Lock()
	r, ok := w.scripts.read[src]
	w.scripts.mu.Unlock()
	if ok {
		return r
	}
	f, err := w.fetch.fetchRequisite(ctx, src)
	if err == nil && f.Status >= 200 && f.Status < 300 && !isHTMLBytes(f.Body) {
		base, _ := url.Parse(src)
		code := string(f.Body[:min(len(f.Body), maxScriptCode)])
		r = &pageScript{url: src, sig: scriptWidget(code, base, "the script "+shortURL(src)), names: append([]string{src}, scriptNames(code, base)...)}
	}
	w.scripts.mu.Lock()
	if w.scripts.read == nil {
		w.scripts.read = map[string]*pageScript{}
	}
	w.scripts.read[src] = r
	w.scripts.mu.Unlock()
	return r
}

// scriptWidgetReason returns the reason to render a page for a comment
// widget its scripts mount into an element they create, or that loads a
// widget an earlier render found (see the file comment); may says whether
// the browser may reach a signal's service. Inline code is read first,
// then the known loaders the page names, then the blog's own scripts.
func (w *pageWorker) scriptWidgetReason(ctx context.Context, p *fetchedPage, may func(commentSignal) bool) renderWhy {
	inline, srcs := staticScripts(p.doc, p.url)
	for _, s := range inline {
		if may(s.sig) {
			return renderWhy{ReasonScriptWidget, s.sig.reason}
		}
	}
	named := make([]pageScript, 0, len(inline)+len(srcs))
	named = append(named, inline...)
	for _, s := range srcs {
		named = append(named, pageScript{url: s, names: []string{s}})
	}
	if k := w.widgets.loadedBy(named); k != "" {
		return renderWhy{ReasonKnownWidget, "the page loads " + shortURL(k) + ", whose requests drew comments in an earlier render of the blog"}
	}
	own := w.readOwnScripts(ctx, srcs)
	for _, s := range own {
		if may(s.sig) {
			return renderWhy{ReasonScriptWidget, s.sig.reason}
		}
	}
	if k := w.widgets.loadedBy(own); k != "" {
		return renderWhy{ReasonKnownWidget, "the page's script loads " + shortURL(k) + ", whose requests drew comments in an earlier render of the blog"}
	}
	return renderWhy{}
}
