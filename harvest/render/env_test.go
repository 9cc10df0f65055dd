package render_test

import (
	"context"
	"crypto/tls"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/render"
	"github.com/blogharvest/blogharvest/internal/tlstest"
)

// TestRenderThroughInstitutionProxy renders an HTTPS page reachable only
// through a CONNECT proxy, whose certificate chains to a CA known only from
// SSL_CERT_FILE: the way institutions crawl. Without the CA the page must
// fail, so the test shows the CA is what makes it work.
func TestRenderThroughInstitutionProxy(t *testing.T) {
	ca := tlstest.NewCA(t)
	site := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<html><body><p id="x"></p><script>document.getElementById("x").textContent="built "+"by script"</script></body></html>`)
	}))
	site.TLS = &tls.Config{Certificates: []tls.Certificate{ca.Leaf(t, "secure.blog.example")}}
	site.StartTLS()
	defer site.Close()
	p := &tlstest.ConnectProxy{Routes: map[string]string{"secure.blog.example:443": site.Listener.Addr().String()}}
	proxy := httptest.NewServer(p)
	defer proxy.Close()

	t.Setenv("HTTPS_PROXY", proxy.URL)
	t.Setenv("NO_PROXY", "")
	t.Setenv("SSL_CERT_FILE", ca.WriteFile(t))
	o := render.FromEnvironment(render.Options{Tabs: 1, MaxClicks: -1, PinHosts: []string{"secure.blog.example"}})
	if o.ProxyServer != proxy.URL || len(o.TrustedCAs) != 1 {
		t.Fatalf("FromEnvironment: proxy %q, CAs %v", o.ProxyServer, o.TrustedCAs)
	}
	b := newBrowser(t, o)
	res, err := b.Render(context.Background(), "https://secure.blog.example/post/")
	if err != nil {
		t.Fatalf("render through proxy: %v (proxy saw %v)", err, p.Asked())
	}
	if !strings.Contains(string(res.HTML), "built by script") {
		t.Errorf("rendered DOM lacks the script's text:\n%s", res.HTML)
	}

	o.TrustedCAs = nil
	b2 := newBrowser(t, o)
	res, err = b2.Render(context.Background(), "https://secure.blog.example/post/")
	if err == nil && strings.Contains(string(res.HTML), "built by script") {
		t.Error("page rendered without trusting the proxy's CA: the test proves nothing")
	}
}
