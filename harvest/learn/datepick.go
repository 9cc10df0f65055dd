package learn

import (
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/internal/lazyregexp"
	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest/harvest/htmlnode"
)

// FieldModified is the key of Extraction.Methods for Extraction.Modified.
const FieldModified = "date_modified"

// setDate records the publication date, a time without a zone moved to
// the zone the blog's dates showed in training.
func (e *extractor) setDate(t time.Time, p blogharvest.Precision, m blogharvest.Method) {
	e.x.Date, e.x.DatePrecision = inOffset(t, p, e.rules.dateRule())
	e.x.Methods.Set(FieldDate, m)
}

// setModified records the date of the last edit.
func (e *extractor) setModified(t time.Time, p blogharvest.Precision, m blogharvest.Method) {
	e.x.Modified, e.x.ModifiedPrecision = inOffset(t, p, e.rules.dateRule())
	e.x.Methods.Set(FieldModified, m)
}

// modified finds the date of the last edit: the first element outside the
// comments that says so ("Last edited …", class "updated"), else
// structured data's modified date. A date equal to the publication date
// is not recorded.
func (e *extractor) modified() {
	if !e.x.Modified.IsZero() {
		return // the date rule read it
	}
	t, p, m := time.Time{}, blogharvest.Precision(""), blogharvest.MethodHeuristic
	visit := func(n *html.Node) bool {
		if !t.IsZero() || isCommentBox(n) || rawTextTags[n.Data] {
			return false
		}
		if modifiedLike(n) {
			if d, dp, ok := editDate(n, e.page.Lang); ok {
				t, p = d, dp
			}
			return false
		}
		return true
	}
	walkElements(e.root, visit)
	if t.IsZero() {
		var ok bool
		if t, p, ok = parseDatePrec(e.fb.data().updated, e.page.Lang); !ok {
			return
		}
		m = blogharvest.MethodStructured
	}
	if !t.Equal(e.x.Date) {
		e.setModified(t, p, m)
	}
}

// editDate reads the date of element n, which says when the post was last
// edited: from the first machine-readable date below it that is not the
// published one (<time pubdate>), else from n itself.
func editDate(n *html.Node, lang string) (time.Time, blogharvest.Precision, bool) {
	var t time.Time
	var p blogharvest.Precision
	walkElements(n, func(c *html.Node) bool {
		if !t.IsZero() || hasAttr(c, "pubdate") {
			return false
		}
		for _, k := range dateAttrs {
			if d, dp, ok := parseMachineDatePrec(htmlnode.Attr(c, k)); ok {
				t, p = d, dp
				return false
			}
		}
		return true
	})
	if !t.IsZero() {
		return t, p, true
	}
	return nodeDatePrec(n, "", lang)
}

// modifiedWords begin the text of an element that gives the date of the
// last edit.
var modifiedWords = []string{"last edited", "edited", "last updated", "updated", "last modified", "modified",
	"mis à jour", "modifié", "aktualisiert", "zuletzt geändert", "geändert", "actualizado", "aggiornato", "bijgewerkt"}

// modifiedKeys in a class, id or itemprop mark the date of the last edit.
var modifiedKeys = []string{"modified", "updated", "edited", "lastmod", "last-edit"}

// modifiedLike reports whether element n gives the date a post was last
// changed rather than published: its class, id or itemprop says so (and
// not also "published", as hAtom's "published updated" does), or its text
// begins with "Last edited", "Updated" …, or the text just before it ends
// so. It runs on every element of a page: it allocates nothing.
func modifiedLike(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	mod := false
	for _, a := range n.Attr {
		if a.Key != "class" && a.Key != "id" && a.Key != "itemprop" || strings.IndexAny(a.Val, "dD") < 0 {
			continue // every key, and "created", holds a d; "publish" matters only beside one
		}
		if containsFold(a.Val, "publish") || containsFold(a.Val, "created") {
			return false
		}
		for _, k := range modifiedKeys {
			mod = mod || containsFold(a.Val, k)
		}
	}
	return mod || startsWithAny(ownLeadText(n), modifiedWords) || endsWithAny(precedingText(n), modifiedWords)
}

