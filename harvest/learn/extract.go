package learn

import (
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
// only. It does not modify p.Root.
func (r *Rules) Extract(p Page) (Extraction, error) {
	root, err := p.root()
	if err != nil {
		return Extraction{}, fmt.Errorf("extract %s: %w", p.URL, err)
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

	article *html.Node // the article element, once found (in the page's tree)
}

// run extracts every field.
func (e *extractor) run() (Extraction, error) {
	e.comments()
	for _, f := range fields {
		e.extractField(f)
	}
	e.modified()
	if e.article != nil {
		e.x.ArticleNode = e.article
		e.x.ContentHTML, e.x.ContentText, e.x.cleanOmit = e.cleanArticle()
		e.x.cleanBase = e.base
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

// cleanArticle returns the HTML and the text of the cleaned article
// element (without what cleanNode removes and, when the article rule found
// it, without the children the rule omits, unless that leaves no text),
// and the kinds of children left out (nil when none). No copy of the
// article is made: its text is read skipping what cleaning removes, and
// its HTML is rendered from the page's tree cleaned in place and put back
// as parsed (cleanHTML). A copy of a large article (a table of thousands
// of rows) was as large as the article's part of the page's tree.
func (e *extractor) cleanArticle() (htm, text string, omitKinds []string) {
	if e.x.Methods[FieldContent] == blogharvest.MethodRule {
		if omit := omitted(e.article, e.rules.Article.Omit); omit != nil {
			skip := func(c *html.Node) bool { return cleanedAway(c) || omit(c) }
			if text := cleanText(e.article, skip); text != "" {
				return cleanHTML(e.article, skip, e.base), text, e.rules.Article.Omit
			}
		}
	}
	return cleanHTML(e.article, cleanedAway, e.base), cleanText(e.article, cleanedAway), nil
}

// CleanedArticle returns a cleaned copy of the article element whose
// children ContentHTML renders, for callers that read the article further
// (its links) without parsing ContentHTML again; nil when the article came
// from structured data or was not found. Each call makes a new copy.
func (x Extraction) CleanedArticle() *html.Node {
	if x.ArticleNode == nil {
		return nil
	}
	skip := cleanedAway
	if omit := omitted(x.ArticleNode, x.cleanOmit); omit != nil {
		skip = func(c *html.Node) bool { return cleanedAway(c) || omit(c) }
	}
	article := cloneTree(x.ArticleNode, skip)
	cleanNode(article, x.cleanBase)
	return article
}

// nodeDate reads a date from element n: from attribute a when set and
// present, else from any date attribute, else from its text.
func nodeDate(n *html.Node, a, lang string) (time.Time, bool) {
	t, _, ok := nodeDatePrec(n, a, lang)
	return t, ok
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
