package main

import (
	"html"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/textsim"
)

// sample is one post: its page and what the truth (the feed, or a
// fixture's Truth) says about it.
type sample struct {
	Page   learn.Page
	Target learn.Target
	// CommentTruth is set when Target.Comments is the post's complete
	// comment list (possibly empty), so comments can be scored.
	CommentTruth bool
}

// pair returns the sample as a learning pair.
func (s sample) pair() learn.Pair { return learn.Pair{Page: s.Page, Target: s.Target} }

// sortSamples orders samples oldest first (undated last), stably.
func sortSamples(s []sample) {
	sort.SliceStable(s, func(i, j int) bool { return before(s[i].Target.Date, s[j].Target.Date) })
}

// before orders dates with the zero time last.
func before(a, b time.Time) bool {
	if a.IsZero() || b.IsZero() {
		return !a.IsZero() && b.IsZero()
	}
	return a.Before(b)
}

// halves splits samples sorted by date into the older and the newer half.
func halves(s []sample) (older, newer []sample) {
	h := len(s) / 2
	return s[:h], s[h:]
}

// truth is what a sample is scored against, in comparable form.
type truth struct {
	Title, Author string
	Date          time.Time
	Text          string // the article's text; scored only when FullText
	FullText      bool
	Comments      []string // comment texts, scored only when CommentTruth
	CommentTruth  bool
	// AuthorOnPage and DateOnPage say whether the page shows the value at
	// all, so the report can tell the learner's misses from values the page
	// never had: the author's name as consecutive words of the page's
	// visible text (see showsAuthor); one of learn.DateRenderings of the
	// date, in the feed's zone or in UTC, anywhere in the page's HTML.
	AuthorOnPage, DateOnPage bool
}

// truthOf converts a sample's target.
func truthOf(s sample) truth {
	t := truth{Title: textsim.HTMLText(s.Target.Title), Author: s.Target.Author, Date: s.Target.Date,
		FullText: s.Target.FullText, CommentTruth: s.CommentTruth}
	if t.FullText {
		t.Text = textsim.HTMLText(s.Target.Content)
	}
	t.FullText = t.FullText && t.Text != "" // an empty feed text (a cartoon, a video) is no truth
	page := strings.ToLower(html.UnescapeString(string(s.Page.HTML)))
	t.AuthorOnPage = showsAuthor(s.Page.HTML, t.Author)
	t.DateOnPage = !t.Date.IsZero() && (showsDate(page, t.Date, s.Page.Lang) || showsDate(page, t.Date.UTC(), s.Page.Lang))
	for _, c := range s.Target.Comments {
		t.Comments = append(t.Comments, textsim.HTMLText(c.Content))
	}
	return t
}

// showsAuthor reports whether a page shows an author's name to its
// reader: the name's words (case-folded letters and digits, anything from
// a "(" on dropped, as in "ann@example.org (Ann)" → "ann example org")
// occur consecutively in the page's visible text (textsim.HTMLText: text
// nodes outside scripts, styles and the like; attributes, meta tags and
// JSON-LD do not count). A name only in the page's metadata, or nowhere,
// is not shown.
func showsAuthor(page []byte, author string) bool {
	name := words(author)
	if i := strings.Index(author, "("); i > 0 {
		name = words(author[:i])
	}
	if len(name) == 0 {
		return false
	}
	text := words(textsim.HTMLText(string(page)))
	for i := 0; i+len(name) <= len(text); i++ {
		if slices.Equal(text[i:i+len(name)], name) {
			return true
		}
	}
	return false
}

// words splits s into case-folded words of letters and digits.
func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// showsDate reports whether the lower-cased page holds one of the
// renderings of t.
func showsDate(page string, t time.Time, lang string) bool {
	for _, r := range learn.DateRenderings(t, lang) {
		if r != "" && strings.Contains(page, strings.ToLower(r)) {
			return true
		}
	}
	return false
}

// result is what one system extracted from one page.
type result struct {
	Title, Author string
	Date          time.Time
	Text          string
	Comments      []string // comment texts
	HasComments   bool     // the system extracts comments at all
	CommentFrom   []string // per comment, the method its text came from (crawl mode)
	Methods       map[string]string
	// InfersAuthor says the system may infer an author the page does not
	// give (blogharvest: the feed's sole author, learn.Rules.SoleAuthor);
	// AuthorInferred that this Author was so inferred (see inferredAuthor).
	InfersAuthor, AuthorInferred bool
}
