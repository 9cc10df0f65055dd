package fetch_test

import (
	"context"
	"crypto/tls"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/internal/tlstest"
)

func TestHTTPSProxy(t *testing.T) {
	ca := tlstest.NewCA(t)
	blog := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, "secret blog "+r.Host)
	}))
	blog.TLS = &tls.Config{Certificates: []tls.Certificate{ca.Leaf(t, "blog.example.org")}}
	blog.StartTLS()
	defer blog.Close()

	p := &tlstest.ConnectProxy{Routes: map[string]string{"blog.example.org:443": blog.Listener.Addr().String()}}
	proxy := httptest.NewUnstartedServer(p)
	proxy.TLS = &tls.Config{Certificates: []tls.Certificate{ca.Leaf(t, "127.0.0.1")}, NextProtos: []string{"http/1.1"}}
	proxy.StartTLS()
	defer proxy.Close()

	caFile := ca.WriteFile(t)
	t.Setenv("SSL_CERT_FILE", caFile)
	t.Setenv("HTTPS_PROXY", proxy.URL) // https://127.0.0.1:port
	t.Setenv("HTTP_PROXY", "")
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")

	c, err := fetch.New(fetch.Options{Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.Get(context.Background(), "https://blog.example.org/2024/01/post/")
	if err != nil {
		t.Fatalf("through proxy: %v (proxy saw %v)", err, p.Asked())
	}
	if string(resp.Body) != "secret blog blog.example.org" || resp.RemoteIP != "" {
		t.Errorf("body %q, remote IP %q", resp.Body, resp.RemoteIP)
	}
	if len(p.Asked()) == 0 || p.Asked()[0] != "CONNECT blog.example.org:443" {
		t.Errorf("proxy saw %v", p.Asked())
	}
	if _, err := c.Get(context.Background(), "https://10.1.2.3/"); !errors.Is(err, fetch.ErrRefused) {
		t.Errorf("private literal through proxy: %v", err)
	}
}

func TestCAFileMissing(t *testing.T) {
	if _, err := fetch.New(fetch.Options{CAFile: filepath.Join(t.TempDir(), "none.pem")}); err == nil {
		t.Error("missing CA file accepted")
	}
}
