package capture_test

import (
	"crypto/tls"
	"fmt"
	"mime"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/tlstest"

	"github.com/blogharvest/blogharvest/internal/toolskip"
)

// TestCrawlRenderedStaysInScope runs the real binary, `crawl -url https://…
// -render always`, behind a proxy that alone knows where the blog lives,
// on a blog whose posts embed services on other loopback ports (an iframe,
// a script, a fetch() whose answer the page writes into its article),
// images on a private address, a link-local address and a cloud-metadata
// name. The proxy's own log may show only tunnels to the blog, the
// internal services must get no request, and no file of the archive (MARC,
// rendered DOM, anything) may hold their content.
func TestCrawlRenderedStaysInScope(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process and a browser")
	}
	t.Parallel()
	if _, err := exec.LookPath("chromium"); err != nil {
		toolskip.Missing(t, "chromium", err)
	}
	var hits atomic.Int64
	internal := func(secret string) *httptest.Server {
		s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			hits.Add(1)
			w.Header().Set("Access-Control-Allow-Origin", "*")
			if strings.HasSuffix(r.URL.Path, ".js") {
				fmt.Fprintf(w, `document.addEventListener('DOMContentLoaded',function(){var p=document.createElement('p');p.textContent=%q;document.querySelector('.entry-content').appendChild(p)});`, secret)
				return
			}
			fmt.Fprintf(w, `<html><body><p class="comment">%s</p></body></html>`, secret)
		}))
		t.Cleanup(s.Close)
		return s
	}
	frame, script, fetched := internal("FRAME-SECRET-1170"), internal("SCRIPT-SECRET-2281"), internal("FETCH-SECRET-3392")
	embeds := fmt.Sprintf(`<iframe src="%s/comments/embed"></iframe><img src="http://10.0.0.1/p.png"><img src="http://metadata.google.internal/computeMetadata/v1/"><img src="http://169.254.169.254/latest/meta-data/"><script src="%s/app.js"></script><script>fetch(%q).then(function(r){return r.text()}).then(function(t){var p=document.createElement('p');p.textContent=t;document.querySelector('.entry-content').appendChild(p)}).catch(function(){});</script>`,
		frame.URL, script.URL, fetched.URL+"/secret")
	base, px, env := harbourBlog(t, embeds, nil)
	out := t.TempDir()
	cmd := exec.Command(daemontest.Binary(), "crawl", "-url", base+"/", "-out", out, "-delay", "1ms", "-render", "always")
	cmd.Env = env
	logs, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("crawl: %v\n%s", err, daemontest.LastLines(string(logs), 30))
	}
	for _, a := range px.Asked() {
		if a != "CONNECT "+harbourHost+":443" {
			t.Errorf("proxy was asked %q: only tunnels to the blog may leave", a)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("internal services got %d requests", n)
	}
	rendered := 0
	filepath.WalkDir(out, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		if strings.Contains(path, "rendered") {
			rendered++
		}
		data, _ := os.ReadFile(path)
		for _, s := range []string{"FRAME-SECRET-1170", "SCRIPT-SECRET-2281", "FETCH-SECRET-3392"} {
			if strings.Contains(string(data), s) {
				t.Errorf("%s holds %s", path, s)
			}
		}
		return nil
	})
	if rendered == 0 {
		t.Errorf("nothing rendered\n%s", daemontest.LastLines(string(logs), 20))
	}
	if !strings.Contains(string(logs), "browser request refused") {
		t.Errorf("no refusal logged\n%s", daemontest.LastLines(string(logs), 20))
	}
	daemontest.CheckArchive(t, out)
}

// harbourHost is the name of the blog harbourBlog serves.
const harbourHost = "blog.example.org"

// harbourBlog serves a two-post blog at https://blog.example.org/ over
// TLS, reachable only through the CONNECT proxy it returns, whose posts
// end with embeds (HTML) and which also serves files (path → body, typed
// by extension). It returns the blog's base URL, the proxy and the
// environment a crawl needs to go through the proxy and trust the blog.
func harbourBlog(t *testing.T, embeds string, files map[string]string) (string, *tlstest.ConnectProxy, []string) {
	t.Helper()
	const host = harbourHost
	base := "https://" + host
	body := func(i int) string {
		var s strings.Builder
		for k := range 6 {
			fmt.Fprintf(&s, "<p>Paragraph %d of post %d: the tide came in slowly over the old harbour wall while we counted the boats and mended the nets.</p>", k, i)
		}
		return s.String()
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/feed/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/rss+xml")
		fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>Harbour notes</title><link>%s/</link><description>Notes</description>`, base)
		for i := range 2 {
			fmt.Fprintf(w, `<item><title>Harbour note %d</title><link>%s/notes/%d/</link><guid>%s/notes/%d/</guid><pubDate>%s</pubDate><content:encoded><![CDATA[%s]]></content:encoded></item>`,
				i, base, i, base, i, time.Date(2020, 1, i+1, 9, 0, 0, 0, time.UTC).Format(time.RFC1123Z), body(i))
		}
		fmt.Fprint(w, `</channel></rss>`)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		head := fmt.Sprintf(`<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Harbour notes</title><link rel="alternate" type="application/rss+xml" href="%s/feed/"></head><body>`, base)
		var i int
		if f, ok := files[r.URL.Path]; ok {
			w.Header().Set("Content-Type", mime.TypeByExtension(path.Ext(r.URL.Path)))
			w.Header().Set("Last-Modified", "Mon, 02 Jan 2006 15:04:05 GMT")
			fmt.Fprint(w, f)
			return
		}
		switch _, err := fmt.Sscanf(r.URL.Path, "/notes/%d/", &i); {
		case r.URL.Path == "/":
			fmt.Fprintf(w, `%s<a href="%s/notes/0/">0</a> <a href="%s/notes/1/">1</a></body></html>`, head, base, base)
		case err == nil && i < 2:
			fmt.Fprintf(w, `%s<article><h1>Harbour note %d</h1><div class="entry-content">%s%s</div></article></body></html>`, head, i, body(i), embeds)
		default:
			http.NotFound(w, r)
		}
	})
	ca := tlstest.NewCA(t)
	blog := httptest.NewUnstartedServer(mux)
	blog.TLS = &tls.Config{Certificates: []tls.Certificate{ca.Leaf(t, host)}}
	blog.StartTLS()
	t.Cleanup(blog.Close)
	px := &tlstest.ConnectProxy{Routes: map[string]string{host + ":443": blog.Listener.Addr().String()}}
	proxy := httptest.NewServer(px)
	t.Cleanup(proxy.Close)

	env := append(os.Environ(), "HTTPS_PROXY="+proxy.URL, "HTTP_PROXY="+proxy.URL, "NO_PROXY=", "no_proxy=",
		"SSL_CERT_FILE="+ca.WriteFile(t))
	return base, px, env
}
