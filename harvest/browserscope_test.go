package harvest_test

import (
	"crypto/tls"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/internal/tlstest"

	"github.com/blogharvest/blogharvest/internal/toolskip"
)

// internalService is a loopback server standing for an internal service
// (an admin page, a metadata endpoint): it counts its requests and answers
// with a secret marker, readable cross-origin.
type internalService struct {
	srv    *httptest.Server
	hits   atomic.Int64
	secret string
}

func newInternalService(t *testing.T, secret string) *internalService {
	s := &internalService{secret: secret}
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.hits.Add(1)
		w.Header().Set("Access-Control-Allow-Origin", "*")
		w.Header().Set("Access-Control-Allow-Private-Network", "true")
		switch {
		case strings.HasSuffix(r.URL.Path, ".js"):
			w.Header().Set("Content-Type", "text/javascript")
			fmt.Fprintf(w, `document.addEventListener('DOMContentLoaded', function(){var p=document.createElement('p');`+
				`p.textContent=%q;document.querySelector('.entry-content').appendChild(p)});`, secret+" from a script")
		case strings.Contains(r.URL.Path, "comments"):
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<!DOCTYPE html><html><body><ol class="comment-list"><li class="comment"><p>%s in a frame</p></li></ol></body></html>`, secret)
		default:
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, secret)
		}
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// renderHostileBlog is a small https blog whose posts embed internal services:
// an iframe, a script and a fetch() to other loopback ports, images on a
// private address, a link-local address and a cloud-metadata name.
type renderHostileBlog struct {
	base                   string // https://blog.example.org
	frame, script, fetched *internalService
}

const hostileParagraph = "<p>Paragraph %d of post %d: the tide came in slowly over the old harbour wall while we counted the boats, " +
	"mended the nets and talked about rivers, bridges and the long walk home along the canal.</p>\n"

func (b *renderHostileBlog) body(i int) string {
	var s strings.Builder
	for k := range 6 {
		fmt.Fprintf(&s, hostileParagraph, k, i)
	}
	return s.String()
}

func (b *renderHostileBlog) embeds() string {
	return fmt.Sprintf(`<iframe src="%s/comments/embed" width="400" height="200"></iframe>
<img src="http://10.0.0.1/pixel.png" alt=""><img src="http://metadata.google.internal/computeMetadata/v1/" alt="">
<img src="http://169.254.169.254/latest/meta-data/" alt="">
<script src="%s/app.js"></script>
<script>fetch(%q).then(function(r){return r.text()}).then(function(t){var p=document.createElement('p');p.textContent=t;document.querySelector('.entry-content').appendChild(p)}).catch(function(){});</script>`,
		b.frame.srv.URL, b.script.srv.URL, b.fetched.srv.URL+"/secret")
}

func (b *renderHostileBlog) path(i int) string { return fmt.Sprintf("/2020/01/0%d/post-%d/", i+1, i) }

func (b *renderHostileBlog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch p := r.URL.Path; {
	case p == "/feed/":
		w.Header().Set("Content-Type", "application/rss+xml")
		fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>Harbour notes</title><link>%s/</link><description>Notes</description>`, b.base)
		for i := 2; i >= 0; i-- {
			fmt.Fprintf(w, `<item><title>Harbour note %d</title><link>%s%s</link><guid>%s%s</guid><pubDate>%s</pubDate><content:encoded><![CDATA[%s]]></content:encoded></item>`,
				i, b.base, b.path(i), b.base, b.path(i), time.Date(2020, 1, i+1, 9, 0, 0, 0, time.UTC).Format(time.RFC1123Z), b.body(i))
		}
		fmt.Fprint(w, `</channel></rss>`)
	case p == "/":
		var s strings.Builder
		for i := range 3 {
			fmt.Fprintf(&s, `<article><h2><a href="%s%s">Harbour note %d</a></h2></article>`, b.base, b.path(i), i)
		}
		b.page(w, "Harbour notes", s.String())
	case p == b.path(0) || p == b.path(1) || p == b.path(2):
		i := int(p[len(p)-2] - '0')
		b.page(w, fmt.Sprintf("Harbour note %d", i), fmt.Sprintf(`<article class="post"><h1 class="entry-title">Harbour note %d</h1>
<div class="entry-content">%s%s</div></article>`, i, b.body(i), b.embeds()))
	default:
		http.NotFound(w, r)
	}
}

