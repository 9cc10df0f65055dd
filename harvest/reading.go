package harvest

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/learn"
)

// reading is reading a page, a stage of the page worker (its named
// field w.read): it turns a fetched page into what the page says, a
// learn.Extraction (title, author, dates, content, comments) by the
// learned rules or, without them or where they miss, by learn's
// fallbacks; it tells whether a page no pattern names is content (the
// content test, looksLikeContent) and fills an entry's title, author,
// dates and content from the extraction and the feed item, each from the
// more trustworthy source (fillFields). It reads no Options and no
// policy: its config (readConfig) is built once from the worker's copy of
// the site (begin), and the rules and the content test's signs are handed
// to it once training has learned them (useRules); before that it reads
// with the fallbacks alone. The page tests it asks of the site (kind.go,
// postsigns.go) are the small interface pageTests. Every field is set
// before the workers turn pages into entries; it is then only read, so one
// reader serves every worker.
type reading struct {
	cfg   readConfig
	tests pageTests
	// rules are the learned rules (nil: the fallbacks alone), signs what
	// the blog's own posts show of the content test's signs: both set by
	// useRules.
	rules *learn.Rules
	signs postSigns
	stats *stats // the time spent extracting
}

// readConfig is what reading a page takes of the site, built once by
// readConfigOf.
type readConfig struct {
	lang  string    // the feed's language, a page's when it names none
	full  bool      // the feed carries whole posts (fillContent)
	texts itemTexts // the feed's items' texts (fillContent)
	home  string    // the home page's canonical URL: never content
}

// readConfigOf builds the reader's config from the worker's copy of the
// site.
func readConfigOf(s *site) readConfig {
	var cfg readConfig
	if s.feed != nil {
		cfg.lang = s.feed.Language
	}
	if s.home != nil {
		cfg.home = s.home.String()
	}
	cfg.full = s.full
	cfg.texts = s.texts
	return cfg
}

// pageTests are the tests of a page by the blog's post pattern and scope
// that reading a page asks of the site (kind.go, postsigns.go); *site
// implements them.
type pageTests interface {
	readsAsPost(ex learn.Extraction, p *fetchedPage) bool
	summaryOf(p *fetchedPage, ex learn.Extraction) bool
	underPost(p *fetchedPage) bool
	postLinks(ex learn.Extraction, base *url.URL) int
}

// newReading returns the reader of the site s's pages, with the
// fallbacks alone until useRules.
func newReading(s *site, st *stats) *reading {
	return &reading{cfg: readConfigOf(s), tests: s, stats: st}
}

// useRules hands the reader the learned rules (nil: none were learned)
// and the content test's signs.
func (r *reading) useRules(rules *learn.Rules, signs postSigns) {
	r.rules, r.signs = rules, signs
}

// lang returns the language of a page: its own, else the feed's.
func (r *reading) lang(p *fetchedPage) string {
	if p != nil && p.info.lang != "" {
		return p.info.lang
	}
	return r.cfg.lang
}

// lowScore is the article score under which a post's static page is
// taken to lack its article.
const lowScore = 0.3

// articleRuleTrusted reports whether a trusted article rule was learned,
// so that a low score on a post means the static page lacks the article.
func (r *reading) articleRuleTrusted() bool {
	return r.rules != nil && r.rules.Article != nil && r.rules.Article.Trusted
}

// learnPage is the seam where a fetched page goes to learn: its bytes and
// the tree every other reader of the page walks.
func (r *reading) learnPage(p *fetchedPage) learn.Page {
	return learn.Page{URL: p.resp.URL, HTML: p.html, Lang: r.lang(p), Root: p.doc}
}

// takeExtraction returns the extraction of j's page: the one learnSigns
// made with the same rules, once (buildEntry may change its slices), else
// a new one.
func (r *reading) takeExtraction(j *pageJob) (learn.Extraction, error) {
	l := j.learned
	j.learned = nil
	if l != nil && l.rules == r.rules && l.page == j.page {
		return l.ex, l.err
	}
	return r.extract(r.learnPage(j.page))
}

// extract applies the rules (or the fallbacks) to a page and times it.
func (r *reading) extract(page learn.Page) (learn.Extraction, error) {
	t0 := time.Now()
	ex, err := r.rules.Extract(page)
	d := time.Since(t0)
	r.stats.took("extract", d)
	return ex, err
}

// looksLikeContent reports whether a page that does not match the post
// pattern is a standalone page (about, contact) or a post rather than a
// listing: an article of some length that is not one of several on the
// page, that links to no more posts than the blog's own posts do, or
// that reads as a post (readsAsPost) however many it links to. The signs
// of a summary (a title or heading linking to another page, a permalink,
// a post link beside the article) and a URL under a post's demote it only
// where fewer than a quarter of the blog's feed-matched posts show them
// (postSigns.evidence): a sign the blog's own posts share is its theme,
// not evidence.
func (r *reading) looksLikeContent(ex learn.Extraction, p *fetchedPage) bool {
	if len(ex.ContentText) < 200 || p.ident == r.cfg.home || p.info.summaries > 1 {
		return false // several articles: a listing (archive, post format, author page)
	}
	if r.signs.evidence(r.signs.titleAway) && titleLinksAway(p, ex.Title) ||
		r.signs.evidence(r.signs.summary) && r.tests.summaryOf(p, ex) ||
		r.signs.evidence(r.signs.underPost) && r.tests.underPost(p) {
		return false
	}
	if r.tests.readsAsPost(ex, p) {
		return true
	}
	return r.tests.postLinks(ex, p.url) <= r.signs.maxLinks()
}

