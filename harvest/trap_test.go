package harvest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
)

// trapBlog is a tiny blog whose one post links to query views of itself
// (?query-0-page=N&query-1-page=M, as WordPress query-loop blocks do),
// each self-multiplying, each with rel=canonical pointing at the post.
func trapBlog(t *testing.T) (*httptest.Server, *requestLog) {
	t.Helper()
	mux := http.NewServeMux()
	var srv *httptest.Server
	page := func(w http.ResponseWriter, canonical, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><title>t</title><link rel="canonical" href="%s"><link rel="alternate" type="application/rss+xml" href="%s/feed/"></head><body>%s</body></html>`, canonical, srv.URL, body)
	}
	post := func(w http.ResponseWriter, r *http.Request) {
		a, _ := strconv.Atoi(r.URL.Query().Get("query-0-page"))
		links := ""
		for i := 1; i <= 4; i++ {
			links += fmt.Sprintf(`<a href="?query-0-page=%d&query-1-page=%d">q</a> `, a+i, a*7+i)
		}
		page(w, srv.URL+"/2023/01/13/post/", `<article class="post hentry"><h1>Post</h1><div class="entry-content"><p>`+strings.Repeat("Words of the post. ", 30)+`</p>`+links+`</div></article>`)
	}
	mux.HandleFunc("/2023/01/13/post/", post)
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		page(w, srv.URL+"/", `<a href="/2023/01/13/post/">Post</a>`)
	})
	mux.HandleFunc("/feed/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/rss+xml")
		fmt.Fprintf(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>%[1]s/</link><item><title>Post</title><link>%[1]s/2023/01/13/post/</link><guid>%[1]s/?p=1</guid><pubDate>Fri, 13 Jan 2023 10:00:00 +0000</pubDate><description>Words</description></item></channel></rss>`, srv.URL)
	})
	log := &requestLog{}
	srv = httptest.NewServer(log.wrap(mux))
	t.Cleanup(srv.Close)
	return srv, log
}

// TestNewCrawlQueryVariantTrap: query views of a post whose canonical is
// the post are duplicates; their links are never followed.
func TestNewCrawlQueryVariantTrap(t *testing.T) {
	srv, log := trapBlog(t)
	o := options("trap", srv.URL)
	o.MaxPages = 500
	_, out := crawl(t, o)
	variants := log.count(func(u string) bool { return strings.Contains(u, "query-0-page") })
	if variants > 10 {
		t.Errorf("%d query variants fetched, want at most the post's own links", variants)
	}
	if n := len(out.byURL(t)); n != 1 {
		t.Errorf("%d entries, want 1 (the post)", n)
	}
}
