package harvest

import (
	"context"
	"fmt"
	"net/http"
	"strings"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/comments"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/internal/lazyregexp"
)

// buildEntry extracts the entry of a fetched page and completes it with
// the feed's values, comments, rendering and media. It returns nil for a
// navigation page that turns out not to be content.
func (w *pageWorker) buildEntry(ctx context.Context, j *pageJob, post bool) *blogharvest.Entry {
	p := j.page
	ex, exErr := w.read.takeExtraction(j)
	if !post && j.t.kind == "candidate" && !w.read.looksLikeContent(ex, p) {
		return nil
	}
	if !post && j.t.kind == "candidate" && w.site.readsAsPost(ex, p) {
		post = true // a post the pattern does not know (root-level, another folder)
	}
	e := w.newEntry(j, post)
	if e.Kind == blogharvest.KindPage && j.item != nil && w.site.readsAsPost(ex, p) {
		e.Kind = blogharvest.KindPost // a feed item alone of its URL shape whose page reads as a post
	}
	w.comments.FetchComments(ctx, j.post())
	w.comments.CommentPages(ctx, j.post(), e, &ex)
	w.comments.FillShortfall(ctx, j.post(), len(ex.Comments))
	ex, exErr = w.maybeRender(ctx, j, e, ex, exErr)
	w.read.fillFields(e, j.item, ex, exErr)
	w.fallbackDates(ctx, e, j, ex)
	lastmodModified(e, j.t.lastmod)
	w.fillTerms(e, j.item, p, ex)
	w.appendPostPages(ctx, e, p)
	w.comments.CompleteComments(ctx, j.post(), e, ex)
	comments.FillComments(e, j.post(), ex)
	w.comments.NoteShortfall(e, j.post())
	if p.info.password {
		e.AccessRestriction = "password protected"
		e.Provenance.Set("access_restriction", blogharvest.MethodHeuristic)
		e.Title = stripProtectedPrefix(e.Title)
	}
	w.addFiles(e, j)
	if w.fetch.cfg.media.maxBytes > 0 && w.fetch.cfg.media.maxPerEntry > 0 {
		w.captureMedia(ctx, e)
	}
	w.captureEntryRequisites(ctx, e, p, j.renderedReqs)
	if j.renderedMissed != nil {
		w.unrecordedRequisites(j.renderedMissed)
	}
	j.renderedReqs, j.renderedMissed = nil, nil
	return e
}

// newEntry starts the entry of a fetched page: identity, HTTP values,
// aliases and the captured page.
func (w *pageWorker) newEntry(j *pageJob, post bool) *blogharvest.Entry {
	p := j.page
	kind := blogharvest.KindPost
	if !post || j.t.kind == "page" || j.item != nil && w.site.outsidePattern(p.ident) && w.site.outsidePattern(p.url.String()) {
		kind = blogharvest.KindPage
	}
	e := &blogharvest.Entry{BlogID: w.o.Blog.ID, Kind: kind, URL: p.ident, ChildOf: w.site.home.String(),
		Language: w.site.blogLanguage(), Captured: p.resp.Captured, StatusCode: p.resp.Status,
		ResponseCode: fmt.Sprintf("%d %s", p.resp.Status, http.StatusText(p.resp.Status))}
	e.Provenance.Set("status_code", blogharvest.MethodHTTP)
	e.Provenance.Set("response_code", blogharvest.MethodHTTP)
	e.Provenance.Set("child_of", blogharvest.MethodComputed)
	// The URL asked for is no alias when an HTTP redirect answered it: a
	// crawl meets such a URL before or after the page's own, by the order of
	// its workers, and an alias must not depend on that (the WARC holds the
	// redirect the capture followed; the ledger notes every redirect met).
	aliases := []string{p.url.String(), p.info.shortlink}
	if c := p.info.canonical; c != "" && c != p.ident && w.site.scope.fold(c) == p.ident {
		aliases = append(aliases, c) // the page's rel=canonical under the other scheme (pageOf)
	}
	aliases = append(aliases, w.claims.stubsOf(e.URL, j.t.url, p.url.String())...)
	if j.item != nil {
		aliases = append(aliases, canonicalOr(j.item.Link))
	}
	for _, a := range aliases {
		if a != "" && a != e.URL && !contains(e.Aliases, a) {
			e.Aliases = append(e.Aliases, a)
		}
	}
	e.Files = append(e.Files, p.resp.File(blogharvest.RolePage))
	return e
}

// protectedPrefix is the label platforms put before the title of a
// password-protected post ("Protected: ", "Protégé : ", "Geschützt: ").
var protectedPrefix = lazyregexp.New(`^[\p{L}]{3,20}\s?:\s+`)

// stripProtectedPrefix removes the platform's protection label from the
// title of a password-protected entry; other titles are never touched.
func stripProtectedPrefix(title string) string {
	if loc := protectedPrefix.FindStringIndex(title); loc != nil && loc[1] < len(title) {
		return title[loc[1]:]
	}
	return title
}

