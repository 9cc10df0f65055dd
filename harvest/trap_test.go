package harvest_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
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
	srv = httptest.NewServer(log.Wrap(mux))
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
	variants := log.Count(func(u string) bool { return strings.Contains(u, "query-0-page") })
	if variants > 10 {
		t.Errorf("%d query variants fetched, want at most the post's own links", variants)
	}
	if n := len(out.ByURL(t)); n != 1 {
		t.Errorf("%d entries, want 1 (the post)", n)
	}
}

// TestFeedPostCanonicalWithoutSlash: a static site whose posts live at
// /slug/ but name /slug (no slash) as rel=canonical. The feed's post is
// archived once, as a post, however often it is linked under its own URL.
func TestFeedPostCanonicalWithoutSlash(t *testing.T) {
	mux := http.NewServeMux()
	var srv *httptest.Server
	page := func(w http.ResponseWriter, canonical, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><title>t</title><link rel="canonical" href="%s"><link rel="alternate" type="application/rss+xml" href="/atom.xml"></head><body>%s</body></html>`, canonical, body)
	}
	posts := []string{"first-post", "second-post", "third-post"}
	links := ""
	for i, slug := range posts {
		links += fmt.Sprintf(`<li><a href="/blog/2020/01/0%d/%s/">%s</a></li>`, i+1, slug, slug)
	}
	for i, slug := range posts {
		path := fmt.Sprintf("/blog/2020/01/0%d/%s/", i+1, slug)
		mux.HandleFunc(path, func(w http.ResponseWriter, r *http.Request) {
			page(w, srv.URL+strings.TrimSuffix(path, "/"), `<article><h1>`+slug+`</h1><div class="entry-content"><p>`+
				strings.Repeat("Words of "+slug+". ", 30)+`</p></div></article><ul>`+links+`</ul>`)
		})
	}
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) { page(w, srv.URL+"/", "<ul>"+links+"</ul>") })
	mux.HandleFunc("/atom.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/rss+xml")
		items := ""
		for i, slug := range posts {
			items += fmt.Sprintf(`<item><title>%[2]s</title><link>%[1]s/blog/2020/01/0%[3]d/%[2]s/</link><pubDate>0%[3]d Jan 2020 10:00:00 +0000</pubDate><description>Words of %[2]s.</description></item>`, srv.URL, slug, i+1)
		}
		fmt.Fprintf(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>%s/</link>%s</channel></rss>`, srv.URL, items)
	})
	log := &requestLog{}
	srv = httptest.NewServer(log.Wrap(mux))
	t.Cleanup(srv.Close)
	o := options("slash", srv.URL)
	_, out := crawl(t, o)
	byURL := out.ByURL(t)
	if len(byURL) != len(posts) {
		t.Errorf("%d entries, want %d (one per post): %v", len(byURL), len(posts), keys(byURL))
	}
	for u, e := range byURL {
		if e.Kind != blogharvest.KindPost {
			t.Errorf("%s archived as a %s, want a post", u, e.Kind)
		}
	}
	for _, slug := range posts {
		if n := log.Count(func(u string) bool { return strings.Contains(u, slug) }); n != 1 {
			t.Errorf("%s fetched %d times, want once", slug, n)
		}
	}
}

// TestRedirectSourceIsNoAlias: a link answered by an HTTP redirect to a
// post is not an alias of the post's entry. Whether the crawl meets it
// before or after the post's own URL depends on its workers' timing, and
// an entry must not (the WARC keeps the redirect the capture followed).
func TestRedirectSourceIsNoAlias(t *testing.T) {
	mux := http.NewServeMux()
	var srv *httptest.Server
	post := func(title string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><html><head><title>%[1]s</title></head><body><article><h1>%[1]s</h1><div class="entry-content"><p>%[2]s</p></div></article><a href="/2021/05/04/old-slug/">Older</a></body></html>`, title, strings.Repeat("Words of "+title+". ", 30))
		}
	}
	mux.HandleFunc("/2021/05/04/post/", post("Post"))
	mux.HandleFunc("/2021/06/01/newer/", post("Newer"))
	mux.HandleFunc("/2022/02/11/newest/", post("Newest"))
	mux.HandleFunc("/2021/05/04/old-slug/", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/2021/05/04/post/", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><title>Blog</title><link rel="alternate" type="application/rss+xml" href="/feed/"></head><body><a href="/2021/05/04/old-slug/">Post</a></body></html>`)
	})
	mux.HandleFunc("/feed/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/rss+xml")
		fmt.Fprintf(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>%[1]s/</link><item><title>Newest</title><link>%[1]s/2022/02/11/newest/</link><pubDate>Fri, 11 Feb 2022 10:00:00 +0000</pubDate><description>Words of Newest.</description></item><item><title>Newer</title><link>%[1]s/2021/06/01/newer/</link><pubDate>Tue, 01 Jun 2021 10:00:00 +0000</pubDate><description>Words of Newer.</description></item></channel></rss>`, srv.URL)
	})
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	_, out := crawl(t, options("redirect", srv.URL))
	e := out.ByURL(t)[srv.URL+"/2021/05/04/post/"]
	if e == nil {
		t.Fatalf("the post was not archived: %v", keys(out.ByURL(t)))
	}
	if len(e.Aliases) != 0 {
		t.Errorf("aliases %q, want none", e.Aliases)
	}
}

// TestNewCrawlAsksForTheFeedOnce: the feed that discovery found is read
// from the response discovery received, not asked for a second time.
func TestNewCrawlAsksForTheFeedOnce(t *testing.T) {
	srv, log := trapBlog(t)
	crawl(t, options("feedonce", srv.URL))
	if n := log.Count(func(u string) bool { return strings.HasSuffix(u, "/feed/") }); n != 1 {
		t.Errorf("the posts feed was asked for %d times, want once", n)
	}
}
