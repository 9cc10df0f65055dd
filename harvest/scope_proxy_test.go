package harvest_test

import (
	"crypto/tls"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/internal/tlstest"
)

// TestScopeCrawlBehindProxy crawls a blog reachable only through a
// TLS CONNECT proxy that would also route its other port and the names of
// cloud metadata services. The blog points there from robots.txt, its
// feed's rel=next and wfw:commentRss, a redirecting post and its media:
// the proxy's own log shows only tunnels to the blog itself.
func TestScopeCrawlBehindProxy(t *testing.T) {
	const host = "blog.example.org"
	ca := tlstest.NewCA(t)
	other := newOtherOrigin(t)
	blog := httptest.NewUnstartedServer(proxiedBlog(host))
	blog.TLS = &tls.Config{Certificates: []tls.Certificate{ca.Leaf(t, host)}}
	blog.StartTLS()
	t.Cleanup(blog.Close)
	routes := map[string]string{host + ":443": blog.Listener.Addr().String()}
	for _, hp := range []string{host + ":8443", "metadata.google.internal:443", "metadata.google.internal:80", "metadata:80",
		"instance-data:80", "169.254.169.254:80", "10.1.2.3:443", "intranet.internal:443"} {
		routes[hp] = other.Listener.Addr().String()
	}
	px := &tlstest.ConnectProxy{Routes: routes}
	proxy := httptest.NewUnstartedServer(px)
	proxy.TLS = &tls.Config{Certificates: []tls.Certificate{ca.Leaf(t, "127.0.0.1")}, NextProtos: []string{"http/1.1"}}
	proxy.StartTLS()
	t.Cleanup(proxy.Close)
	t.Setenv("SSL_CERT_FILE", ca.WriteFile(t))
	t.Setenv("HTTPS_PROXY", proxy.URL)
	t.Setenv("HTTP_PROXY", proxy.URL)
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")

	o := options("proxied", "https://"+host)
	o.MaxMediaPerEntry = 0
	o.MediaHosts = harvest.MediaAnyHost
	res, out := crawl(t, o)
	if got := slices.Compact(px.Asked()); !slices.Equal(got, []string{"CONNECT " + host + ":443"}) {
		t.Errorf("proxy was asked %q, want only tunnels to %s:443", got, host)
	}
	if hits := other.requests(); len(hits) != 0 {
		t.Errorf("the internal server was reached: %q", hits)
	}
	entries := out.ByURL(t)
	if len(entries) < 2 {
		t.Errorf("%d entries, want the blog's posts; warnings %q", len(entries), res.Warnings)
	}
	for u, e := range entries {
		if strings.Contains(e.Content, stolen) || strings.Contains(u, ":8443") {
			t.Errorf("entry %s holds the internal server's page", u)
		}
	}
}

// proxiedBlog is a blog at https://host/ pointing at its other port and
// at metadata and private names everywhere a crawler looks.
func proxiedBlog(host string) http.Handler {
	base, other := "https://"+host, "https://"+host+":8443"
	mux := http.NewServeMux()
	page := func(w http.ResponseWriter, title, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><title>%s</title><link rel="alternate" type="application/rss+xml" href="%s/feed/"></head><body>%s</body></html>`, title, base, body)
	}
	posts := []string{"/2024/01/01/first/", "/2024/01/02/second/"}
	mux.HandleFunc("/robots.txt", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "User-agent: *\nAllow: /\nSitemap: %s/sitemap.xml\nSitemap: http://metadata.google.internal/sitemap.xml\nSitemap: http://169.254.169.254/sitemap.xml\n", other)
	})
	mux.HandleFunc("/feed/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/rss+xml")
		var items strings.Builder
		for i, p := range posts {
			fmt.Fprintf(&items, `<item><title>Post %[3]d</title><link>%[1]s%[2]s</link><guid>%[1]s/?p=%[3]d</guid><pubDate>Mon, 0%[3]d Jan 2024 10:00:00 +0000</pubDate><description>Summary</description><wfw:commentRss>https://metadata.google.internal/comments/%[3]d/</wfw:commentRss></item>`, base, p, i+1)
		}
		fmt.Fprintf(w, `<?xml version="1.0"?><rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:wfw="http://wellformedweb.org/CommentAPI/"><channel><title>Proxied</title><link>%s/</link><atom:link rel="next" href="%s/feed/?page=2"/>%s</channel></rss>`, base, other, items.String())
	})
	mux.HandleFunc("/2024/01/03/moved/", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other+"/internal/", http.StatusFound)
	})
	mux.HandleFunc("/2024/01/04/meta/", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "http://metadata/computeMetadata/v1/", http.StatusFound)
	})
	for i, p := range posts {
		mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			media := `<img src="http://10.1.2.3/a.png"><img src="http://metadata/x.png"><img src="http://instance-data/x.png"><img src="https://intranet.internal/x.png"><img src="http://169.254.169.254/x.png">`
			page(w, fmt.Sprintf("Post %d", i+1), fmt.Sprintf(`<article class="post hentry"><h1>Post %d</h1><div class="entry-content"><p>%s</p>%s</div></article>`,
				i+1, strings.Repeat("Words of the post. ", 30), media))
		})
	}
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		var links strings.Builder
		for _, p := range append(posts, "/2024/01/03/moved/", "/2024/01/04/meta/", other+"/linked/") {
			fmt.Fprintf(&links, `<li><a href="%s">%s</a></li>`, p, p)
		}
		page(w, "Proxied", "<ul>"+links.String()+"</ul>")
	})
	return mux
}
