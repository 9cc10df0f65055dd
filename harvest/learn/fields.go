package learn

import (
	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/textsim"
	"golang.org/x/net/html"
)

// field is one single-valued field of a post as Learn learns it and Extract
// applies it. Learn, Extract and the fallbacks iterate over fields; adding a
// field is one entry here plus its scorer (and the Rules, trainPage and
// Extraction members that hold its rule, its training scores and its
// value). Comments, a list, are learned and extracted apart (commentlearn.go,
// commentextract.go, commentfallback.go).
type field struct {
	name   string                        // the key of Extraction.Methods
	rule   func(*Rules) **Rule           // where the field's rule lives
	scores func(*trainPage) *fieldScores // its scores on a training page

	// target returns the feed texts the page's elements are matched
	// against, by bigrams; nil when score needs no sweep.
	target func(*Target) []string
	// score fills scores(p), given the sweep of target (inter, size; nil
	// and 0 without target). Fields are scored in order: later ones may
	// read earlier ones' scores (the article's best element).
	score func(p *trainPage, inter []int32, size int)
	// tune completes a learned rule from the training pages; may be nil.
	tune func(r *Rule, pages []*trainPage)

	// read sets the field's value from the element a trusted rule
	// selects, reporting false when the element gives none.
	read func(e *extractor, r *Rule, n *html.Node) bool
	// fallbacks are tried in order while the field has no value; each
	// records its method when it sets one.
	fallbacks []func(e *extractor)
}

// fields are the single-valued fields, in the order they are scored and
// extracted: the article first, since the others look near it.
var fields = []*field{
	{
		name: FieldContent, rule: func(r *Rules) **Rule { return &r.Article },
		scores: func(p *trainPage) *fieldScores { return &p.article },
		target: func(t *Target) []string { return textsim.FragmentTexts(t.Content) },
		score: func(p *trainPage, inter []int32, size int) {
			p.article = articleScores(p.d, inter, size, p.pair.Target.FullText)
		},
		tune: func(r *Rule, pages []*trainPage) {
			r.TextLen = medianTextLen(pages, r)
			r.Omit = learnOmit(pages, r, articleOmitTarget, articleShingle, 2)
		},
		read:      readArticle,
		fallbacks: []func(*extractor){(*extractor).fallbackArticle},
	},
	{
		name: FieldTitle, rule: func(r *Rules) **Rule { return &r.Title },
		scores: func(p *trainPage) *fieldScores { return &p.title },
		target: func(t *Target) []string { return []string{t.Title} },
		score: func(p *trainPage, inter []int32, size int) {
			p.title = nearScores(p.d, inter, size, p.article.best, 0.02, 0)
		},
		tune:      func(r *Rule, pages []*trainPage) { r.Omit = learnOmit(pages, r, titleOmitTarget, 2, 1) },
		read:      readTitle,
		fallbacks: []func(*extractor){(*extractor).fallbackTitle},
	},
	{
		name: FieldAuthor, rule: func(r *Rules) **Rule { return &r.Author },
		scores: func(p *trainPage) *fieldScores { return &p.author },
		target: func(t *Target) []string { return []string{t.Author} },
		score: func(p *trainPage, inter []int32, size int) {
			p.author = nearScores(p.d, inter, size, p.article.best, 0.5, 0.05)
			scoreBylineParts(p.d, &p.author, p.pair.Target.Author, inter, size, p.article.best)
		},
		tune:      func(r *Rule, pages []*trainPage) { r.Part, r.Parts = votePart(pages, r) },
		read:      readAuthor,
		fallbacks: []func(*extractor){(*extractor).fallbackAuthor, (*extractor).blogAuthor},
	},
	{
		name: FieldDate, rule: func(r *Rules) **Rule { return &r.Date },
		scores: func(p *trainPage) *fieldScores { return &p.date },
		score: func(p *trainPage, _ []int32, _ int) {
			p.date, p.dateAttr = dateScores(p.d, p.pair.Target.Date, p.pair.Page.Lang, p.article.best)
		},
		tune: func(r *Rule, pages []*trainPage) {
			r.Attr = voteAttr(pages, r)
			r.UTCOffset = learnOffset(pages, r)
			if off, zone, ok := learnFeedZone(pages, r); ok {
				r.UTCOffset, r.FeedZone = off, zone
			}
			if off, ok := learnLocalAttr(pages, r); ok {
				r.LocalAttr, r.UTCOffset, r.FeedZone = true, off, nil
			}
		},
		read: readDate,
		fallbacks: []func(*extractor){(*extractor).fallbackDate, (*extractor).urlDate,
			func(e *extractor) { e.nearDate(e.article) }},
	},
}

