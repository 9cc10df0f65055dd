package harvest

import (
	"context"
	"net/url"
	"slices"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/comments"
	"github.com/blogharvest/blogharvest/harvest/discover"
	"github.com/blogharvest/blogharvest/harvest/feed"
)

// maxSiteCommentPages bounds the pages of the blog-wide comment feed read
// by UpdateCrawl.
const maxSiteCommentPages = 10

// siteCommentPosts returns, for UpdateCrawl, the posts that the blog-wide
// comment feed (WordPress /comments/feed/, Blogger /feeds/comments/default)
// shows commented after since, so that new comments on posts no longer in
// the posts feed are found too. The feed stage chooses the feed
// (discover.SiteCommentFeed: the home page's, or the last crawl's when
// the home page is not read) and reads and parses it
// (discover.Feeds.SiteComments); the crawl keeps what it found: the
// validators, the first page for the Blog record, the parsed pages for
// the comment stage (c.disc.siteFeed). They are read before the posts feed,
// which is then read on to their items (wantItems), so that a post
// revisited for its comments keeps what only its feed item says (GUID,
// dates, full text).
//
// NewCrawl reads only its first page, for State.CommentFeed: the next
// UpdateCrawl asks for it conditionally.
func (c *crawl) siteCommentPosts(ctx context.Context, home *fetchedPage) []*url.URL {
	if c.emit == nil {
		return nil
	}
	in := discover.CommentFeedSite{HomeDue: c.homeDue(), Last: c.o.State.CommentFeed.URL}
	if home != nil {
		in.HomeRead, in.Feeds, in.Links = true, home.info.feeds, homeLinks(home)
	}
	cf := discover.SiteCommentFeed(in)
	if cf == "" {
		return nil
	}
	sc := c.disc.feeds.SiteComments(ctx, cf, discoverCommented{})
	if !sc.Read {
		return nil
	}
	c.res.State.CommentFeed = sc.Validators
	if len(sc.Files) > 0 && c.homeDue() {
		kept := sc.Files[0] // in the Blog record, for a crawl that starts from the archive (StateFrom)
		kept.Role = blogharvest.RoleCommentFeed
		c.site.blog.Files = append(c.site.blog.Files, kept)
	}
	if !c.disc.cfg.changedOnly {
		return nil
	}
	c.disc.siteFeed.Files, c.disc.siteFeed.Parsed, c.disc.siteFeed.ByPost = sc.Files, sc.Parsed, sc.ByPost
	return sc.Posts
}

// maxRevisitItems bounds the feed items UpdateCrawl reads to find those of
// the posts it revisits for new comments: a comment on a page (which the
// posts feed never lists) or on a very old post would otherwise page
// through the whole feed on every update. Posts beyond it are revisited
// with what their pages say.
const maxRevisitItems = 100

// wantItems reports whether items hold the feed item of every commented
// post and of every post whose comment thread API changed (comments/threads.go: a
// watched post may lie on an older feed page), or maxRevisitItems were
// read.
func (c *crawl) wantItems(items []feed.Item) bool {
	if len(c.disc.siteFeed.Commented) == 0 && len(c.threads.ChangedPosts()) == 0 || len(items) >= maxRevisitItems {
		return true
	}
	have := make(map[string]bool, len(items))
	for _, it := range items {
		if u := mustCanonical(it.Link); u != nil {
			have[u.String()] = true
		}
	}
	for _, p := range c.disc.siteFeed.Commented {
		if !have[p.String()] {
			return false
		}
	}
	for _, raw := range c.threads.ChangedPosts() {
		if u := mustCanonical(raw); u != nil && !have[u.String()] {
			return false
		}
	}
	return true
}

// queueCommented queues the commented posts within the blog's scope, and
// those whose comment thread API changed (comments/threads.go).
func (c *crawl) queueCommented() {
	posts := slices.Clone(c.disc.siteFeed.Commented)
	for _, raw := range c.threads.ChangedPosts() {
		if u := mustCanonical(raw); u != nil {
			posts = append(posts, u)
		}
	}
	for _, post := range posts {
		if c.site.scope.contains(post) {
			u := c.site.scope.fold(post.String())
			c.noteFolded(post.String(), u, "comments")
			c.ledger.met(u, "comments")
			c.front.push(task{url: u, kind: "post", prio: prioPost})
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
	esc := u.EscapedPath()
	if p, ok := comments.PostPath(esc); ok {
		blogharvest.SetEscapedPath(u, p)
	}
	return u
}
