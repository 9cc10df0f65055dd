package feed

import (
	"context"
	"fmt"
	"html"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/platform"
	"github.com/blogharvest/blogharvest/internal/lazyregexp"
)

// bloggerPostID finds the post id in a Blogger item id
// ("tag:blogger.com,1999:blog-123.post-456").
var bloggerPostID = lazyregexp.New(`^tag:blogger\.com,1999:blog-(\d+)\.post-(\d+)$`)

// CommentFeedURLs lists the candidate comment feeds of it, best first: the
// feed's own wfw:commentRss or rel="replies" link, then the URL the
// platform's row gives its posts' comment feeds (platform.CommentFeed:
// WordPress <post>/feed/, Blogger /feeds/<postid>/comments/default).
func CommentFeedURLs(f *Feed, it Item) []string {
	var out []string
	if it.CommentFeedURL != "" {
		out = append(out, it.CommentFeedURL)
	}
	if u := PostCommentFeed(f.row(), f.URL, it.Link, it.GUID); u != "" {
		out = appendNew(out, u)
	}
	return out
}

// row returns the platform table's row of the feed's platform (the zero
// row when it is unknown).
func (f *Feed) row() platform.Platform {
	if f == nil || f.PlatformID == "" {
		return platform.Platform{}
	}
	p, _ := platform.ByID(f.PlatformID)
	return p
}

// PostCommentFeed builds the URL of a post's own comment feed from the
// platform's shape (platform.Platform.CommentFeed): the post's link, the
// posts feed's URL and the post's GUID fill its placeholders. It returns
// "" when the platform has no such feed or a placeholder has no value.
func PostCommentFeed(p platform.Platform, feedURL, link, guid string) string {
	shape := p.CommentFeed
	if shape == "" {
		return ""
	}
	if strings.Contains(shape, "{post}") {
		u, err := url.Parse(link)
		if link == "" || err != nil || u.RawQuery != "" {
			return "" // a query link (?p=12) has no place in the shape
		}
		u.Fragment = ""
		fileLike := !strings.HasSuffix(u.Path, "/")
		if fileLike {
			blogharvest.SetEscapedPath(u, u.EscapedPath()+"/")
		}
		shape = strings.ReplaceAll(shape, "{post}", u.String())
		if fileLike {
			shape = strings.TrimSuffix(shape, "/") // after a file-like permalink ("x.html"): <post>/feed
		}
	}
	if strings.Contains(shape, "{feedroot}") {
		i := strings.LastIndex(feedURL, "/feeds/")
		if i < 0 {
			return ""
		}
		shape = strings.ReplaceAll(shape, "{feedroot}", feedURL[:i])
	}
	if strings.Contains(shape, "{postid}") {
		if p.PostID == "" {
			return ""
		}
		m := postIDPattern(p.PostID).FindStringSubmatch(guid)
		if len(m) < 2 {
			return ""
		}
		shape = strings.ReplaceAll(shape, "{postid}", m[len(m)-1])
	}
	return shape
}

// postIDPatterns caches the compiled PostID expressions of the table.
var postIDPatterns sync.Map // string → *regexp.Regexp

// postIDPattern returns the compiled expr.
func postIDPattern(expr string) *regexp.Regexp {
	if re, ok := postIDPatterns.Load(expr); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile(expr)
	postIDPatterns.Store(expr, re)
	return re
}

// wpReplyTo finds the parent link WordPress puts at the start of a reply
// in its comment feeds ("In reply to <a href="…#comment-8">Al</a>.", in
// the blog's language). The link text must be the parent's author, so an
// ordinary link at the start of a comment is not taken for one.
var wpReplyTo = lazyregexp.New(`^\s*(?:<p>)?[^<]{1,60}<a href=["']([^"']+#comment-\d+)["'][^>]*>([^<]*)</a>`)

// ParseComments parses a comment feed. InReplyTo comes from Atom
// thr:in-reply-to, Blogger's rel="related" link, or WordPress's "In reply
// to" prefix; a parent that is the post itself (Blogger points top-level
// comments at it) leaves InReplyTo empty.
func ParseComments(body []byte, feedURL string) ([]Comment, error) {
	f, err := Parse(body, feedURL)
	if err != nil {
		return nil, err
	}
	return commentsOf(f), nil
}

// commentsOf converts a parsed comment feed's items.
func commentsOf(f *Feed) []Comment {
	out := make([]Comment, 0, len(f.Items))
	for _, it := range f.Items {
		c := Comment{
			ID: firstNonEmpty(it.GUID, it.Link), Link: it.Link, Title: it.Title, Author: it.Author,
			Published: itemDate(it), Content: firstNonEmpty(it.Content, it.Summary), Raw: it.XML(),
			AuthorURL: it.authorURL, InReplyTo: it.replyTo,
		}
		out = append(out, c)
	}
	wordpressParents(out)
	return dropPostParents(out)
}

// parentRef reads the Atom threading of one comment.
func parentRef(si *scannedItem, guid string) string {
	if si.relatedCommentFeedRef != "" {
		if id := bloggerCommentID(si.relatedCommentFeedRef, guid); id != "" {
			return id
		}
	}
	return firstNonEmpty(si.inReplyTo, si.replyHref)
}

// bloggerCommentID turns a Blogger related link
// (…/feeds/<blog>/<post>/comments/default/<id>) into the comment's id.
func bloggerCommentID(href, guid string) string {
	i := strings.LastIndex(href, "/")
	m := bloggerPostID.FindStringSubmatch(guid)
	if i < 0 || m == nil {
		return ""
	}
	return "tag:blogger.com,1999:blog-" + m[1] + ".post-" + href[i+1:]
}