// fillFields sets title, author, dates, content and categories, each from
// the most trustworthy source, and records the method.
func (r *reading) fillFields(e *blogharvest.Entry, it *feed.Item, ex learn.Extraction, exErr error) {
	pick := func(field, fromFeed, fromPage string) string {
		if it != nil && strings.TrimSpace(fromFeed) != "" {
			e.Provenance.Set(field, blogharvest.MethodFeed)
			return strings.TrimSpace(fromFeed)
		}
		if fromPage != "" {
			e.Provenance.Set(field, methodOf(ex, field))
		}
		return fromPage
	}
	var ft, fa string
	if it != nil {
		ft, fa = it.Title, it.Author
	}
	e.Title = pick("title", ft, ex.Title)
	pageAuthor := ex.Author
	if e.Kind == blogharvest.KindPage && r.inferredAuthor(ex) {
		pageAuthor = "" // pages are not in the posts feed: its sole author says nothing of them
	}
	e.Author = pick("author", fa, pageAuthor)
	r.fillDates(e, it, ex)
	r.fillContent(e, it, ex, exErr)
	if it != nil {
		e.AltIdentifier = it.GUID
		e.Categories = append(e.Categories, it.Categories...)
		if e.AltIdentifier != "" {
			e.Provenance.Set("alt_identifier", blogharvest.MethodFeed)
		}
	}
}

// inferredAuthor reports whether ex's author is only the posts feed's sole
// author (learn.Rules.SoleAuthor), not something the page says.
func (r *reading) inferredAuthor(ex learn.Extraction) bool {
	return r.rules != nil && ex.Author != "" && ex.Author == r.rules.SoleAuthor &&
		methodOf(ex, "author") == blogharvest.MethodHeuristic
}

// fillDates sets Created and Modified from the feed, else the page, with
// the precision the page gave.
func (r *reading) fillDates(e *blogharvest.Entry, it *feed.Item, ex learn.Extraction) {
	switch {
	case it != nil && !it.Published.IsZero():
		e.Created = it.Published
		e.Provenance.Set("date_created", blogharvest.MethodFeed)
	case !ex.Date.IsZero():
		e.Created, e.CreatedPrecision = ex.Date, ex.DatePrecision
		e.Provenance.Set("date_created", methodOf(ex, learn.FieldDate))
	}
	switch {
	case it != nil && it.Updated.After(e.Created):
		e.Modified = it.Updated
		e.Provenance.Set("date_modified", blogharvest.MethodFeed)
	case !ex.Modified.IsZero() && ex.Modified.After(e.Created):
		e.Modified, e.ModifiedPrecision = ex.Modified, ex.ModifiedPrecision
		e.Provenance.Set("date_modified", methodOf(ex, learn.FieldModified))
	}
}

// fillContent chooses the article: the feed's full text when the feed
// carries the whole post (unless a trusted rule found clearly more), else
// the page's extraction, else the feed's summary.
func (r *reading) fillContent(e *blogharvest.Entry, it *feed.Item, ex learn.Extraction, exErr error) {
	feedHTML, feedText := "", itemText{}
	if it != nil {
		feedHTML = it.Content
		feedText = r.cfg.texts.of(feedHTML) // whether the item is whole, and its length: read with the feed
	}
	feedFull := it != nil && feedText.full
	// Only a full-text feed's item is compared with the page.
	pageLonger := feedFull && ex.Score >= 0.8 && len(ex.ContentText) > feedText.n*3/2
	// A full-text feed's short or empty item (an image post, a post with no
	// text) beats a fallback's guess, which then holds the article's
	// surroundings (title, byline) instead.
	shortPost := r.cfg.full && it != nil && ex.ContentHTML != "" && methodOf(ex, learn.FieldContent) != blogharvest.MethodRule
	switch {
	case shortPost && !feedFull:
		e.Content = feedHTML
		e.Provenance.Set("full_content", blogharvest.MethodFeed)
	case feedFull && !pageLonger:
		e.Content = feedHTML
		e.Provenance.Set("full_content", blogharvest.MethodFeed)
	case ex.ContentHTML != "":
		e.Content = ex.ContentHTML
		e.Provenance.Set("full_content", methodOf(ex, learn.FieldContent))
	case it != nil && firstNonEmpty(it.Content, it.Summary) != "":
		e.Content = firstNonEmpty(it.Content, it.Summary)
		e.Provenance.Set("full_content", blogharvest.MethodFeed)
		e.Problems = append(e.Problems, "article not found on the page; the feed's text is kept")
	default:
		e.Problems = append(e.Problems, fmt.Sprintf("no article extracted: %v", exErr))
	}
	if e.Content != "" {
		e.ContentFormat = "text/html"
		e.Provenance.Set("full_content_format", blogharvest.MethodComputed)
	}
}

// methodOf returns the method the extraction used for field, defaulting
// to MethodRule.
func methodOf(ex learn.Extraction, field string) blogharvest.Method {
	if m, ok := ex.Methods[field]; ok {
		return m
	}
	return blogharvest.MethodRule
}
