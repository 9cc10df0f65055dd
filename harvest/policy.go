package harvest

import "time"

// policy is what tells an UpdateCrawl from a NewCrawl: a value fixed when
// the crawl starts and read, never written, by every stage.
type policy struct {
	// since is the date after which UpdateCrawl archives what was
	// published, edited or commented; zero for NewCrawl.
	since time.Time
	// changedOnly: emit only what changed after since, and read only what
	// may have (feed paging back to since, sitemap lastmod after since).
	changedOnly bool
	// useState: start from what the crawl before left (Options.State): the
	// known feed, conditional feed requests, its rules.
	useState bool
	// settled: no recheck is due (recheckDue), so only the posts something
	// says changed are read.
	settled bool
	// homeLinksOnly: follow only the post links of the home page, not the
	// links of every page.
	homeLinksOnly bool
	// trainPages is the number of feed item pages the rules are learned from.
	trainPages int
	// siteCommentPages bounds the pages of the blog-wide comment feed read.
	siteCommentPages int
}

// newCrawlPolicy harvests everything the crawl can reach.
func newCrawlPolicy() policy {
	return policy{trainPages: maxTrainNew, siteCommentPages: 1}
}

// updatePolicy harvests what changed since; o and now decide whether the
// recheck of the posts without change signal is due.
func updatePolicy(o Options, since, now time.Time) policy {
	return policy{since: since, changedOnly: true, useState: true, settled: !recheckDue(o, now),
		homeLinksOnly: true, trainPages: maxTrainUpdate, siteCommentPages: maxSiteCommentPages}
}
