package harvest_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// stolen is the text every page of the other origin serves: it must never
// reach an entry unless that origin is allowed.
const stolen = "INTERNAL-SERVICE-SECRET"

// otherOrigin is a second server on another port of 127.0.0.1 that counts
// what it is asked for and answers like a blog would: a page, sitemaps, a
// feed page, a comment feed, an image.
type otherOrigin struct {
	*httptest.Server
	mu   sync.Mutex
	hits []string
}

func newOtherOrigin(t *testing.T) *otherOrigin {
	t.Helper()
	o := &otherOrigin{}
	o.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		o.mu.Lock()
		o.hits = append(o.hits, r.URL.RequestURI())
		o.mu.Unlock()
		switch {
		case r.URL.Path == "/robots.txt":
			http.NotFound(w, r)
		case strings.HasSuffix(r.URL.Path, ".xml"):
			w.Header().Set("Content-Type", "application/xml")
			fmt.Fprintf(w, `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>%s/2024/02/01/from-sitemap/</loc></url></urlset>`, o.URL)
		case strings.HasPrefix(r.URL.Path, "/feed") || strings.HasPrefix(r.URL.Path, "/comments"):
			w.Header().Set("Content-Type", "application/rss+xml")
			fmt.Fprintf(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>%[2]s</title><link>%[1]s/</link><item><title>%[2]s</title><link>%[1]s/2024/02/02/stolen/</link><description>%[2]s</description></item></channel></rss>`, o.URL, stolen)
		case strings.HasSuffix(r.URL.Path, ".png"):
			w.Header().Set("Content-Type", "image/png")
			w.Write(pngBytes)
		default:
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprintf(w, `<!doctype html><html><head><title>%[1]s</title></head><body><article class="post hentry"><h1>%[1]s</h1><div class="entry-content"><p>%[2]s</p></div></article></body></html>`, stolen, strings.Repeat(stolen+" words of the internal page. ", 20))
		}
	}))
	t.Cleanup(o.Close)
	return o
}

func (o *otherOrigin) requests() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.hits...)
}

// pngBytes is a 1x1 PNG.
var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")

// hostileBlog is a blog on 127.0.0.1 that points at other everywhere a
// crawler looks: robots.txt Sitemap:, a sitemap-index child, the feed's
// rel=next, wfw:commentRss, a post that 302s there, and media on it, on
// private and link-local literals and on a metadata name.
func hostileBlog(t *testing.T, other string) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	var srv *httptest.Server
	page := func(w http.ResponseWriter, title, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><title>%s</title><link rel="alternate" type="application/rss+xml" href="%s/feed/"></head><body>%s</body></html>`, title, srv.URL, body)
	}
	posts := []string{"/2024/01/01/first/", "/2024/01/02/second/", "/2024/01/03/third/"}
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "User-agent: *\nAllow: /\nSitemap: %s/robots-sitemap.xml\n", other)
	})
	mux.HandleFunc("/sitemap.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/xml")
		fmt.Fprintf(w, `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>%s/child.xml</loc></sitemap></sitemapindex>`, other)
	})
	mux.HandleFunc("/feed/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/rss+xml")
		var items strings.Builder
		for i, p := range posts {
			fmt.Fprintf(&items, `<item><title>Post %[3]d</title><link>%[1]s%[2]s</link><guid>%[1]s/?p=%[3]d</guid><pubDate>Mon, 0%[3]d Jan 2024 10:00:00 +0000</pubDate><description>Summary %[3]d</description><wfw:commentRss>%[4]s/comments/%[3]d/</wfw:commentRss></item>`, srv.URL, p, i+1, other)
		}
		fmt.Fprintf(w, `<?xml version="1.0"?><rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:wfw="http://wellformedweb.org/CommentAPI/"><channel><title>Hostile</title><link>%s/</link><atom:link rel="next" href="%s/feed/?page=2"/>%s</channel></rss>`, srv.URL, other, items.String())
	})
	mux.HandleFunc("/2024/01/04/moved/", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other+"/internal/admin/", http.StatusFound)
	})
	mux.HandleFunc("/img/own.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write(pngBytes)
	})
	for i, p := range posts {
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			media := `<img src="/img/own.png">`
			if i == 0 {
				media += fmt.Sprintf(`<img src="%s/img/other.png"><img src="http://10.1.2.3/a.png"><img src="http://169.254.169.254/latest/meta-data/x.png"><img src="http://metadata.google.internal/computeMetadata/v1/x.png">`, other)
			}
			page(w, fmt.Sprintf("Post %d", i+1), fmt.Sprintf(`<article class="post hentry"><h1>Post %d</h1><div class="entry-content"><p>%s</p>%s</div></article>`,
				i+1, strings.Repeat(fmt.Sprintf("Words of post %d. ", i+1), 30), media))
		})
	}
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		var links strings.Builder
		for _, p := range append(posts, "/2024/01/04/moved/") {
			fmt.Fprintf(&links, `<li><a href="%s">%s</a></li>`, p, p)
		}
		page(w, "Hostile", "<ul>"+links.String()+"</ul>")
	})
	srv = httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// TestScopeHostileBlog: a blog on 127.0.0.1 pointing at another port of