// canonicalOr returns the canonical form of raw, or "" when it has none.
func canonicalOr(raw string) string {
	s, err := Canonical(raw)
	if err != nil {
		return ""
	}
	return s
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// itemXML returns the feed item's own document (feed.Item.XML), nil for
// no item.
func itemXML(it *feed.Item) []byte {
	if it == nil {
		return nil
	}
	return it.XML()
}

// addFiles attaches the feed item, the comment feed and the rules.
func (w *pageWorker) addFiles(e *blogharvest.Entry, j *pageJob) {
	if raw := itemXML(j.item); len(raw) > 0 {
		f := blogharvest.File{URL: w.site.blog.FeedURL, Role: blogharvest.RoleFeed, MediaType: feedMediaType(w.site.feed.Format),
			Body: raw, Captured: w.start}
		f.Sum()
		e.Files = append(e.Files, f)
	}
	if len(j.cm.Feed) > 0 {
		e.Files = append(e.Files, j.cm.Feed...)
	}
	e.Files = append(e.Files, j.cm.APIFiles...)
	if j.cm.Err != nil {
		e.Problems = append(e.Problems, fmt.Sprintf("comment feed: %v", j.cm.Err))
	}
	if w.rulesF != nil {
		e.Files = append(e.Files, *w.rulesF)
	}
}

// feedMediaType returns the media type of a feed item's raw bytes.
func feedMediaType(format string) string {
	switch strings.ToLower(format) {
	case "atom":
		return "application/atom+xml"
	case "json":
		return "application/feed+json"
	}
	return "application/rss+xml"
}

// feedOnlyEntry builds the entry of a feed item whose page could not be
// captured (off-site link, fetch failure) from the feed alone.
func (w *pageWorker) feedOnlyEntry(it *feed.Item, problem string) *blogharvest.Entry {
	u := firstNonEmpty(canonicalOr(it.Link), canonicalOr(it.GUID))
	if u == "" {
		return nil
	}
	e := &blogharvest.Entry{BlogID: w.o.Blog.ID, Kind: blogharvest.KindPost, URL: u, ChildOf: w.site.home.String(),
		Language: w.site.blogLanguage(), Captured: w.start, Problems: []string{problem}}
	w.read.fillFields(e, it, learn.Extraction{}, nil)
	e.NumReplies = max(it.CommentCount, 0)
	e.HasReply = e.NumReplies > 0
	w.addFiles(e, &pageJob{item: it})
	return e
}

// emitOffsite emits feed-only entries for feed items whose pages lie
// outside the blog's scope; UpdateCrawl emits only those changed since.
func (c *crawl) emitOffsite() error {
	for _, it := range c.offsite {
		if c.changes.only && !c.changes.itemChanged(it) {
			c.ledger.set(canonicalOr(it.Link), FateSkipped, "feed item unchanged since the last crawl", "feed")
			continue
		}
		e := c.w.feedOnlyEntry(it, fmt.Sprintf("page %s is outside the blog; not captured", it.Link))
		if e == nil {
			c.ledger.set(canonicalOr(it.Link), FateSkipped, "feed item without a usable link or guid", "feed")
			continue
		}
		if !c.claims.claim(e.URL) {
			c.ledger.set(e.URL, FateDuplicate, "archived before under this URL", "feed")
			continue
		}
		c.res.Skipped++
		if err := c.emitEntry(e); err != nil {
			return err
		}
	}
	return nil
}

// splitTags tells the feed's categories from its tags (RSS lists both as
// <category>) by the entry's own taxonomy links on the page, as WordPress
// marks them: rel="category tag" for a category, rel="tag" alone for a tag.
// A name listed twice may be both. Without feed categories the page's
// lists are taken as they are. Pages without rel="category" links (Blogger
// marks its labels rel=tag) keep every term a category.
func splitTags(cats []string, info *pageInfo) (categories, tags []string) {
	pageCats, pageTags := taxonomyLinks(info)
	return mergeTerms(cats, pageCats, pageTags)
}

// mergeTerms is splitTags given the page's category and tag names. A feed
// without categories leaves the page's lists as they are; a page with tags
// and no category links (Blogger's labels) keeps the feed's terms as
// categories and adds its other terms as tags.
func mergeTerms(cats, pageCats, pageTags []string) (categories, tags []string) {
	if len(cats) == 0 {
		return pageCats, pageTags
	}
	if len(pageCats) == 0 {
		for _, t := range pageTags {
			if !containsName(cats, t) {
				tags = appendNew(tags, t)
			}
		}
		return cats, tags
	}
	usedCat, usedTag := map[string]bool{}, map[string]bool{}
	for _, c := range cats {
		name := strings.Join(strings.Fields(c), " ")
		switch {
		case !usedCat[name] && containsName(pageCats, name):
			usedCat[name] = true
			categories = append(categories, c)
		case !usedTag[name] && containsName(pageTags, name):
			usedTag[name] = true
			tags = append(tags, c)
		case usedCat[name] || usedTag[name]:
			// listed again: WordPress lists a term once per taxonomy
		default:
			categories = append(categories, c)
		}
	}
	for _, name := range pageTags { // a feed names a term once even when it is a category and a tag
		if usedCat[name] && !usedTag[name] {
			tags = append(tags, name)
		}
	}
	for _, name := range pageCats {
		if usedTag[name] && !usedCat[name] {
			categories = append(categories, name)
		}
	}
	return categories, tags
}

// taxonomyLinks returns the anchor texts of the page's category links
// (rel="category tag", or rel="tag" to a /category/ URL) and tag links.
func taxonomyLinks(info *pageInfo) (cats, tags []string) {
	for _, l := range info.links {
		if !hasRel(l.rel, "tag") && !hasRel(l.rel, "category") {
			continue
		}
		if hasRel(l.rel, "category") || strings.Contains(l.url, "/category/") {
			cats = appendNew(cats, l.text)
		} else {
			tags = appendNew(tags, l.text)
		}
	}
	return cats, tags
}

// appendNew appends s unless list holds it or it is empty.
func appendNew(list []string, s string) []string {
	if s == "" || contains(list, s) {
		return list
	}
	return append(list, s)
}

// containsName reports whether list holds name exactly.
func containsName(list []string, name string) bool { return contains(list, name) }
