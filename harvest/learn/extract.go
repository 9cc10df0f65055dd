package learn

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"golang.org/x/net/html"
)

// Extract applies the rules to a page. Fields whose rule is untrusted or
// finds nothing come from the fallbacks (structured data, platform
// heuristics, text density); Extraction.Methods records which. When no
// article is found at all, Extract returns what it did find together with an
// error wrapping blogharvest.ErrNoArticle. A nil *Rules uses the fallbacks
// only.
func (r *Rules) Extract(p Page) (Extraction, error) {
	if x, ok := r.fastExtract(p); ok {
		return x, nil
	}
	return r.slowExtract(p)
}

// slowExtract parses the whole page and extracts every field.
func (r *Rules) slowExtract(p Page) (Extraction, error) {
	root, err := html.Parse(bytes.NewReader(p.HTML))
	if err != nil {
		return Extraction{}, fmt.Errorf("extract %s: parse html: %w", p.URL, err)
	}
	e := &extractor{rules: r, root: root, page: p, fb: newFallback(root), ix: newLazyIndex(root)}
	e.base = parseBase(p.URL)
	if r != nil && p.Lang == "" {
		e.page.Lang = r.Lang
	}
	return e.run()
}

// articleScore is the Score of an article of textLen characters selected
// by rule r: the rule's confidence, scaled down when the text is under a
// quarter of the median length seen in training.
func articleScore(r *Rule, textLen int) float64 {
	s := r.Confidence
	if r.TextLen > 0 {
		s *= min(1, float64(textLen)/(0.25*float64(r.TextLen)))
	}
	return s
}

// parseBase parses a page URL, or returns nil.
func parseBase(u string) *url.URL {
	b, err := url.Parse(u)
	if err != nil {
		return nil
	}
	return b
}

// ExtractWithoutRules extracts a page with the fallbacks only, for pages of
// blogs whose feed gives nothing to learn from.
func ExtractWithoutRules(p Page) (Extraction, error) {
	var r *Rules
	return r.Extract(p)
}

// extractor holds the state of one extraction.
type extractor struct {
	rules *Rules
	root  *html.Node
	page  Page
	base  *url.URL
	fb    *fallback
	ix    *nodeIndex
	x     Extraction

	commentElems []*html.Node // the comment elements found, for the fast path's checks
}

// run extracts every field.
func (e *extractor) run() (Extraction, error) {
	e.comments()
	article := e.article()
	e.title(article)
	e.author()
	e.blogAuthor()
	e.date()
	e.urlDate()
	e.nearDate(article)
	if article != nil {
		cleanNode(article, e.base)
		e.x.ContentHTML = innerHTML(article)
		e.x.ContentText = nodeText(article)
	}
	if e.x.ContentText == "" && e.x.ContentHTML == "" {
		if text := e.fb.structuredBody(); text != "" {
			e.x.ContentText = text
			e.x.ContentHTML = textToHTML(text)
			e.x.Methods.Set(FieldContent, blogharvest.MethodStructured)
		}
	}
	if e.x.ContentText == "" {
		delete(e.x.Methods, FieldContent)
		return e.x, fmt.Errorf("extract %s: %w", e.page.URL, blogharvest.ErrNoArticle)
	}
	return e.x, nil
}

// rule returns the rule picked by get when the rules exist and it is
// trusted, else nil.
func (e *extractor) rule(get func(*Rules) *Rule) *Rule {
	if e.rules == nil {
		return nil
	}
	if r := get(e.rules); r.usable() {
		return r
	}
	return nil
}

// article finds the article element: by rule, else by the fallbacks.
func (e *extractor) article() *html.Node {
	if r := e.rule(func(r *Rules) *Rule { return r.Article }); r != nil {
		if n := r.firstIn(e.root, e.ix); n != nil && nodeText(n) != "" {
			e.x.Methods.Set(FieldContent, blogharvest.MethodRule)
			e.x.Score = articleScore(r, len(nodeText(n)))
			return n
		}
	}
	n, m := e.fb.article()
	if n != nil {
		e.x.Methods.Set(FieldContent, m)
	}
	return n
}

// title extracts the title, by rule, else by the fallbacks.
func (e *extractor) title(article *html.Node) {
	if r := e.rule(func(r *Rules) *Rule { return r.Title }); r != nil {
		if n := r.firstIn(e.root, e.ix); n != nil {
			if t := nodeText(n); t != "" {
				e.x.Title = t
				e.x.Methods.Set(FieldTitle, blogharvest.MethodRule)
				return
			}
		}
	}
	if t, m := e.fb.title(article); t != "" {
		e.x.Title = t
		e.x.Methods.Set(FieldTitle, m)
	}
}

// author extracts the author, by rule, else by the fallbacks.
func (e *extractor) author() {
	if r := e.rule(func(r *Rules) *Rule { return r.Author }); r != nil {
		if n := r.firstIn(e.root, e.ix); n != nil {
			if t := authorOf(r, nodeText(n), e.x.Title); t != "" {
				e.x.Author = t
				e.x.Methods.Set(FieldAuthor, blogharvest.MethodRule)
				return
			}
		}
	}
	if t, m := e.fb.author(); t != "" {
		e.x.Author = t
		e.x.Methods.Set(FieldAuthor, m)
	}
}

// nodeDate reads a date from element n: from attribute a when set and
// present, else from any date attribute, else from its text.
func nodeDate(n *html.Node, a, lang string) (time.Time, bool) {
	t, _, ok := nodeDatePrec(n, a, lang)
	return t, ok
}

// bylinePrefixes are words that introduce an author's name.
var bylinePrefixes = []string{"posted by ", "written by ", "by ", "par ", "von ", "por ", "door ", "di ", "auteur : ", "auteur: ", "author: "}

// bylineSuffixes are words that follow a commenter's name ("Ann says:").
var bylineSuffixes = []string{" says", " said", " a dit", " schreef", " schrieb", " sagte", " dijo", " disse", " ha detto", " ha scritto", " escribió", " wrote"}

// cleanAuthor strips a byline prefix or suffix and trailing separators
// from an author's name.
func cleanAuthor(s string) string {
	s = collapse(s)
	low := strings.ToLower(s)
	for _, p := range bylinePrefixes {
		if strings.HasPrefix(low, p) {
			s, low = s[len(p):], low[len(p):]
			break
		}
	}
	low = strings.TrimRight(low, " .…:")
	for _, p := range bylineSuffixes {
		if strings.HasSuffix(low, p) {
			s = s[:len(low)-len(p)]
			break
		}
	}
	return strings.Trim(s, " ,|·-–—:")
}

// textToHTML turns plain text into paragraphs of escaped HTML.
func textToHTML(text string) string {
	var b strings.Builder
	for _, p := range strings.Split(text, "\n\n") {
		if p = strings.TrimSpace(p); p != "" {
			b.WriteString("<p>" + html.EscapeString(p) + "</p>\n")
		}
	}
	return b.String()
}
