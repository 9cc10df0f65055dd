package learn

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blogharvest/blogharvest/harvest/textsim"
	"golang.org/x/net/html"

	"github.com/blogharvest/blogharvest/harvest/htmlnode"
)

// bylineEnds are the words after an author's name in a byline ("Posted by
// Ann at 10:44 AM", "par Anne le 2 août"); the name stops at the first.
var bylineEnds = []string{" at ", " on ", " in ", " le ", " à ", " am ", " um ", " el ", " em ", " op ", " il ", " | ", " · ", " - ", " – ", " — ", ", "}

// bylineStarts introduce an author's name in running text.
var bylineStarts = []string{"posted by ", "written by ", "published by ", "publié par ", "écrit par ", "par ", "von ", "por ", "door ", "by "}

// bylineFirsts are the first runes of bylineStarts.
var bylineFirsts = func() map[rune]bool {
	m := map[rune]bool{}
	for _, s := range bylineStarts {
		r, _ := utf8.DecodeRuneInString(s)
		m[r] = true
	}
	return m
}()

// maxBylineText bounds the text of an element read as a byline.
const maxBylineText = 100

// bylineName returns the name in a byline: the words after the byline
// start it begins with, up to a byline end, when they look like a name (1 to 5 words, at most
// 40 characters), else "".
func bylineName(text string) string {
	s := textsim.Collapse(text)
	low := strings.ToLower(s)
	start := -1
	for _, p := range bylineStarts {
		if strings.HasPrefix(low, p) {
			start = len(p)
			break
		}
	}
	if start < 0 {
		return ""
	}
	s, low = s[start:], low[start:]
	for _, e := range bylineEnds {
		if i := strings.Index(low, e); i >= 0 {
			s, low = s[:i], low[:i]
		}
	}
	s = textsim.CleanAuthor(s)
	words := strings.Fields(s)
	if len(words) == 0 || len(words) > 5 || len(s) > 40 || notNames[strings.ToLower(words[0])] {
		return ""
	}
	return s
}

// notNames are words that begin no name: "By the way", "par la suite".
var notNames = map[string]bool{
	"the": true, "a": true, "an": true, "this": true, "that": true, "my": true, "our": true, "way": true,
	"le": true, "la": true, "les": true, "un": true, "une": true, "der": true, "die": true, "das": true,
	"ein": true, "eine": true, "el": true, "los": true, "o": true, "os": true, "het": true, "de": true,
}

// textByline returns the name in the first short element outside the
// comments whose text is a byline ("Posted by Ann Lee at 10:44 AM").
func textByline(root *html.Node) string {
	var found string
	walkElements(root, func(n *html.Node) bool {
		if found != "" || isCommentBox(n) || rawTextTags[n.Data] || n.Data == "head" {
			return false
		}
		if startsByline(n) {
			if t := nodeText(n); len(t) <= maxBylineText {
				found = bylineName(t)
			}
		}
		return found == ""
	})
	return found
}

// startsByline reports whether n's first text child that is not blank
// begins with a byline start; it keeps nodeText off most elements.
func startsByline(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.TextNode {
			continue
		}
		if t := strings.TrimSpace(c.Data); t != "" {
			if r, _ := utf8.DecodeRuneInString(t); !bylineFirsts[unicode.ToLower(r)] {
				return false // the lower-cased text begins with that rune
			}
			low := strings.ToLower(textsim.Collapse(t) + " ")
			for _, p := range bylineStarts {
				if strings.HasPrefix(low, p) {
					return true
				}
			}
			return false
		}
	}
	return false
}

// looseByline returns the first part of the text of the first short
// element outside the comments whose class or id holds "author" or
// "byline" ("author_bio": "Seth Zenz | USLHC | USA" gives "Seth Zenz").
func looseByline(root *html.Node) string {
	var found string
	walkElements(root, func(n *html.Node) bool {
		if found != "" || isCommentBox(n) || rawTextTags[n.Data] || n.Data == "head" {
			return false
		}
		key := strings.ToLower(htmlnode.Attr(n, "class") + " " + htmlnode.Attr(n, "id"))
		if strings.Contains(key, "author") || strings.Contains(key, "byline") {
			if t := textsim.CleanAuthor(nodeText(n)); t != "" && len(t) <= 60 {
				found = firstNonEmpty(bylineName(t), authorParts(t)[0])
			}
		}
		return found == ""
	})
	return found
}
