// Package hugeblog serves hostile WordPress-like blogs for tests: a blog
// whose sitemaps, comment threads, comments REST answers or feed are as
// large as a test asks (hundreds of megabytes if need be), generated
// while they are written, so that the server itself holds next to nothing
// in memory whatever it sends. A test starts it with httptest.NewServer
// (loopback) and crawls it; the crawl's memory, not the server's, is what
// it measures.
//
// The blog is WordPress to a crawler: a home page linking every post and
// naming the posts feed (/feed/, RSS with generator wordpress.org), each
// post's page (/2024/01/post-N/, shortlink ?p=ID, a "K thoughts on"
// heading stating its comment count), each post's comment feed
// (<post>/feed/, the newest FeedComments comments, as WordPress lists the
// newest posts_per_rss), the comments REST endpoint
// (/wp-json/wp/v2/comments?post=ID&page=N, PerPage comments a page, with
// X-WP-Total and X-WP-TotalPages) and robots.txt.
package hugeblog

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"html"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Blog is one generated blog; the zero value of a field takes the default
// stated on it.
type Blog struct {
	// Posts is the number of posts, all in the feed and linked from the
	// home page. If zero, 1.
	Posts int
	// Comments is the number of comments of every post, stated by the feed
	// (slash:comments) and the page, and served by the REST endpoint.
	Comments int
	// FeedComments is how many of them (the newest) a post's comment feed
	// lists. If zero, 10 (WordPress's posts_per_rss).
	FeedComments int
	// PerPage is the comments of one REST answer. If zero, 100 (WordPress's
	// largest per_page).
	PerPage int
	// FloodBytes, if positive, makes every REST answer FloodBytes of
	// {"id":N} objects (new ids on every page), announcing 1000 pages.
	FloodBytes int64
	// SitemapChildren, if positive, makes robots.txt name a sitemap index
	// of that many gzipped children, each listing SitemapURLs URLs
	// /a/K/J (pages that answer 404), some 50 bytes of XML apiece.
	SitemapChildren int
	SitemapURLs     int
	// FeedPadBytes, if positive, pads the posts feed past that many bytes
	// (an XML comment before its items), over any body cap.
	FeedPadBytes int64
}

// The epoch of the posts: post N is published N hours after it.
var epoch = time.Date(2024, 1, 1, 8, 0, 0, 0, time.UTC)

func (b *Blog) posts() int        { return max(b.Posts, 1) }
func (b *Blog) feedComments() int { return min(cmp0(b.FeedComments, 10), b.Comments) }
func (b *Blog) perPage() int      { return cmp0(b.PerPage, 100) }
func cmp0(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// PostPath returns the URL path of post i (0 ≤ i < Posts).
func PostPath(i int) string { return fmt.Sprintf("/2024/01/post-%d/", i) }

// PostID returns the WordPress id of post i.
func PostID(i int) int { return 100 + i }

// CommentID returns the WordPress id of comment k (0 is the oldest) of
// post i.
func CommentID(i, k int) int { return PostID(i)*1_000_000 + k + 1 }

// ServeHTTP serves the blog.
func (b *Blog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	base := "http://" + r.Host
	p := r.URL.Path
	switch {
	case p == "/":
		b.home(w, base)
	case p == "/feed/":
		b.feed(w, base)
	case p == "/robots.txt":
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "User-agent: *\nAllow: /\n")
		if b.SitemapChildren > 0 {
			fmt.Fprintf(w, "Sitemap: %s/sitemap_index.xml\n", base)
		}
	case p == "/sitemap_index.xml" && b.SitemapChildren > 0:
		b.sitemapIndex(w, base)
	case strings.HasPrefix(p, "/sitemaps/child-") && b.SitemapChildren > 0:
		b.sitemapChild(w, r, base)
	case p == "/wp-json/wp/v2/comments":
		b.rest(w, r, base)
	default:
		i, feed, ok := b.postOf(p)
		switch {
		case !ok:
			http.NotFound(w, r)
		case feed:
			b.commentFeed(w, base, i)
		default:
			b.post(w, base, i)
		}
	}
}

// postOf returns the post a path names, and whether it is its comment
// feed.
func (b *Blog) postOf(p string) (int, bool, bool) {
	rest, ok := strings.CutPrefix(p, "/2024/01/post-")
	if !ok {
		return 0, false, false
	}
	num, tail, _ := strings.Cut(rest, "/")
	i, err := strconv.Atoi(num)
	if err != nil || i < 0 || i >= b.posts() || (tail != "" && tail != "feed/") {
		return 0, false, false
	}
	return i, tail == "feed/", true
}

