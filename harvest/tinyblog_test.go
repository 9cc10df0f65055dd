package harvest_test

import (
	"compress/gzip"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// tinyBlog is a generated blog small in code but any size in posts: a
// home page and /page/N/ listings of perPage posts, an RSS feed of the
// newest feedSize posts, and post pages /YYYY/MM/DD/post-i/ (i = 0 is the
// oldest). Item links can be sent off-site with offsite.
type tinyBlog struct {
	posts    int
	perPage  int
	feedSize int
	offsite  string // base URL the feed's newest item links to instead; empty for none
	locked   int    // index of a password-protected post; -1 for none
	scripted int    // index of a post whose article JavaScript writes; -1 for none
	sitemap  bool   // no "older posts" links: only robots.txt's gzipped sitemap lists old posts
	start    time.Time
}

func newTinyBlog(posts int) *tinyBlog {
	return &tinyBlog{posts: posts, perPage: 10, feedSize: 10, locked: -1, scripted: -1, start: time.Date(2010, 1, 1, 8, 0, 0, 0, time.UTC)}
}

func (b *tinyBlog) date(i int) time.Time { return b.start.Add(time.Duration(i) * 7 * time.Hour) }

func (b *tinyBlog) path(i int) string {
	return b.date(i).Format("/2006/01/02/") + "post-" + strconv.Itoa(i) + "/"
}

func (b *tinyBlog) title(i int) string {
	return fmt.Sprintf("Notes number %d on rivers and bridges", i)
}

func (b *tinyBlog) body(i int) string {
	if i == b.locked {
		return `<form action="/wp-login.php?action=postpass" class="post-password-form" method="post">
<p>This content is password protected. To view it please enter your password below:</p>
<p><label>Password: <input name="post_password" type="password" size="20"></label></p></form>`
	}
	var s strings.Builder
	for k := 0; k < 6; k++ {
		fmt.Fprintf(&s, "<p>Paragraph %d of post %d: the tide came in slowly over the old harbour wall while we "+
			"counted the boats, mended the nets and talked about weather, bridges and the long walk home.</p>\n", k, i)
	}
	return s.String()
}

func (b *tinyBlog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	base := "http://" + r.Host
	p := r.URL.Path
	switch {
	case p == "/":
		b.listing(w, base, 1)
	case strings.HasPrefix(p, "/page/"):
		n, err := strconv.Atoi(strings.Trim(strings.TrimPrefix(p, "/page/"), "/"))
		if err != nil || n < 1 || (n-1)*b.perPage >= b.posts {
			http.NotFound(w, r)
			return
		}
		b.listing(w, base, n)
	case p == "/feed/":
		b.feed(w, base)
	case p == "/robots.txt" && b.sitemap:
		fmt.Fprintf(w, "User-agent: *\nDisallow: /private/\nSitemap: %s/sitemaps/all.xml.gz\n", base)
	case p == "/sitemaps/all.xml.gz" && b.sitemap:
		b.sitemapGz(w, base)
	default:
		b.post(w, r, base)
	}
}

// page writes the frame every HTML page shares.
func (b *tinyBlog) page(w http.ResponseWriter, base, title, main string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><title>%s</title>
<link rel="alternate" type="application/rss+xml" href="%s/feed/"></head><body>
<header><nav><a href="%s/">Home</a></nav></header><main>%s</main><footer>Tiny blog</footer></body></html>`,
		title, base, base, main)
}

func (b *tinyBlog) listing(w http.ResponseWriter, base string, n int) {
	var s strings.Builder
	newest := b.posts - 1 - (n-1)*b.perPage
	for i := newest; i > newest-b.perPage && i >= 0; i-- {
		fmt.Fprintf(&s, "<h2><a href=\"%s%s\">%s</a></h2>\n", base, b.path(i), b.title(i))
	}
	if newest-b.perPage >= 0 && !b.sitemap {
		fmt.Fprintf(&s, "<a class=\"next\" href=\"%s/page/%d/\">Older posts</a>", base, n+1)
	}
	b.page(w, base, "Tiny blog", s.String())
}

func (b *tinyBlog) post(w http.ResponseWriter, r *http.Request, base string) {
	_, seg, _ := strings.Cut(strings.TrimSuffix(r.URL.Path, "/")[1:], "post-")
	i, err := strconv.Atoi(seg)
	if err != nil || i < 0 || i >= b.posts || b.path(i) != r.URL.Path {
		http.NotFound(w, r)
		return
	}
	body := b.body(i)
	if i == b.scripted {
		body = "<script>document.currentScript.parentNode.innerHTML = " + strconv.Quote(body) + ";</script>"
	}
	main := fmt.Sprintf(`<article class="post"><h1 class="entry-title">%s</h1>
<p class="byline">By <span class="author">Ann Walker</span> on <time class="published" datetime="%s">%s</time></p>
<div class="entry-content">%s</div></article>`, b.title(i), b.date(i).Format(time.RFC3339), b.date(i).Format("January 2, 2006"), body)
	b.page(w, base, b.title(i), main)
}

func (b *tinyBlog) feed(w http.ResponseWriter, base string) {
	w.Header().Set("Content-Type", "application/rss+xml")
	fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel><title>Tiny blog</title><link>%s/</link><description>Small</description>`, base)
	for i := b.posts - 1; i >= 0 && i >= b.posts-b.feedSize; i-- {
		link := base + b.path(i)
		if b.offsite != "" && i == b.posts-1 {
			link = b.offsite + b.path(i)
		}
		fmt.Fprintf(w, `<item><title>%s</title><link>%s</link><guid isPermaLink="false">tiny-%d</guid><dc:creator>Ann Walker</dc:creator><pubDate>%s</pubDate><content:encoded><![CDATA[%s]]></content:encoded></item>`,
			b.title(i), link, i, b.date(i).Format(time.RFC1123Z), b.body(i))
	}
	fmt.Fprint(w, `</channel></rss>`)
}

// sitemapGz writes a gzipped sitemap of every post, with lastmod.
func (b *tinyBlog) sitemapGz(w http.ResponseWriter, base string) {
	w.Header().Set("Content-Type", "application/gzip")
	zw := gzip.NewWriter(w)
	defer zw.Close()
	fmt.Fprint(zw, `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">`)
	for i := 0; i < b.posts; i++ {
		fmt.Fprintf(zw, "<url><loc>%s%s</loc><lastmod>%s</lastmod></url>\n", base, b.path(i), b.date(i).Format(time.RFC3339))
	}
	fmt.Fprint(zw, `</urlset>`)
}