// extractField sets f's value: by its rule when trusted and it finds one,
// else by its fallbacks, in order, until one does.
func (e *extractor) extractField(f *field) {
	if r := e.trusted(f); r != nil {
		if n := r.firstIn(e.root, e.ix); n != nil && f.read(e, r, n) {
			e.x.Methods.Set(f.name, blogharvest.MethodRule)
			return
		}
	}
	for _, fb := range f.fallbacks {
		if _, done := e.x.Methods[f.name]; done {
			return
		}
		fb(e)
	}
}

// trusted returns f's rule when the rules exist and it is trusted, else
// nil.
func (e *extractor) trusted(f *field) *Rule {
	if e.rules == nil {
		return nil
	}
	if r := *f.rule(e.rules); r.usable() {
		return r
	}
	return nil
}

// readArticle takes the element as the article when it holds text.
func readArticle(e *extractor, r *Rule, n *html.Node) bool {
	text := nodeText(n)
	if text == "" {
		return false
	}
	e.article = n
	e.x.Score = articleScore(r, len(text))
	return true
}

// fallbackArticle finds the article with the fallbacks.
func (e *extractor) fallbackArticle() {
	if n, m := e.fb.article(); n != nil {
		e.article = n
		e.x.Methods.Set(FieldContent, m)
	}
}

// readTitle reads the title from the element's text, without the
// children the rule omits.
func readTitle(e *extractor, r *Rule, n *html.Node) bool {
	e.x.Title = textOmitting(n, r.Omit)
	return e.x.Title != ""
}

// fallbackTitle finds the title with the fallbacks.
func (e *extractor) fallbackTitle() {
	if t, m := e.fb.title(e.article); t != "" {
		e.x.Title = t
		e.x.Methods.Set(FieldTitle, m)
	}
}

// readAuthor reads the author from the element's text, keeping the
// rule's part of a byline (the title, extracted before, helps when the
// byline holds it: authorOf).
func readAuthor(e *extractor, r *Rule, n *html.Node) bool {
	e.x.Author = authorOf(r, nodeText(n), e.x.Title)
	return e.x.Author != ""
}

// fallbackAuthor finds the author with the fallbacks.
func (e *extractor) fallbackAuthor() {
	if t, m := e.fb.author(); t != "" {
		e.x.Author = t
		e.x.Methods.Set(FieldAuthor, m)
	}
}

// readDate reads the date from the element's attribute or text, to the
// precision it gives, in the rule's zone. A rule that reads a "Last
// edited …" date (learned on pages never edited, where the two agree)
// gives way to the published date the page states elsewhere
// (publishedHint), which the fallbacks then find; its date is the
// modified one.
func readDate(e *extractor, r *Rule, n *html.Node) bool {
	t, p, ok := nodeDatePrec(n, r.Attr, e.page.Lang)
	if !ok {
		return false
	}
	if modifiedLike(n) {
		if _, _, hinted := publishedHint(e.root, e.page.Lang); hinted {
			e.setModified(t, p, blogharvest.MethodRule)
			return false
		}
	}
	if r.LocalAttr {
		t, p = localWallClock(t, p)
	}
	e.x.Date, e.x.DatePrecision = inOffset(t, p, r)
	return true
}

// fallbackDate finds the date with the fallbacks.
func (e *extractor) fallbackDate() {
	if t, p, m := e.fb.date(e.page.Lang); !t.IsZero() {
		e.setDate(t, p, m)
	}
}