func (b *Blog) home(w http.ResponseWriter, base string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	fmt.Fprintf(bw, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Huge Blog</title>
<meta name="generator" content="WordPress 6.4.2">
<link rel="alternate" type="application/rss+xml" title="Huge Blog Feed" href="%s/feed/">
</head><body><header><h1><a href="%s/">Huge Blog</a></h1></header><main>
`, base, base)
	for i := b.posts() - 1; i >= 0; i-- {
		fmt.Fprintf(bw, `<article class="post"><h2 class="entry-title"><a href="%s%s">Post number %d</a></h2><p>A summary of post %d.</p></article>
`, base, PostPath(i), i, i)
	}
	fmt.Fprint(bw, "</main></body></html>\n")
}

// text returns the body of post i: long enough to read as a whole post.
func text(i int) string {
	var s strings.Builder
	for k := 0; k < 12; k++ {
		fmt.Fprintf(&s, "<p>Paragraph %d of post %d: the archive keeps what the blog says, in its own words, for as long as anyone may want to read it again.</p>", k, i)
	}
	return s.String()
}

func (b *Blog) feed(w http.ResponseWriter, base string) {
	w.Header().Set("Content-Type", "application/rss+xml; charset=UTF-8")
	bw := bufio.NewWriterSize(w, 64<<10)
	defer bw.Flush()
	fmt.Fprintf(bw, `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wfw="http://wellformedweb.org/CommentAPI/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:slash="http://purl.org/rss/1.0/modules/slash/">
<channel><title>Huge Blog</title><link>%s/</link><description>A blog too large</description>
<generator>https://wordpress.org/?v=6.4.2</generator>
`, base)
	if b.FeedPadBytes > 0 {
		pad := strings.Repeat("padding ", 8<<10)
		bw.WriteString("<!-- ")
		for n := int64(0); n <= b.FeedPadBytes; n += int64(len(pad)) {
			bw.WriteString(pad)
		}
		bw.WriteString(" -->\n")
	}
	for i := b.posts() - 1; i >= 0; i-- {
		fmt.Fprintf(bw, `<item><title>Post number %d</title><link>%s%s</link><guid isPermaLink="false">%s/?p=%d</guid>
<pubDate>%s</pubDate><dc:creator>Ann</dc:creator><content:encoded><![CDATA[%s]]></content:encoded>
<wfw:commentRss>%s%sfeed/</wfw:commentRss><slash:comments>%d</slash:comments></item>
`, i, base, PostPath(i), base, PostID(i), epoch.Add(time.Duration(i)*time.Hour).Format(time.RFC1123Z), text(i), base, PostPath(i), b.Comments)
	}
	fmt.Fprint(bw, "</channel></rss>\n")
}

func (b *Blog) post(w http.ResponseWriter, base string, i int) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Post number %d – Huge Blog</title>
<meta name="generator" content="WordPress 6.4.2">
<link rel="shortlink" href="%s/?p=%d">
<link rel="alternate" type="application/rss+xml" title="Comments on Post number %d" href="%s%sfeed/">
</head><body><main><article class="post"><h1 class="entry-title">Post number %d</h1>
<time class="entry-date" datetime="%s">%s</time><div class="entry-content">%s</div></article>
<div id="comments" class="comments-area"><h2 class="comments-title">%d thoughts on “Post number %d”</h2></div>
</main></body></html>
`, i, base, PostID(i), i, base, PostPath(i), i, epoch.Add(time.Duration(i)*time.Hour).Format(time.RFC3339),
		epoch.Add(time.Duration(i)*time.Hour).Format("January 2, 2006"), text(i), b.Comments, i)
}

// commentTime is when comment k of a post was written.
func commentTime(k int) time.Time { return epoch.Add(time.Duration(k) * time.Minute) }