// containsFold reports whether s holds sub (ASCII, lower case, beginning
// with a letter) in any case. Only a window that begins with sub's letter
// in either case can match: a window of len(sub) bytes that begins with a
// rune of several bytes holds fewer runes than sub.
func containsFold(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i]|0x20 == sub[0] && strings.EqualFold(s[i:i+len(sub)], sub) {
			return true
		}
	}
	return false
}

// ownLeadText returns n's first text child that is not blank, trimmed.
func ownLeadText(n *html.Node) string {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode {
			if t := strings.TrimSpace(c.Data); t != "" {
				return t
			}
		}
	}
	return ""
}

// startsWithAny reports whether s begins with one of the words, in any
// case, followed by a space, a colon or the end. The words begin with a
// lower-case ASCII letter other than k and s, which only that letter in
// either case folds to: a first byte that is not one rules a word out
// before EqualFold.
func startsWithAny(s string, words []string) bool {
	for _, w := range words {
		if len(s) >= len(w) && s[0]|0x20 == w[0] && strings.EqualFold(s[:len(w)], w) && (len(s) == len(w) || s[len(w)] == ' ' || s[len(w)] == ':') {
			return true
		}
	}
	return false
}

// precedingText returns the text just before element n among its
// siblings ("Last edited " before <time>), trimmed.
func precedingText(n *html.Node) string {
	for c := n.PrevSibling; c != nil; c = c.PrevSibling {
		if c.Type == html.ElementNode {
			return ""
		}
		if c.Type == html.TextNode {
			if t := strings.TrimSpace(c.Data); t != "" {
				return t
			}
		}
	}
	return ""
}

// endsWithAny reports whether s ends with one of the words, in any case,
// maybe followed by a colon or "on" ("Last edited on", "Updated:"). The
// words are as startsWithAny's.
func endsWithAny(s string, words []string) bool {
	s = strings.TrimSpace(strings.TrimSuffix(s, ":"))
	if len(s) > 3 && strings.EqualFold(s[len(s)-3:], " on") {
		s = s[:len(s)-3]
	}
	for _, w := range words {
		if len(s) >= len(w) && s[len(s)-len(w)]|0x20 == w[0] && strings.EqualFold(s[len(s)-len(w):], w) && (len(s) == len(w) || s[len(s)-len(w)-1] == ' ') {
			return true
		}
	}
	return false
}

// hintComment matches an HTML comment that states when a post was
// published: "<!-- published: 2023-09-01 -->", "<!-- created 2023-09-01
// 10:00 -->", "<!-- date = … -->".
var hintComment = lazyregexp.New(`(?i)^\s*(?:published|created|posted|pubdate|date[ _-]?(?:published|created)?)(?:\s+on)?\s*[:=]?\s*(.{8,64}?)\s*$`)

// publishedHint returns the date the page marks as the publication date
// apart from its visible dates: a <time pubdate>, else an HTML comment
// stating it (hintComment).
func publishedHint(root *html.Node, lang string) (time.Time, blogharvest.Precision, bool) {
	var t time.Time
	var p blogharvest.Precision
	var fromComment time.Time
	var commentPrec blogharvest.Precision
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil && t.IsZero(); c = c.NextSibling {
			switch {
			case c.Type == html.CommentNode && fromComment.IsZero():
				if m := hintComment.FindStringSubmatch(c.Data); m != nil {
					if d, dp, ok := parseDatePrec(m[1], lang); ok {
						fromComment, commentPrec = d, dp
					}
				}
			case c.Type == html.ElementNode && c.Data == "time" && hasAttr(c, "pubdate"):
				if d, dp, ok := nodeDatePrec(c, "", lang); ok {
					t, p = d, dp
				}
			case c.Type == html.ElementNode && !rawTextTags[c.Data]:
				walk(c)
			}
		}
	}
	walk(root)
	if !t.IsZero() {
		return t, p, true
	}
	return fromComment, commentPrec, !fromComment.IsZero()
}

// hasAttr reports whether element n has attribute key, valued or not.
func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}
