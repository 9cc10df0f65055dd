package feed

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	xnethtml "github.com/blogharvest/blogharvest/internal/xnet/html"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// CommonPaths are tried, in order, when a page names no feed: first under
// the page's own directory, then at the site root.
var CommonPaths = []string{"feed", "feed/", "rss", "atom.xml", "index.xml", "feed.xml", "feeds/posts/default", "rss.xml"}

// feedTypes are the media types of <link rel="alternate"> that name a feed.
var feedTypes = []string{"application/rss+xml", "application/atom+xml", "application/feed+json",
	"application/json", "application/rdf+xml", "application/xml", "text/xml"}

// Discover finds the posts feed of the blog at pageURL. The URL may itself
// be a feed. Otherwise the page's <link rel="alternate"> feeds are tried
// (comment feeds last), then CommonPaths. Each candidate is fetched and
// sniffed; a candidate is fetched as a fetch.Subresource, so that a feed
// served from another public host is found while private addresses stay
// refused (the caller may then add the feed's origin to the client's).
// home is the response for pageURL, first the feed's (home itself when
// pageURL is the feed): the caller reads the feed from it (FetchFrom)
// rather than asking for it again. A page with no feed yields an error
// wrapping blogharvest.ErrNotBlog (permanent); fetch errors of pageURL are
// returned as they are.
func Discover(ctx context.Context, c *fetch.Client, pageURL string) (feedURL string, home, first *fetch.Response, err error) {
	home, err = c.Get(ctx, pageURL)
	if err != nil {
		return "", home, nil, err
	}
	if Sniff(home.Body) {
		return home.URL, home, home, nil
	}
	text, _, _ := home.Text()
	var tooLarge error // the first candidate over the body cap
	for _, cand := range candidates(home.URL, text) {
		resp, err := c.Do(ctx, fetch.Request{URL: cand, Accept: acceptFeeds, Kind: fetch.Subresource})
		if err == nil && Sniff(resp.Body) {
			return resp.URL, home, resp, nil
		}
		if ctx.Err() != nil {
			return "", home, nil, ctx.Err()
		}
		if tooLarge == nil && errors.Is(err, blogharvest.ErrTooLarge) {
			tooLarge = err
		}
	}
	if tooLarge != nil {
		// Not "not a blog": a candidate feed was there, but too large to read.
		return "", home, nil, blogharvest.Permanent(fmt.Errorf("discover %s: feed too large: %w", pageURL, tooLarge))
	}
	return "", home, nil, blogharvest.Permanent(fmt.Errorf("discover %s: %w", pageURL, blogharvest.ErrNotBlog))
}

// acceptFeeds is the Accept header of feed requests.
const acceptFeeds = "application/rss+xml, application/atom+xml, application/feed+json, application/xml;q=0.9, text/xml;q=0.9, */*;q=0.5"

// candidates lists the feed URLs to try for the page at base, in order.
func candidates(base string, page []byte) []string {
	var out []string
	declared := FeedLinks(page, base)
	for _, list := range [][]string{nonComment(declared, false), nonComment(declared, true), commonURLs(base)} {
		for _, u := range list {
			out = appendNew(out, u)
		}
	}
	return out
}

// nonComment returns the links that are (comments) or are not comment feeds.
func nonComment(links []string, comments bool) []string {
	var out []string
	for _, l := range links {
		low := strings.ToLower(l)
		isComment := strings.Contains(low, "comments/feed") || strings.Contains(low, "/comments/default") || strings.Contains(low, "comments.xml")
		if isComment == comments {
			out = append(out, l)
		}
	}
	return out
}

// commonURLs resolves CommonPaths against the page's directory, then the
// site root.
func commonURLs(base string) []string {
	b, err := url.Parse(base)
	if err != nil {
		return nil
	}
	dir := b.ResolveReference(&url.URL{Path: "./"})
	var out []string
	for _, root := range []*url.URL{dir, b.ResolveReference(&url.URL{Path: "/"})} {
		for _, p := range CommonPaths {
			out = appendNew(out, root.ResolveReference(&url.URL{Path: p}).String())
		}
	}
	return out
}

// FeedLinks returns the absolute URLs of the feeds an HTML page declares
// with <link rel="alternate" type="…feed type…">, in document order.
func FeedLinks(page []byte, base string) []string {
	doc, err := xnethtml.Parse(bytes.NewReader(page))
	if err != nil {
		return nil
	}
	var out []string
	for n := range doc.Descendants() {
		if n.Type != html.ElementNode || n.DataAtom != atom.Link {
			continue
		}
		rel, typ, href := htmlAttr(n, "rel"), htmlAttr(n, "type"), htmlAttr(n, "href")
		if href != "" && hasToken(rel, "alternate") && isFeedMediaType(typ) {
			out = appendNew(out, resolve(base, href))
		}
	}
	return out
}

func isFeedMediaType(t string) bool {
	t = strings.ToLower(strings.TrimSpace(strings.Split(t, ";")[0]))
	for _, ft := range feedTypes {
		if t == ft {
			return true
		}
	}
	return false
}

func hasToken(list, tok string) bool {
	for _, f := range strings.Fields(strings.ToLower(list)) {
		if f == tok {
			return true
		}
	}
	return false
}

func htmlAttr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}
