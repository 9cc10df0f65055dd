package harvest

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/anyof"
	"github.com/blogharvest/blogharvest/harvest/comments"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/render"
	"github.com/blogharvest/blogharvest/harvest/textsim"
	"golang.org/x/net/html"
)

// This file detects comment systems that are in no table: signs in a
// static page that its comments are drawn by script. It is consulted when
// the static page shows no comments and no known marker (jsCommentMarkers)
// matched; what it finds is the reason the page is rendered.

// commentSignal is one sign of a scripted comment area: the reason to
// render, and the URL of the script or frame it rests on ("" when it rests
// on the page alone), which the browser must be allowed to load for the
// rendering to be worth it.
type commentSignal struct {
	reason string
	src    string
}

// notAreaWords are id or class fragments of things named after comments
// that are no comment area: counts, links, forms, closed-comment notices,
// lists of other pages' comments, the parts of one comment (its author,
// date, header, text), and image carousels.
var notAreaWords = []string{"count", "link", "number", "meta", "icon", "button", "form", "closed", "recent",
	"widget", "sidebar", "latest", "popular", "reply", "respond", "nav", "author", "vcard", "avatar", "header",
	"date", "time", "title", "body", "content", "text", "message", "cancel", "carousel"}

// loaderWords are fragments of inline code that loads something: a script
// naming comments and loading data is a comment loader.
var loaderWords = []string{"fetch(", "xmlhttprequest", ".json", "/api/", "createelement('script')", `createelement("script")`, ".src="}

// commentWordSet and loaderWordSet find commentWords and loaderWords in
// an inline script's code in one pass each; built at their first use.
var (
	commentWordSet = sync.OnceValue(func() *anyof.Set { return anyof.New(comments.Words()...) })
	loaderWordSet  = sync.OnceValue(func() *anyof.Set { return anyof.New(loaderWords...) })
)

// placeholderText is the most visible text an empty comment area may hold
// (a heading, "Loading…").
const placeholderText = 60

// detectCommentSignal looks in a static page (its parsed tree, fetched
// from base) for signs that script draws its comments, and returns the
// first one found; the zero signal when none. The page is taken to show
// no comments of its own: the caller asks only then. The tree is not
// changed.
func detectCommentSignal(root *html.Node, base *url.URL) commentSignal {
	if root == nil {
		return commentSignal{}
	}
	var found commentSignal
	var walk func(n *html.Node, excluded bool)
	walk = func(n *html.Node, excluded bool) {
		for c := n.FirstChild; c != nil && found.reason == ""; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			ex := excluded || isChromeArea(c)
			if s := elementSignal(c, base, ex); s.reason != "" {
				found = s
				return
			}
			walk(c, ex)
		}
	}
	walk(root, false)
	return found
}

// isChromeArea reports whether n is site chrome that lists other things
// (navigation, sidebars, widgets): its comment words are not the post's.
func isChromeArea(n *html.Node) bool {
	switch n.Data {
	case "nav", "aside", "header", "head":
		return true
	}
	for _, k := range []string{"class", "id"} { // each lower-cased alone: no word spans the two
		v := strings.ToLower(getAttr(n, k))
		if strings.Contains(v, "sidebar") || strings.Contains(v, "widget") {
			return true
		}
	}
	return false
}

// elementSignal returns the signal element n gives by itself: a JSON-LD
// comment count, a script or frame naming comments, a noscript asking
// for JavaScript for comments, or an empty comment area. Comment areas
// inside site chrome (excluded) give none.
func elementSignal(n *html.Node, base *url.URL, excluded bool) commentSignal {
	switch n.Data {
	case "script":
		return scriptSignal(n, base)
	case "iframe":
		if src := getAttr(n, "src"); src != "" && comments.NamesComments(src) {
			return commentSignal{"an iframe " + shortURL(src) + " names comments", srcURL(base, src)}
		}
	case "noscript":
		if t := strings.ToLower(textOf(n)); comments.NamesLowerComments(t) && (strings.Contains(t, "javascript") || strings.Contains(t, "js")) {
			return commentSignal{reason: "a noscript asks for JavaScript to show comments"}
		}
	}
	if excluded || !areaTag(n.Data) {
		return commentSignal{}
	}
	name := areaName(n)
	if name == "" || !emptyArea(n) {
		return commentSignal{}
	}
	return commentSignal{reason: fmt.Sprintf("the comment area %s is empty or filled by script", name)}
}