func (b *renderHostileBlog) page(w http.ResponseWriter, title, main string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%s</title>
<link rel="alternate" type="application/rss+xml" href="%s/feed/"></head><body><main>%s</main></body></html>`, title, b.base, main)
}

// TestBrowserStaysInScopeBehindProxy crawls an https blog behind a proxy
// (which alone knows where the blog lives, with certificates of its own
// CA) whose posts embed internal services on other loopback ports, a
// private address, a link-local address and a cloud-metadata name, with
// rendering always and auto. The proxy's own log must show only tunnels
// to the blog, the internal services must get no request at all, and no
// archived text or rendered file may hold their content.
func TestBrowserStaysInScopeBehindProxy(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		toolskip.Missing(t, "chromium", err)
	}
	if testing.Short() {
		t.Skip("starts a browser")
	}
	for _, c := range []struct {
		mode     string
		tlsProxy bool
	}{{harvest.RenderAlways, false}, {harvest.RenderAuto, false}, {harvest.RenderAlways, true}} {
		name := c.mode + "/http-proxy"
		if c.tlsProxy {
			name = c.mode + "/https-proxy"
		}
		t.Run(name, func(t *testing.T) { crawlHostileBlog(t, c.mode, c.tlsProxy) })
	}
}

// crawlHostileBlog crawls a renderHostileBlog with render mode mode behind a
// proxy spoken to over TLS when tlsProxy is set.
func crawlHostileBlog(t *testing.T, mode string, tlsProxy bool) {
	const host = "blog.example.org"
	ca := tlstest.NewCA(t)
	b := &renderHostileBlog{base: "https://" + host, frame: newInternalService(t, "FRAME-SECRET-7391"),
		script: newInternalService(t, "SCRIPT-SECRET-5521"), fetched: newInternalService(t, "FETCH-SECRET-8832")}
	blog := httptest.NewUnstartedServer(b)
	blog.TLS = &tls.Config{Certificates: []tls.Certificate{ca.Leaf(t, host)}}
	blog.StartTLS()
	defer blog.Close()
	px := &tlstest.ConnectProxy{Routes: map[string]string{host + ":443": blog.Listener.Addr().String()}}
	proxy := httptest.NewUnstartedServer(px)
	if tlsProxy {
		proxy.TLS = &tls.Config{Certificates: []tls.Certificate{ca.Leaf(t, "127.0.0.1")}, NextProtos: []string{"http/1.1"}}
		proxy.StartTLS()
	} else {
		proxy.Start()
	}
	defer proxy.Close()
	for _, k := range []string{"HTTPS_PROXY", "HTTP_PROXY", "https_proxy", "http_proxy"} {
		t.Setenv(k, proxy.URL)
	}
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")
	t.Setenv("SSL_CERT_FILE", ca.WriteFile(t))

	o := options("hostile", b.base)
	o.Render = mode
	res, out := crawl(t, o)
	if len(out.Entries) != 3 {
		t.Errorf("%d entries, want 3 (warnings %q)", len(out.Entries), res.Warnings)
	}
	for _, a := range px.Asked() {
		if a != "CONNECT "+host+":443" {
			t.Errorf("proxy was asked %q: only tunnels to the blog may leave", a)
		}
	}
	for _, s := range []*internalService{b.frame, b.script, b.fetched} {
		if n := s.hits.Load(); n != 0 {
			t.Errorf("internal service %s got %d requests", s.srv.URL, n)
		}
	}
	rendered := 0
	for _, e := range out.Entries {
		texts := []string{e.Content}
		for _, c := range e.Comments {
			texts = append(texts, c.Content)
		}
		for _, f := range e.Files {
			texts = append(texts, f.URL, string(f.Body))
			if f.Role == "rendered" {
				rendered++
				if !strings.HasPrefix(f.URL, b.base+"/") {
					t.Errorf("entry %s keeps a rendered frame of %s: refused frames are not archived", e.URL, f.URL)
				}
			}
		}
		for _, s := range []*internalService{b.frame, b.script, b.fetched} {
			for _, txt := range texts {
				if strings.Contains(txt, s.secret) {
					t.Errorf("entry %s holds the content of internal service %s", e.URL, s.srv.URL)
				}
			}
		}
	}
	if mode == harvest.RenderAlways && rendered == 0 {
		t.Errorf("no page rendered with render: always (warnings %q)", res.Warnings)
	}
	if mode == harvest.RenderAuto && rendered != 0 {
		t.Errorf("%d pages rendered with render: auto: an out-of-scope iframe must not trigger rendering", rendered)
	}
	t.Logf("warnings %q; proxy asked %d times", res.Warnings, len(px.Asked()))
}

// TestRenderHostRulesThroughFilter crawls a blog named blog.test served
// over Options.Transport (as replays and the eval module do) with
// RenderHostRules mapping its name to the loopback server: the browser,
// behind the crawl's filtering proxy, reaches it by the proxy's dial.
func TestRenderHostRulesThroughFilter(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		toolskip.Missing(t, "chromium", err)
	}
	if testing.Short() {
		t.Skip("starts a browser")
	}
	t.Parallel()
	b := newTinyBlog(12)
	b.scripted = 2
	srv := httptest.NewServer(b)
	defer srv.Close()
	o := options("mapped", "http://blog.test")
	o.Transport = replayTransport{addr: srv.Listener.Addr().String(), next: srv.Client().Transport}
	o.RenderHostRules = "MAP blog.test " + srv.Listener.Addr().String()
	o.Render = harvest.RenderAuto
	res, out := crawl(t, o)
	e := out.ByURL(t)["http://blog.test"+b.path(b.scripted)]
	if e == nil {
		t.Fatalf("scripted post not archived (warnings %q)", res.Warnings)
	}
	if !strings.Contains(e.Content, "Paragraph 5 of post 2") {
		t.Errorf("scripted post content %q: want the article JavaScript wrote (problems %q, warnings %q)", e.Content, e.Problems, res.Warnings)
	}
}