// the same host through robots.txt, a sitemap index, feed paging, comment
// feeds, a redirecting post and media: the other port receives nothing,
// the redirected post is skipped, not archived, and only the blog's own
// media are captured; the refused media are named in the entry.
func TestScopeHostileBlog(t *testing.T) {
	other := newOtherOrigin(t)
	srv := hostileBlog(t, other.URL)
	o := options("hostile", srv.URL)
	o.MaxMediaPerEntry = 0 // default: media captured
	o.MediaHosts = harvest.MediaAnyHost
	res, out := crawl(t, o)
	if hits := other.requests(); len(hits) != 0 {
		t.Errorf("the other port was asked for %q", hits)
	}
	entries := out.ByURL(t)
	for u, e := range entries {
		if strings.Contains(u, "/moved/") || strings.Contains(u, "/internal/") || strings.Contains(e.Title, stolen) ||
			strings.Contains(e.Content, stolen) {
			t.Errorf("entry %s holds the other origin's page", u)
		}
	}
	if res.Skipped == 0 || !hasWarning(res.Warnings, "outside the blog's origins, or redirected out of them, were skipped") {
		t.Errorf("skipped %d, warnings %q: want the redirected post skipped as out of scope", res.Skipped, res.Warnings)
	}
	for _, what := range []string{other.URL + "/feed/?page=2", "sitemap " + other.URL + "/robots-sitemap.xml", "sitemap " + other.URL + "/child.xml"} {
		if !hasProblem(res.Warnings, what, "outside the blog's origins") {
			t.Errorf("no warning names %s as out of scope: %q", what, res.Warnings)
		}
	}
	first := entries[srv.URL+"/2024/01/01/first/"]
	if first == nil {
		t.Fatalf("first post not archived; entries %v", keys(entries))
	}
	own := 0
	for _, f := range first.Files {
		if strings.HasSuffix(f.URL, "/img/own.png") {
			own++
		}
		if strings.Contains(f.URL, other.URL) || strings.Contains(f.URL, "10.1.2.3") || strings.Contains(f.URL, "169.254") || strings.Contains(f.URL, "metadata") {
			t.Errorf("captured %s", f.URL)
		}
	}
	if own != 1 {
		t.Errorf("the blog's own image captured %d times, want once; files %v", own, first.Files)
	}
	if !hasProblem(first.Problems, "comment feed", other.URL+"/comments/1/", "outside the blog's origins") {
		t.Errorf("no problem says the comment feed is out of scope: %q", first.Problems)
	}
	for _, want := range []string{other.URL + "/img/other.png", "10.1.2.3", "169.254.169.254", "metadata.google.internal"} {
		if !hasProblem(first.Problems, want, "refused") {
			t.Errorf("no problem says %s was refused: %q", want, first.Problems)
		}
	}
}

// TestScopeAllowReachesOrigin: listing the other port in Allow makes it
// one of the blog's origins: its sitemaps, feed pages, comment feeds and
// the redirected post are fetched.
func TestScopeAllowReachesOrigin(t *testing.T) {
	other := newOtherOrigin(t)
	srv := hostileBlog(t, other.URL)
	o := options("hostile", srv.URL)
	o.Allow = []string{other.URL}
	_, out := crawl(t, o)
	hits := strings.Join(other.requests(), " ")
	for _, want := range []string{"/robots-sitemap.xml", "/child.xml", "/feed/?page=2", "/comments/1/", "/internal/admin/", "/2024/02/01/from-sitemap/"} {
		if !strings.Contains(hits, want) {
			t.Errorf("allowed origin not asked for %s (asked %s)", want, hits)
		}
	}
	if _, ok := out.ByURL(t)[other.URL+"/internal/admin/"]; !ok {
		t.Errorf("the post redirected to an allowed origin was not archived")
	}
}

func hasWarning(ws []string, sub string) bool {
	for _, w := range ws {
		if strings.Contains(w, sub) {
			return true
		}
	}
	return false
}

func hasProblem(ps []string, subs ...string) bool {
	for _, p := range ps {
		all := true
		for _, s := range subs {
			all = all && strings.Contains(p, s)
		}
		if all {
			return true
		}
	}
	return false
}

func keys[V any](m map[string]V) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// TestScopeHomeRedirectedAway: a home page redirected to another origin
// fails the crawl with an error that says so and names allow, and the
// other origin is not asked; with allow it is the blog.
func TestScopeHomeRedirectedAway(t *testing.T) {
	other := newOtherOrigin(t)
	srv := httptest.NewServer(http.RedirectHandler(other.URL+"/", http.StatusMovedPermanently))
	t.Cleanup(srv.Close)
	_, err := harvest.NewCrawl(context.Background(), options("away", srv.URL), (&output{}).Emit)
	if !errors.Is(err, fetch.ErrOutOfScope) || !strings.Contains(err.Error(), "allow") {
		t.Errorf("err = %v, want ErrOutOfScope naming allow", err)
	}
	if hits := other.requests(); len(hits) != 0 {
		t.Errorf("the other origin was asked for %q", hits)
	}
	o := options("away", srv.URL)
	o.Allow = []string{other.URL}
	harvest.NewCrawl(context.Background(), o, (&output{}).Emit)
	if len(other.requests()) == 0 {
		t.Errorf("allowed origin not asked")
	}
}
