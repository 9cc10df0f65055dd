package harvest

import (
	"context"
	"net/url"
	"strings"

	"github.com/blogharvest/blogharvest/harvest/feed"
)

// maxSiteCommentPages bounds the pages of the blog-wide comment feed read
// by UpdateCrawl.
const maxSiteCommentPages = 10

// readSiteComments queues, for UpdateCrawl, the posts that the blog-wide
// comment feed (WordPress /comments/feed/, Blogger /feeds/comments/default)
// shows commented after since, so that new comments on posts no longer
// in the posts feed are found too.
func (c *crawl) readSiteComments(ctx context.Context, home *fetchedPage) {
	if !c.update || home == nil {
		return
	}
	cf := siteCommentFeed(home.info)
	if cf == "" {
		return
	}
	f, _, err := feed.FetchAll(ctx, c.client, cf, feed.PageOptions{Since: c.since, MaxPages: maxSiteCommentPages})
	if err != nil {
		c.log.Info("site comment feed", "url", cf, "err", err)
	}
	if f == nil {
		return
	}
	for _, it := range f.Items {
		if !it.Published.After(c.since) && !it.Updated.After(c.since) {
			continue
		}
		if post := commentedPost(it.Link); post != nil && c.scope.contains(post) && !isBinaryURL(post) {
			c.front.push(task{url: post.String(), kind: "post", prio: prioPost})
		}
	}
}

// commentedPost returns the canonical post URL of a site comment feed
// item's link: WordPress links a comment as <post>/comment-page-N/#comment-M
// when comments are paged, and the post is the URL without that page.
func commentedPost(link string) *url.URL {
	u := mustCanonical(link)
	if u == nil {
		return nil
	}
	if loc := commentPageRE.FindStringIndex(u.Path); loc != nil {
		u.Path = u.Path[:loc[0]+1]
	}
	return u
}

// siteCommentFeed returns the blog-wide comment feed the home page
// declares or links to, or "".
func siteCommentFeed(info *pageInfo) string {
	cands := append([]string{}, info.feeds...)
	for _, l := range info.links {
		cands = append(cands, l.url)
	}
	for _, raw := range cands {
		u, err := url.Parse(raw)
		if err != nil {
			continue
		}
		if p := strings.TrimSuffix(u.Path, "/"); strings.HasSuffix(p, "/comments/feed") || strings.HasSuffix(p, "/feeds/comments/default") {
			return raw
		}
	}
	return ""
}