// scriptSignal returns the signal of a script: a src naming comments, a
// JSON-LD commentCount above zero, or inline code naming comments that
// loads something.
func scriptSignal(n *html.Node, base *url.URL) commentSignal {
	src := getAttr(n, "src")
	low := strings.ToLower(src)
	if src != "" && comments.NamesLowerComments(low) && !strings.Contains(low, "comment-reply") {
		return commentSignal{"a script " + shortURL(src) + " names comments", srcURL(base, src)}
	}
	if strings.Contains(strings.ToLower(getAttr(n, "type")), "ld+json") {
		if k := comments.LDCommentCount([]byte(textOf(n))); k > 0 {
			return commentSignal{reason: fmt.Sprintf("the page's JSON-LD counts %d comments", k)}
		}
		return commentSignal{}
	}
	if src != "" {
		return commentSignal{} // its code is not read
	}
	lc := lowerNoSpaces(textOf(n))
	if commentWordSet().Any(lc) && !bytes.Contains(lc, []byte("comment-reply")) && loaderWordSet().Any(lc) {
		return commentSignal{reason: "an inline script loads comments"}
	}
	return commentSignal{}
}

// lowerNoSpaces returns code without its spaces, lower-cased: what
// strings.ToLower(strings.ReplaceAll(code, " ", "")) returns, in one
// copy without a branch per byte when code is ASCII.
func lowerNoSpaces(code string) []byte {
	b := make([]byte, len(code))
	n, all := 0, byte(0)
	for i := 0; i < len(code); i++ {
		c := code[i]
		all |= c
		b[n] = asciiLower[c]
		n += int(notSpace[c])
	}
	if all >= utf8.RuneSelf {
		return bytes.ToLower(b[:n]) // ASCII letters already lower: the same runes
	}
	return b[:n]
}

// asciiLower maps each byte to itself, but the ASCII capitals to their
// small letters; notSpace is 1 for each byte but the space.
var asciiLower, notSpace = func() (l, k [256]byte) {
	for c := range l {
		l[c], k[c] = byte(c), 1
		if 'A' <= c && c <= 'Z' {
			l[c] += 'a' - 'A'
		}
	}
	k[' '] = 0
	return l, k
}()

// areaTag reports whether elements named tag may hold a comment thread:
// block containers and custom elements.
func areaTag(tag string) bool {
	switch tag {
	case "div", "section", "ol", "ul", "article", "footer", "main":
		return true
	}
	return strings.Contains(tag, "-")
}

// areaName returns "#id", ".class" or the tag of a comment area: an
// element whose id, class, aria-label or tag names comments or a
// discussion and nothing else (notAreaWords); "" for other elements.
func areaName(n *html.Node) string {
	for _, k := range []string{"id", "class", "aria-label", "data-component"} {
		v := strings.ToLower(getAttr(n, k))
		if v == "" || !comments.NamesLowerComments(v) || containsAny(v, notAreaWords) || strings.ContainsAny(v, "0123456789") {
			continue // a digit: one comment's element (comment-42), not the area
		}
		switch k {
		case "id":
			return "#" + getAttr(n, k)
		case "class":
			return "." + strings.Join(strings.Fields(getAttr(n, k)), ".")
		}
		return fmt.Sprintf("<%s %s=%q>", n.Data, k, getAttr(n, k))
	}
	if strings.Contains(n.Data, "-") && comments.NamesComments(n.Data) {
		return "<" + n.Data + ">"
	}
	return ""
}

// emptyArea reports whether a comment area holds no comments: no form
// (a reply form is the static page's own), no more visible text than a
// heading or a "Loading…" line, and no element with text of a comment's
// length.
func emptyArea(n *html.Node) bool {
	empty := true
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil && empty; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.Data {
			case "form", "textarea", "input":
				empty = false
				return
			case "script", "style", "noscript", "template", "iframe", "button":
				continue
			}
			walk(c)
		}
	}
	walk(n)
	if !empty {
		return false
	}
	t := visibleText(n)
	return len(t) <= placeholderText && !saysNoComments(t)
}

// noCommentWords are fragments, lower-cased, of the notices a comment
// area shows when it is closed or has no comments yet, in the languages
// of commentWords: such an area is the page's own statement, no reason
// to render.
var noCommentWords = []string{"closed", "disabled", "turned off", "no comments", "no responses", "be the first",
	"geschlossen", "deaktiviert", "keine kommentare", "fermé", "désactivé", "aucun commentaire", "cerrado", "desactivado",
	"sin comentarios", "fechado", "chiusi", "disattivat", "nessun commento", "gesloten", "geen reacties", "suljettu",
	"kapal", "закрыт", "нет комментариев", "コメントはありません", "关闭", "暂无评论", "댓글이 없"}

// saysNoComments reports whether text reads as a closed or empty
// comment area's notice.
func saysNoComments(text string) bool {
	return containsAny(strings.ToLower(text), noCommentWords)
}

// visibleText returns n's text outside scripts, styles, noscripts,
// templates and buttons, white space collapsed.
func visibleText(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				b.WriteString(c.Data)
				b.WriteByte(' ')
			case c.Type == html.ElementNode:
				switch c.Data {
				case "script", "style", "noscript", "template", "button":
					continue
				}
				walk(c)
			}
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// textOf returns the text of n's child text nodes (a script's code, a
// noscript's markup as the parser keeps it).
func textOf(n *html.Node) string {
	if c := n.FirstChild; c != nil && c.NextSibling == nil && c.Type == html.TextNode {
		return c.Data // the usual script: one text node, not copied
	}
	var b strings.Builder
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
		}
	}
	return b.String()
}

