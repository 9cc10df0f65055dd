package harvest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
)

// bloggerFeedHost is a Blogger blog at canal.blogspot.com whose posts feed
// holds five posts a page, its rel="next" link naming the platform's feed
// host (www.blogger.com/feeds/<id>/posts/default?start-index=…), as
// Blogger writes it. The home page links to the newest posts only: the
// older ones are found through the feed's pages alone.
type bloggerFeedHost struct {
	posts int
	start time.Time
}

func (b bloggerFeedHost) path(i int) string {
	return b.start.AddDate(0, 0, 10*i).Format("/2006/01/") + "lock-" + strconv.Itoa(i) + ".html"
}

func (b bloggerFeedHost) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	const blog = "http://canal.blogspot.com"
	switch {
	case r.Host == "canal.blogspot.com" && r.URL.Path == "/":
		var links strings.Builder
		for i := b.posts - 1; i >= b.posts-3; i-- {
			fmt.Fprintf(&links, `<h3 class="post-title"><a href="%s%s">Lock %d</a></h3>`, blog, b.path(i), i)
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html><html><head><meta name="generator" content="Blogger"><title>Canal</title>
<link rel="alternate" type="application/atom+xml" href="%s/feeds/posts/default"></head><body>%s</body></html>`, blog, links.String())
	case r.Host == "canal.blogspot.com" && r.URL.Path == "/feeds/posts/default" && r.URL.RawQuery == "",
		r.Host == "www.blogger.com" && r.URL.Path == "/feeds/4242/posts/default":
		from, _ := strconv.Atoi(r.URL.Query().Get("start-index"))
		from = max(from, 1)
		w.Header().Set("Content-Type", "application/atom+xml; charset=UTF-8")
		fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom" xmlns:openSearch="http://a9.com/-/spec/opensearchrss/1.0/">
<id>tag:blogger.com,1999:blog-4242</id><title>Canal</title><generator version="7.00" uri="http://www.blogger.com">Blogger</generator>
<link rel="alternate" type="text/html" href="%s/"/><openSearch:totalResults>%d</openSearch:totalResults><openSearch:startIndex>%d</openSearch:startIndex><openSearch:itemsPerPage>5</openSearch:itemsPerPage>`, blog, b.posts, from)
		if from+5 <= b.posts {
			fmt.Fprintf(w, `<link rel="next" type="application/atom+xml" href="http://www.blogger.com/feeds/4242/posts/default?start-index=%d&amp;max-results=5"/>`, from+5)
		}
		for k := from - 1; k < from+4 && k < b.posts; k++ {
			i := b.posts - 1 - k
			d := b.start.AddDate(0, 0, 10*i)
			fmt.Fprintf(w, `<entry><id>tag:blogger.com,1999:blog-4242.post-%d</id><published>%s</published><updated>%s</updated><title type="text">Lock %d</title><content type="html">%s</content><link rel="alternate" type="text/html" href="%s%s" title="Lock %d"/><author><name>Ada</name></author></entry>`,
				1000+i, d.Format(time.RFC3339), d.Format(time.RFC3339), i, strings.ReplaceAll(strings.ReplaceAll(prose(fmt.Sprintf("lock %d", i), 3), "<", "&lt;"), ">", "&gt;"), blog, b.path(i), i)
		}
		fmt.Fprint(w, "</feed>")
	case r.Host == "canal.blogspot.com" && strings.HasSuffix(r.URL.Path, ".html"):
		for i := 0; i < b.posts; i++ {
			if b.path(i) == r.URL.Path {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprintf(w, `<!DOCTYPE html><html><head><meta name="generator" content="Blogger"><title>Canal: Lock %d</title></head><body>
<div class="post hentry"><h3 class="post-title entry-title">Lock %d</h3><div class="post-body entry-content">%s</div></div></body></html>`, i, i, prose(fmt.Sprintf("lock %d", i), 3))
				return
			}
		}
		http.NotFound(w, r)
	default:
		http.NotFound(w, r)
	}
}

// TestNewCrawlFeedPagesOnThePlatformsFeedHost: the pages of a Blogger
// blog's feed beyond the first lie on the platform's feed host, which the
// platform table names for feed pages: they are read, and the posts only
// they name are archived (issue 36, cause 6). The feed host serves no
// page of the blog.
func TestNewCrawlFeedPagesOnThePlatformsFeedHost(t *testing.T) {
	b := bloggerFeedHost{posts: 14, start: time.Date(2015, 1, 5, 12, 0, 0, 0, time.UTC)}
	srv := httptest.NewServer(b)
	defer srv.Close()
	o := options("feedhost", "http://canal.blogspot.com")
	o.Transport = replayTransport{addr: srv.Listener.Addr().String(), next: srv.Client().Transport}
	res, out := crawl(t, o)
	got := out.ByURL(t)
	for i := 0; i < b.posts; i++ {
		u := "http://canal.blogspot.com" + b.path(i)
		if e, ok := got[u]; !ok || e.Kind != blogharvest.KindPost {
			t.Errorf("post %d (%s) not archived as a post; warnings %q", i, u, res.Warnings)
		}
	}
	for u := range got {
		if strings.Contains(u, "www.blogger.com") {
			t.Errorf("the platform's feed host archived as an entry: %s", u)
		}
	}
}
