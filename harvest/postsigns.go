package harvest

import (
	"net/url"

	"github.com/blogharvest/blogharvest/harvest/learn"
)

// postSigns is what the blog's own posts show of the signs by which the
// content test (looksLikeContent) tells a listing or a part of a post from
// a page of its own: learned from the training pages, the pages of feed
// items inside the post pattern, with the learned rules. A sign that one
// of those posts shows is the blog's layout (a theme's breadcrumb to a
// section the pattern matches, a "next post" link with rel=next inside
// the article, a permalink on the title), not evidence: the test demotes
// a page on a sign only when the blog's posts were seen and fewer than a
// quarter of them show it (evidence).
type postSigns struct {
	posts     int // training posts read
	titleAway int // of them, whose title is a link to another page (titleLinksAway)
	summary   int // whose article box links away by heading, bookmark or post link (summaryOf)
	underPost int // whose URL lies under another post's (underPost)
	postLinks int // the most links to posts (by the pattern) one of their articles holds
}

// minSignPosts is how many of the blog's posts must have been read for a
// sign none of them shows to count as evidence.
const minSignPosts = 2

// learnSigns reads the signs off the training pages of feed items inside
// the post pattern (redirect stubs and failed fetches teach nothing).
func (c *crawl) learnSigns(jobs []*pageJob) {
	var s postSigns
	for _, j := range jobs {
		p := j.page
		if p == nil || p.stub != "" || j.item == nil || !c.site.pattern.Match(p.url) {
			continue
		}
		ex, err := c.learned.rules.Extract(c.w.read.learnPage(p))
		j.learned = &learnedExtraction{rules: c.learned.rules, page: p, ex: ex, err: err}
		s.posts++
		if titleLinksAway(p, ex.Title) {
			s.titleAway++
		}
		if c.site.summaryOf(p, ex) {
			s.summary++
		}
		if c.site.underPost(p) {
			s.underPost++
		}
		s.postLinks = max(s.postLinks, c.site.postLinks(ex, p.url))
	}
	c.learned.signs = s
}

// evidence reports whether a sign that shown of the blog's training
// posts show may demote a page: posts were read and fewer than a quarter
// of them show it (one post of eight whose title links to its own URL in another
// form is the exception; a sign most posts share is the theme).
func (s postSigns) evidence(shown int) bool { return s.posts >= minSignPosts && shown*4 < s.posts }

// maxLinks is how many links to posts a page's article may hold and
// still be a page of its own: fewer than 3, or as many as one of the
// blog's posts holds.
func (s postSigns) maxLinks() int { return max(2, s.postLinks) }

// postLinks counts the links of the extracted article to posts by the
// pattern.
func (s *site) postLinks(ex learn.Extraction, base *url.URL) int {
	n := 0
	for _, l := range articleLinks(ex, base) {
		if u, err := url.Parse(l.url); err == nil && s.pattern.Match(u) {
			n++
		}
	}
	return n
}