// containsAny reports whether s holds one of words.
func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// getAttr returns the value of n's attribute key, or "".
func getAttr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Namespace == "" && a.Key == key {
			return a.Val
		}
	}
	return ""
}

// shortURL returns a URL for a log line: without its query, at most 80
// bytes.
func shortURL(u string) string {
	if k := strings.IndexAny(u, "?#"); k >= 0 {
		u = u[:k]
	}
	if len(u) > 80 {
		u = u[:80] + "…"
	}
	return u
}

// commentSignalReason returns why the page of j should be rendered for a
// comment system in no table, or "" when it shows no sign of one, when
// the feed says the post has no comments (slash:comments 0), or when the
// script or frame the sign rests on is one the browser may not load
// (mayLoad, the render stage's scope).
func commentSignalReason(j *pageJob, mayLoad func(string) bool) string {
	if j.item != nil && j.item.CommentCount == 0 {
		return ""
	}
	s := detectCommentSignal(j.page.doc, j.page.url) // no tree (the parser refused the page): no signal
	if s.reason == "" || s.src != "" && !mayLoad(s.src) {
		return ""
	}
	return s.reason
}

// renderedComments fills ex's comments, when the learned rules and the
// frames found none, with those the generic detector finds in the
// rendered DOM and in each cross-origin frame's document. Where the
// comment feed gives the truth (truth not empty), what the detector found
// is kept only when it agrees with it (agreesWithFeed): the structural
// fallback alone decides only where there is no truth. Records whose
// text the static page (static) already shows are no script's comments
// (an events list, a team page): the static extraction had its chance at
// them, and they are dropped. It returns a note for Entry.Problems when
// it drops what it found, else "".
func renderedComments(ex *learn.Extraction, res *render.Result, lang string, truth []feed.Comment, static []byte, shapes *commentShapes, more comments.More, limit int) string {
	if api := apiComments(res, lang, more.Answers, limit); len(api) > 0 && len(api) >= len(ex.Comments) && (len(truth) == 0 || agreesWithFeed(api, truth)) {
		ex.Comments = api // the service's own records, shown by the page
		if ex.Methods != nil {
			ex.Methods.Set(learn.FieldComments, blogharvest.MethodHeuristic)
		}
		return ""
	}
	if len(ex.Comments) > 0 {
		return ""
	}
	found := shapes.readRendered(res, lang, static)
	if len(found) == 0 {
		return ""
	}
	if len(truth) > 0 && !agreesWithFeed(found, truth) {
		return fmt.Sprintf("render: %d comment-like records in the rendered page match too few of the comment feed's %d comments: not kept", len(found), len(truth))
	}
	ex.Comments = found
	if ex.Methods != nil {
		ex.Methods.Set(learn.FieldComments, blogharvest.MethodHeuristic)
	}
	return ""
}

// apiComments returns the comments of the JSON responses the rendered
// page's scripts fetched that the page and its frames show
// (learn.APIComments), with those of the answers the crawl read
// following them (more: threadmore.go), up to limit in all; nil when
// there are none.
func apiComments(res *render.Result, lang string, more []learn.MoreAnswer, limit int) []learn.Comment {
	if len(res.API) == 0 {
		return nil
	}
	bodies := make([][]byte, 0, len(res.API))
	for _, a := range res.API {
		if a.Status < 300 {
			bodies = append(bodies, a.Body)
		}
	}
	return learn.APICommentsMore(bodies, more, comments.RenderedPages(res, lang), limit)
}

// notStatic returns the comments of found whose text the static page
// does not show (texts under 20 bytes, which may recur anywhere, are
// kept).
func notStatic(found []learn.Comment, static []byte) []learn.Comment {
	if len(found) == 0 || len(static) == 0 {
		return found
	}
	text := textsim.NormalizeText(textsim.HTMLText(string(static)))
	out := found[:0]
	for _, c := range found {
		if t := textsim.NormalizeText(c.ContentText); len(t) < 20 || !strings.Contains(text, t) {
			out = append(out, c)
		}
	}
	return out
}

// agreesWithFeed reports whether at least half of the comments found have
// nearly the text of a comment of the feed (bigram Dice of 0.8 or more).
func agreesWithFeed(found []learn.Comment, truth []feed.Comment) bool {
	texts := make([]string, len(truth))
	for k, fc := range truth {
		texts[k] = textsim.HTMLText(fc.Content)
	}
	matched := 0
	for _, c := range found {
		for _, t := range texts {
			if textsim.Dice(c.ContentText, t) >= 0.8 {
				matched++
				break
			}
		}
	}
	return 2*matched >= len(found)
}
