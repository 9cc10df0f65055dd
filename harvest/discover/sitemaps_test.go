package discover_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/discover"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// robots is a fetch.Client as the stage's discover.Robots for one host.
type robots struct {
	c    *fetch.Client
	home *url.URL
}

func (r robots) Robots(ctx context.Context) *fetch.Robots { return r.c.RobotsFor(ctx, r.home) }

// urls records what the stage hands over and is full after max URLs.
type urls struct {
	got []string
	max int
}

func (u *urls) Queue(sitemap string, su discover.URL, page, post bool) {
	u.got = append(u.got, fmt.Sprintf("%s %v %v", su.Loc, page, post))
}
func (u *urls) Full() bool { return len(u.got) >= u.max }

type warns []string

func (w *warns) Warnf(format string, args ...any) { *w = append(*w, fmt.Sprintf(format, args...)) }

// TestSitemaps: a blog on loopback whose robots.txt names a sitemap index
// of two sitemaps (posts, pages). The stage hands every URL over in order
// with the page/post kind of its sitemap, returns robots.txt and the three
// sitemaps read as the Blog record's files, the index as the sitemap's
// URL; once the crawl is full, the sitemaps named and not read are counted
// as left out and the well-known paths no one named are not; settled,
// it reads robots.txt alone.
func TestSitemaps(t *testing.T) {
	t.Parallel()
	var srv *httptest.Server
	mux := http.NewServeMux()
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "User-agent: *\nAllow: /\nSitemap: %s/index.xml\n", srv.URL)
	})
	mux.HandleFunc("/index.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%[1]s/wp-sitemap-posts-post-1.xml</loc></sitemap><sitemap><loc>%[1]s/wp-sitemap-posts-page-1.xml</loc></sitemap></sitemapindex>`, srv.URL)
	})
	mux.HandleFunc("/wp-sitemap-posts-post-1.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%[1]s/2024/a/</loc></url><url><loc>%[1]s/2024/b/</loc></url></urlset>`, srv.URL)
	})
	mux.HandleFunc("/wp-sitemap-posts-page-1.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s/about/</loc></url></urlset>`, srv.URL)
	})
	srv = httptest.NewServer(mux)
	defer srv.Close()
	home, _ := url.Parse(srv.URL + "/")

	for _, tc := range []struct {
		name      string
		max       int
		got       []string
		files     int
		left      []string
		settled   bool
		sitemapOf string
	}{
		{name: "all", max: 100, files: 4, sitemapOf: "/index.xml",
			got: []string{"/2024/a/ false true", "/2024/b/ false true", "/about/ true false"}},
		{name: "full", max: 2, files: 3, sitemapOf: "/index.xml",
			got:  []string{"/2024/a/ false true", "/2024/b/ false true"},
			left: []string{"/wp-sitemap-posts-page-1.xml 1 sitemap not read max_urls 2 reached"}},
		{name: "none", max: 0, files: 1,
			left: []string{"/index.xml 1 sitemap not read max_urls 0 reached"}},
		{name: "settled", max: 100, files: 1, settled: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cl, err := fetch.New(fetch.Options{UserAgent: "blogharvest-test", AllowHosts: []string{"127.0.0.1"}})
			if err != nil {
				t.Fatal(err)
			}
			defer cl.Close()
			u := &urls{max: tc.max}
			var left discover.LeftOuts
			var w warns
			f := discover.Sitemaps(context.Background(),
				discover.Config{Settled: tc.settled, MaxURLs: tc.max, MaxSitemapBytes: 1 << 20},
				discover.Site{Home: home, Prefix: "/"},
				discover.Deps{Fetch: cl, Robots: robots{cl, home}, URLs: u, Left: &left, Warn: &w, Log: slog.New(slog.DiscardHandler)})
			var want []string
			for _, g := range tc.got {
				want = append(want, srv.URL+g)
			}
			if !slices.Equal(u.got, want) {
				t.Errorf("queued %q, want %q", u.got, want)
			}
			if len(f.Files) != tc.files || f.Files[0].URL != srv.URL+"/robots.txt" {
				t.Errorf("%d files (first %q), want %d, robots.txt first", len(f.Files), f.Files[0].URL, tc.files)
			}
			if wantS := srv.URL + tc.sitemapOf; tc.sitemapOf != "" && f.SitemapURL != wantS || tc.sitemapOf == "" && f.SitemapURL != "" {
				t.Errorf("sitemap URL %q, want %q", f.SitemapURL, tc.sitemapOf)
			}
			var gotLeft []string
			for _, lo := range left.All() {
				gotLeft = append(gotLeft, fmt.Sprintf("%s %d %s %s", lo.Source[len(srv.URL):], lo.N, lo.What, lo.Why))
			}
			if !slices.Equal(gotLeft, tc.left) {
				t.Errorf("left out %q, want %q", gotLeft, tc.left)
			}
			if len(w) != 0 {
				t.Errorf("warnings %q", w)
			}
		})
	}
}