// wpReplyPara is the whole paragraph WordPress prepends to a reply in its
// comment feeds: "<p>In reply to <a href="…#comment-8">Al</a>.</p>".
var wpReplyPara = lazyregexp.New(`^\s*<p>[^<]{1,60}<a href=["']([^"']+#comment-\d+)["'][^>]*>[^<]*</a>[^<]{0,8}</p>\s*`)

// wordpressParents sets the parent of WordPress replies from their "In
// reply to" prefix and strips that prefix from the content (it is the
// feed's decoration, not the comment's text). A parent in the feed must be
// the author named and not newer than the reply; a parent outside the feed
// (feeds show the newest comments only) is kept as its link, so that the
// page's comments can supply it.
func wordpressParents(cs []Comment) {
	byLink := map[string]*Comment{}
	for i := range cs {
		byLink[cs[i].Link] = &cs[i]
	}
	for i := range cs {
		m := wpReplyTo.FindStringSubmatch(cs[i].Content)
		if cs[i].InReplyTo != "" || m == nil {
			continue
		}
		link := html.UnescapeString(m[1])
		p := byLink[link]
		switch {
		case p == nil && wpReplyPara.MatchString(cs[i].Content) && samePost(link, cs[i].Link):
			cs[i].InReplyTo = link
		case p != nil && p != &cs[i] && strings.TrimSpace(html.UnescapeString(m[2])) == p.Author && !p.Published.After(cs[i].Published):
			cs[i].InReplyTo = p.ID
		default:
			continue
		}
		if loc := wpReplyPara.FindStringIndex(cs[i].Content); loc != nil {
			cs[i].Content = cs[i].Content[loc[1]:]
		}
	}
}

// samePost reports whether two comment links lie on the same post: same
// host and path once the fragment and a /comment-page-N/ are removed.
func samePost(a, b string) bool {
	ua, err1 := url.Parse(a)
	ub, err2 := url.Parse(b)
	if err1 != nil || err2 != nil || ua.Host == "" {
		return false
	}
	return strings.EqualFold(ua.Host, ub.Host) && postPath(ua.Path) == postPath(ub.Path)
}

// wpCommentPage matches a WordPress comment page at the end of a path.
var wpCommentPage = lazyregexp.New(`/comment-page-\d+/?$`)

// postPath is a comment link's path without its comment page.
func postPath(p string) string {
	return strings.TrimSuffix(wpCommentPage.ReplaceAllString(p, "/"), "/")
}

// wpCommentRef matches a reference to a WordPress comment by its anchor.
var wpCommentRef = lazyregexp.New(`#comment-\d+$`)

// dropPostParents sets InReplyTo to the ID of the parent comment it names
// (by ID or link) and clears it when it names no comment of the feed: it
// then points at the post (Blogger, WordPress Atom). A reference to a
// WordPress comment anchor (…#comment-7) outside the feed is kept as it
// is: the comment exists, the feed only shows the newest ones.
func dropPostParents(cs []Comment) []Comment {
	ids := map[string]string{}
	for _, c := range cs {
		if c.Link != "" {
			ids[c.Link] = c.ID
		}
		ids[c.ID] = c.ID
	}
	for i := range cs {
		ref := cs[i].InReplyTo
		cs[i].InReplyTo = ids[ref]
		if cs[i].InReplyTo == "" && wpCommentRef.MatchString(ref) {
			cs[i].InReplyTo = ref
		}
	}
	return cs
}

// FetchComments fetches the first comment feed of CommentFeedURLs(f, it)
// that exists, with its further pages up to the bounds of lim (its
// comments, its bytes: cut says which stopped it), and parses its
// comments. The files are every page read, the first first, each
// RoleCommentFeed: what was asked for is archived, not only the first
// page. Every comment keeps its own XML in Raw. No candidate, or only missing ones (404/410),
// yields no comments and no error.
func FetchComments(ctx context.Context, c *fetch.Client, f *Feed, it Item, lim CommentLimits) ([]Comment, []blogharvest.File, Cut, error) {
	lim = lim.withDefaults()
	for _, u := range CommentFeedURLs(f, it) {
		resp, err := c.Do(ctx, fetch.Request{URL: u, Accept: acceptFeeds})
		if isNotFound(err) {
			continue
		}
		if err != nil {
			return nil, nil, Cut{}, fmt.Errorf("comments of %s: %w", it.Link, err)
		}
		files := []blogharvest.File{resp.File(blogharvest.RoleCommentFeed)}
		cf, err := Parse(resp.Body, resp.URL)
		if err != nil {
			return nil, files, Cut{Answers: 1}, fmt.Errorf("comments of %s: %w", it.Link, err)
		}
		// Every page up to the bounds (each page adds a comment or ends
		// the paging); WordPress 6.1 ignores ?paged=N on comment feeds: no
		// guessing.
		p := newPager(cf, PageOptions{MaxPages: lim.MaxComments + 1, MaxItems: lim.MaxComments, MaxBytes: lim.MaxBytes}, false)
		p.bytes = files[0].Size
		more, err := p.run(ctx, c)
		for i := range more {
			more[i].Role = blogharvest.RoleCommentFeed
		}
		return commentsOf(cf), append(files, more...), Cut{Answers: p.page, Reason: p.cut}, err
	}
	return nil, nil, Cut{}, nil
}
