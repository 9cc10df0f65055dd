package fetch_test

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/internal/tlstest"
)

// TestScopeBehindProxy: behind a CONNECT proxy names are not resolved
// here, so literal non-public addresses, localhost, private-use and
// cloud-metadata names are refused before anything is sent to the proxy;
// pages off the blog's origins (another port of its host included, also
// as a redirect hop) never reach it either. The proxy's own log holds only
// the blog and the one public subresource host.
func TestScopeBehindProxy(t *testing.T) {
	ca := tlstest.NewCA(t)
	blog := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/moved":
			http.Redirect(w, r, "https://blog.example.org:8443/internal", http.StatusFound)
		default:
			io.WriteString(w, "the blog")
		}
	}))
	blog.TLS = &tls.Config{Certificates: []tls.Certificate{ca.Leaf(t, "blog.example.org")}}
	blog.StartTLS()
	defer blog.Close()
	other := httptest.NewServer(http.NotFoundHandler())
	defer other.Close()

	p := &tlstest.ConnectProxy{Routes: map[string]string{"blog.example.org:443": blog.Listener.Addr().String()}}
	proxy := httptest.NewUnstartedServer(p)
	proxy.TLS = &tls.Config{Certificates: []tls.Certificate{ca.Leaf(t, "127.0.0.1")}, NextProtos: []string{"http/1.1"}}
	proxy.StartTLS()
	defer proxy.Close()
	t.Setenv("SSL_CERT_FILE", ca.WriteFile(t))
	t.Setenv("HTTPS_PROXY", proxy.URL)
	t.Setenv("HTTP_PROXY", proxy.URL)
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")

	c, err := fetch.New(fetch.Options{Retries: -1, Origins: []string{"https://blog.example.org/"}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := c.Get(ctx, "https://blog.example.org/post"); err != nil {
		t.Fatalf("blog through proxy: %v (proxy saw %v)", err, p.Asked())
	}
	for _, u := range []string{"https://10.1.2.3/a.png", "http://169.254.169.254/latest/meta-data/", "http://[fd00:ec2::254]/latest/",
		"https://metadata.google.internal/computeMetadata/v1/", "http://metadata/computeMetadata/v1/", "http://metadata.goog/",
		"http://instance-data/latest/", "https://intranet.internal/x.png", "https://app.localhost/x.png", "http://localhost/x.png",
		other.URL + "/x.png", "http://[::1]/x.png", "http://100.100.100.200/latest/", "http://2130706433/", "http://0xa9.254.169.254/"} {
		if _, err := c.Do(ctx, fetch.Request{URL: u, Kind: fetch.Subresource}); !errors.Is(err, fetch.ErrRefused) {
			t.Errorf("subresource %s: %v, want ErrRefused", u, err)
		}
	}
	for _, u := range []string{"https://other.example.net/", "https://blog.example.org:8443/", "http://blog.example.org:8080/"} {
		if _, err := c.Get(ctx, u); !errors.Is(err, fetch.ErrOutOfScope) {
			t.Errorf("page %s: %v, want ErrOutOfScope", u, err)
		}
	}
	if _, err := c.Get(ctx, "https://blog.example.org/moved"); !errors.Is(err, fetch.ErrOutOfScope) {
		t.Errorf("page redirected to another port: %v, want ErrOutOfScope", err)
	}
	// A public name is the proxy's to resolve and judge: it is sent on.
	if _, err := c.Do(ctx, fetch.Request{URL: "https://cdn.example.net/a.png", Kind: fetch.Subresource}); err == nil {
		t.Errorf("unrouted cdn: no error")
	}
	want := []string{"CONNECT blog.example.org:443", "CONNECT cdn.example.net:443"}
	if got := slices.Compact(p.Asked()); !slices.Equal(got, want) {
		t.Errorf("proxy was asked %q, want only %q", got, want)
	}
}

// TestUpstreamProxy checks that the browser is told the proxy the client
// uses, honouring NO_PROXY.
func TestUpstreamProxy(t *testing.T) {
	t.Setenv("HTTPS_PROXY", "http://proxy.example.org:3128")
	t.Setenv("HTTP_PROXY", "")
	t.Setenv("NO_PROXY", "direct.example.org")
	t.Setenv("no_proxy", "direct.example.org")
	c, err := fetch.New(fetch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p := c.UpstreamProxy("https", "blog.example.org:443"); p == nil || p.Host != "proxy.example.org:3128" {
		t.Errorf("https via %v, want proxy.example.org:3128", p)
	}
	if p := c.UpstreamProxy("https", "direct.example.org:443"); p != nil {
		t.Errorf("NO_PROXY host via %v", p)
	}
	if p := c.UpstreamProxy("http", "blog.example.org:80"); p != nil {
		t.Errorf("http without HTTP_PROXY via %v", p)
	}
}
