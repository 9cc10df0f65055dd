package harvest

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/discover"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// TestSitemapRedirectReadOnce: robots.txt names /wp-sitemap.xml and
// WordPress redirects /sitemap.xml there; the sitemap is read and kept
// once, and its posts are queued.
func TestSitemapRedirectReadOnce(t *testing.T) {
	var srv *httptest.Server
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "User-agent: *\nAllow: /\nSitemap: %s/wp-sitemap.xml\n", srv.URL)
	})
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/wp-sitemap.xml", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/wp-sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s/2024/01/02/a-post/</loc></url></urlset>`, srv.URL)
	})
	srv = httptest.NewServer(mux)
	defer srv.Close()
	c := loopbackCrawl(t, srv.URL)
	c.readSitemaps(context.Background())
	kept := 0
	for _, f := range c.site.blog.Files {
		if f.Role == blogharvest.RoleSitemap {
			kept++
		}
	}
	if kept != 1 || !c.front.has(srv.URL+"/2024/01/02/a-post/") {
		t.Errorf("%d sitemap captures (want 1), post queued: %v", kept, c.front.has(srv.URL+"/2024/01/02/a-post/"))
	}
}

// loopbackCrawl returns the parts of a crawl of the blog at site (an
// httptest server) that the internal tests use: client, home, scope,
// frontier, post pattern, kNN, media cache and a silent logger.
func loopbackCrawl(t *testing.T, site string) *crawl {
	t.Helper()
	cl, err := fetch.New(fetch.Options{UserAgent: "blogharvest-test", AllowHosts: []string{"127.0.0.1"}})
	if err != nil {
		t.Fatal(err)
	}
	home := mustURL(t, site+"/")
	o := Options{Logger: slog.New(slog.DiscardHandler)}
	c := newCrawl(o, newCrawlPolicy(), time.Now(), nil)
	c.client, c.site.home, c.site.scope, c.site.pattern, c.knn = cl, home, newScope(home, nil, nil), discover.LearnPattern(nil), newKNN(3, 16)
	c.w.useClient(cl)
	c.w.begin(*c.site, nil, nil) // the set-up is done: the page worker's copy of the site
	return c
}