func (b *Blog) commentFeed(w http.ResponseWriter, base string, i int) {
	w.Header().Set("Content-Type", "application/rss+xml; charset=UTF-8")
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	fmt.Fprintf(bw, `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel><title>Comments on: Post number %d</title><link>%s%s</link><description>Comments</description>
<generator>https://wordpress.org/?v=6.4.2</generator>
`, i, base, PostPath(i))
	for k := b.Comments - 1; k >= b.Comments-b.feedComments(); k-- {
		id := CommentID(i, k)
		fmt.Fprintf(bw, `<item><title>By: Reader %d</title><link>%s%s#comment-%d</link><dc:creator>Reader %d</dc:creator>
<pubDate>%s</pubDate><guid isPermaLink="false">%s/?p=%d#comment-%d</guid><description>%s</description><content:encoded><![CDATA[<p>%s</p>]]></content:encoded></item>
`, k, base, PostPath(i), id, k, commentTime(k).Format(time.RFC1123Z), base, PostID(i), id, commentText(k), commentText(k))
	}
	fmt.Fprint(bw, "</channel></rss>\n")
}

// commentText is the text of comment k.
func commentText(k int) string { return fmt.Sprintf("Comment number %d says something of its own.", k) }

// rest serves the comments REST endpoint.
func (b *Blog) rest(w http.ResponseWriter, r *http.Request, base string) {
	post, _ := strconv.Atoi(r.URL.Query().Get("post"))
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	i := post - PostID(0)
	if i < 0 || i >= b.posts() || page < 1 {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"code":"rest_post_invalid_id"}`)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	bw := bufio.NewWriterSize(w, 64<<10)
	defer bw.Flush()
	if b.FloodBytes > 0 {
		w.Header().Set("X-WP-Total", strconv.Itoa(b.Comments))
		w.Header().Set("X-WP-TotalPages", "1000")
		bw.WriteByte('[')
		id := page * 10_000_000
		for n := int64(1); n < b.FloodBytes; id++ {
			if n > 1 {
				bw.WriteByte(',')
			}
			k, _ := fmt.Fprintf(bw, `{"id":%d}`, id)
			n += int64(k) + 1
		}
		bw.WriteString("]")
		return
	}
	per := b.perPage()
	pages := (b.Comments + per - 1) / per
	w.Header().Set("X-WP-Total", strconv.Itoa(b.Comments))
	w.Header().Set("X-WP-TotalPages", strconv.Itoa(pages))
	if page > max(pages, 1) {
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(bw, `{"code":"rest_post_invalid_page_number"}`)
		return
	}
	bw.WriteByte('[')
	// WordPress answers newest first.
	for n, k := 0, b.Comments-1-(page-1)*per; n < per && k >= 0; n, k = n+1, k-1 {
		if n > 0 {
			bw.WriteByte(',')
		}
		id := CommentID(i, k)
		fmt.Fprintf(bw, `{"id":%d,"post":%d,"parent":0,"author_name":"Reader %d","date_gmt":"%s","content":{"rendered":"<p>%s<\/p>\n"},"link":"%s%s#comment-%d"}`,
			id, post, k, commentTime(k).Format("2006-01-02T15:04:05"), html.EscapeString(commentText(k)), base, PostPath(i), id)
	}
	bw.WriteByte(']')
}

// sitemapIndex serves the index of the gzipped children.
func (b *Blog) sitemapIndex(w http.ResponseWriter, base string) {
	w.Header().Set("Content-Type", "application/xml")
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	fmt.Fprint(bw, `<?xml version="1.0" encoding="UTF-8"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for k := 0; k < b.SitemapChildren; k++ {
		fmt.Fprintf(bw, "<sitemap><loc>%s/sitemaps/child-%d.xml.gz</loc></sitemap>\n", base, k)
	}
	fmt.Fprint(bw, "</sitemapindex>\n")
}

// sitemapChild serves one child, gzipped as it is written.
func (b *Blog) sitemapChild(w http.ResponseWriter, r *http.Request, base string) {
	k, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(r.URL.Path, "/sitemaps/child-"), ".xml.gz"))
	if err != nil || k < 0 || k >= b.SitemapChildren {
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/x-gzip")
	zw, _ := gzip.NewWriterLevel(w, gzip.BestSpeed)
	bw := bufio.NewWriterSize(zw, 64<<10)
	fmt.Fprint(bw, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for j := 0; j < b.SitemapURLs; j++ {
		if _, err := fmt.Fprintf(bw, "<url><loc>%s/a/%d/%d</loc></url>\n", base, k, j); err != nil {
			return // the client stopped reading
		}
	}
	fmt.Fprint(bw, "</urlset>\n")
	bw.Flush()
	zw.Close()
}
