package learn

import (
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest/harvest/htmlnode"
)

// ownTextScore is the score of an element one of whose own text nodes
// holds the target's day among other words ("Posté le 27 août 2013 |",
// "This entry was posted on Wednesday, August 28th, 2013 at 4:44 am and
// is filed under"): too diluted for Dice against a rendering, but a date
// once parsed.
const ownTextScore = 0.8

// maxOwnText bounds the length of a text node searched for a date.
const maxOwnText = 200

// ownTextDateScore returns ownTextScore when one of n's own text nodes
// (its children, not deeper) holds year and parses to target's day, else
// 0. The year test keeps the parser off almost every text node.
func ownTextDateScore(n *html.Node, target time.Time, year, lang string) float64 {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.TextNode || len(c.Data) > maxOwnText || !strings.Contains(c.Data, year) {
			continue
		}
		if t, ok := quickDate(c.Data, lang); ok && nearDay(t, target) {
			return ownTextScore
		}
	}
	return 0
}

// textDate reads a date from element n's text: the whole text when it
// parses, else the first of its own text nodes that holds a date (the
// whole text of a footer that says when the post was published and much
// else is too long to parse). It says how precise the date is.
func textDate(n *html.Node, lang string) (time.Time, blogharvest.Precision, bool) {
	if t, p, ok := parseDatePrec(nodeText(n), lang); ok {
		return t, p, true
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode && len(c.Data) <= maxOwnText {
			if t, p, ok := clockDate(c.Data, lang); ok {
				return t, p, true
			}
		}
	}
	return time.Time{}, "", false
}

// nodeDatePrec reads a date from element n: from attribute a when set and
// present, else from any date attribute, else from its text; with the
// precision its source gave.
func nodeDatePrec(n *html.Node, a, lang string) (time.Time, blogharvest.Precision, bool) {
	if a != "" {
		if t, p, ok := parseMachineDatePrec(htmlnode.Attr(n, a)); ok {
			return t, p, true
		}
	}
	for _, k := range dateAttrs {
		if t, p, ok := parseMachineDatePrec(htmlnode.Attr(n, k)); ok {
			return t, p, true
		}
	}
	return textDate(n, lang)
}

// nearDate is the last resort for a page's date: the first date written in
// a text node around the article (within its parent and grandparent, the
// article itself and comments left out), as in a "Posted on …" line the
// rules and heuristics did not know. The day is taken in the blog's zone.
func (e *extractor) nearDate(article *html.Node) {
	if !e.x.Date.IsZero() || article == nil || article.Parent == nil {
		return
	}
	around := article.Parent
	if g := around.Parent; g != nil && g.Data != "body" && g.Data != "html" {
		around = g
	}
	if t, p, ok := firstTextDate(around, article, e.page.Lang); ok {
		e.setDate(t, p, blogharvest.MethodHeuristic)
	}
}

// firstTextDate returns the first date in a text node under n, with its
// time of day when the text gives one, skipping the subtree skip, comment
// boxes, raw text and the dates of the last edit ("Last edited …").
func firstTextDate(n, skip *html.Node, lang string) (time.Time, blogharvest.Precision, bool) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c == skip:
		case c.Type == html.TextNode:
			if len(c.Data) <= maxOwnText && hasYear(c.Data) && !startsWithAny(strings.TrimSpace(c.Data), modifiedWords) {
				if t, p, ok := clockDate(c.Data, lang); ok {
					return t, p, true
				}
			}
		case c.Type == html.ElementNode && !rawTextTags[c.Data] && !isCommentBox(c) && !modifiedLike(c):
			if t, p, ok := firstTextDate(c, skip, lang); ok {
				return t, p, true
			}
		}
	}
	return time.Time{}, "", false
}

// hasYear reports whether s holds four digits starting 19 or 20.
func hasYear(s string) bool {
	for i := 0; i+3 < len(s); i++ {
		if (s[i] == '1' && s[i+1] == '9' || s[i] == '2' && s[i+1] == '0') && isDigit(s[i+2]) && isDigit(s[i+3]) {
			return true
		}
	}
	return false
}

func isDigit(b byte) bool { return b >= '0' && b <= '9' }
