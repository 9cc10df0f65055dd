package fetch_test

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/internal/tlstest"
)

// gateLog is a BrowserGate for tests: it allows the targets of routes and
// dials the addresses they map to, and records what it was asked.
type gateLog struct {
	mu      sync.Mutex
	checked []string
	dialled []string
	routes  map[string]string // scheme://host:port allowed → address dialled
	refuse  map[string]bool   // host:port whose dial is refused (after DNS)
}

func (g *gateLog) gate() fetch.BrowserGate {
	return fetch.BrowserGate{
		Check: func(_ context.Context, scheme, hostport string) error {
			g.mu.Lock()
			defer g.mu.Unlock()
			g.checked = append(g.checked, scheme+"://"+hostport)
			if _, ok := g.routes[scheme+"://"+hostport]; !ok {
				return fmt.Errorf("%s: %w", hostport, fetch.ErrRefused)
			}
			return nil
		},
		Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			g.mu.Lock()
			g.dialled = append(g.dialled, addr)
			refuse := g.refuse[addr]
			to := ""
			for k, v := range g.routes {
				if strings.HasSuffix(k, "://"+addr) {
					to = v
				}
			}
			g.mu.Unlock()
			if refuse || to == "" {
				return nil, fmt.Errorf("dial %s: %w", addr, fetch.ErrRefused)
			}
			var d net.Dialer
			return d.DialContext(ctx, network, to)
		},
	}
}

// browserClient is an HTTP client that goes through the proxy p and
// trusts ca, as Chromium does.
func browserClient(p *fetch.BrowserProxy, ca *tlstest.CA) *http.Client {
	pool := x509.NewCertPool()
	pool.AddCert(ca.Cert)
	tr := &http.Transport{Proxy: func(*http.Request) (*url.URL, error) { return url.Parse(p.URL()) },
		TLSClientConfig: &tls.Config{RootCAs: pool}, DisableKeepAlives: true}
	return &http.Client{Transport: tr, Timeout: 10 * time.Second}
}

func TestBrowserProxyDecidesEveryRequest(t *testing.T) {
	ca := tlstest.NewCA(t)
	blog := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "blog "+r.URL.Path)
	}))
	blog.TLS = &tls.Config{Certificates: []tls.Certificate{ca.Leaf(t, "blog.test")}}
	blog.StartTLS()
	defer blog.Close()
	plain := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "plain "+r.URL.Path)
	}))
	defer plain.Close()
	g := &gateLog{routes: map[string]string{
		"https://blog.test:443":   blog.Listener.Addr().String(),
		"http://blog.test:80":     plain.Listener.Addr().String(),
		"https://rebind.test:443": blog.Listener.Addr().String(),
	}, refuse: map[string]bool{"rebind.test:443": true}}
	var mu sync.Mutex
	reported := map[string]int{}
	p, err := fetch.NewBrowserProxy(g.gate(), fetch.BrowserProxyOptions{Refused: func(hp string, _ error) {
		mu.Lock()
		reported[hp]++
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c := browserClient(p, ca)
	for _, u := range []string{"https://blog.test/a", "http://blog.test/b"} {
		resp, err := c.Get(u)
		if err != nil {
			t.Fatalf("GET %s through the proxy: %v", u, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 || !strings.HasSuffix(string(body), u[len(u)-2:]) {
			t.Errorf("GET %s: %d %q", u, resp.StatusCode, body)
		}
	}
	for _, u := range []string{"https://127.0.0.1:9/", "http://10.0.0.1/x", "http://10.0.0.1/y", "https://rebind.test/",
		"http://gaia.invalid/ListAccounts", "https://blog.test:8443/"} {
		resp, err := c.Get(u)
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusForbidden || len(body) != 0 {
				t.Errorf("GET %s: %d %q, want an empty 403", u, resp.StatusCode, body)
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	want := map[string]int{"127.0.0.1:9": 1, "10.0.0.1:80": 1, "rebind.test:443": 1, "blog.test:8443": 1}
	if fmt.Sprint(reported) != fmt.Sprint(want) {
		t.Errorf("refusals reported %v, want %v (once per host, none for .invalid)", reported, want)
	}
	for _, a := range g.dialled {
		if a != "blog.test:443" && a != "blog.test:80" && a != "rebind.test:443" {
			t.Errorf("dialled %s: only allowed targets may be dialled", a)
		}
	}
}

// TestBrowserProxyForwardsToUpstream: with an upstream proxy, allowed
// tunnels are asked of it (the gate's Dial is not used) and refused
// targets never reach it.
func TestBrowserProxyForwardsToUpstream(t *testing.T) {
	ca := tlstest.NewCA(t)
	blog := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "blog behind the proxy")
	}))
	blog.TLS = &tls.Config{Certificates: []tls.Certificate{ca.Leaf(t, "blog.example.org")}}
	blog.StartTLS()
	defer blog.Close()
	up := &tlstest.ConnectProxy{Routes: map[string]string{"blog.example.org:443": blog.Listener.Addr().String()}}
	upstream := httptest.NewUnstartedServer(up)
	upstream.TLS = &tls.Config{Certificates: []tls.Certificate{ca.Leaf(t, "127.0.0.1")}, NextProtos: []string{"http/1.1"}}
	upstream.StartTLS()
	defer upstream.Close()
	t.Setenv("HTTPS_PROXY", upstream.URL)
	t.Setenv("HTTP_PROXY", upstream.URL)
	t.Setenv("NO_PROXY", "")
	t.Setenv("SSL_CERT_FILE", ca.WriteFile(t))

	g := &gateLog{routes: map[string]string{"https://blog.example.org:443": "192.0.2.1:1"}}
	var o fetch.BrowserProxyOptions
	if err := o.FromEnvironment(""); err != nil {
		t.Fatal(err)
	}
	p, err := fetch.NewBrowserProxy(g.gate(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	c := browserClient(p, ca)
	resp, err := c.Get("https://blog.example.org/")
	if err != nil {
		t.Fatalf("GET through both proxies: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(body) != "blog behind the proxy" {
		t.Errorf("body %q", body)
	}
	for _, u := range []string{"https://metadata.google.internal/", "http://169.254.169.254/latest/", "https://10.1.2.3/"} {
		if resp, err := c.Get(u); err == nil {
			resp.Body.Close()
		}
	}
	if asked := up.Asked(); len(asked) != 1 || asked[0] != "CONNECT blog.example.org:443" {
		t.Errorf("upstream proxy asked %q, want only the blog's tunnel", asked)
	}
	if len(g.dialled) != 0 {
		t.Errorf("gate dialled %q: behind a proxy the proxy carries", g.dialled)
	}
}

// TestBrowserProxyCloseCutsTunnels: Close ends open tunnels, so that a
// crawl's end leaves no connection of its browser behind.
func TestBrowserProxyCloseCutsTunnels(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go io.Copy(c, c) // echo, never closes on its own
		}
	}()
	g := &gateLog{routes: map[string]string{"https://echo.test:443": ln.Addr().String()}}
	p, err := fetch.NewBrowserProxy(g.gate(), fetch.BrowserProxyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.Dial("tcp", p.Host())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprint(conn, "CONNECT echo.test:443 HTTP/1.1\r\nHost: echo.test:443\r\n\r\n")
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, &http.Request{Method: http.MethodConnect})
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("CONNECT: %v %v", resp, err)
	}
	fmt.Fprint(conn, "ping\n")
	if line, err := br.ReadString('\n'); err != nil || line != "ping\n" {
		t.Fatalf("echo through tunnel: %q %v", line, err)
	}
	p.Close()
	conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	_, err = br.ReadString('\n')
	var ne net.Error
	if err == nil || (errors.As(err, &ne) && ne.Timeout()) {
		t.Errorf("tunnel still open after Close: %v", err)
	}
}

// TestClientBrowserGate: through the client's CheckBrowserTarget and
// DialBrowser, the blog's own origins may be reached on loopback;
// another port of the same host, localhost, metadata names and literal
// private addresses may not, and a name resolving to loopback is refused
// when dialled.
func TestClientBrowserGate(t *testing.T) {
	own := httptest.NewServer(http.NotFoundHandler())
	defer own.Close()
	other := httptest.NewServer(http.NotFoundHandler())
	defer other.Close()
	c, err := fetch.New(fetch.Options{Origins: []string{own.URL + "/blog/"}})
	if err != nil {
		t.Fatal(err)
	}
	g := fetch.BrowserGate{Check: c.CheckBrowserTarget, Dial: c.DialBrowser}
	ownHP, otherHP := own.Listener.Addr().String(), other.Listener.Addr().String()
	ctx := context.Background()
	for _, tc := range []struct {
		scheme, hostport string
		ok               bool
	}{
		{"http", ownHP, true}, {"https", ownHP, true}, {"http", otherHP, false},
		{"http", "localhost:80", false}, {"https", "metadata.google.internal:443", false},
		{"http", "169.254.169.254:80", false}, {"https", "[::1]:443", false}, {"http", "10.0.0.1:80", false},
		{"https", "example.org:443", true},
	} {
		if err := g.Check(ctx, tc.scheme, tc.hostport); (err == nil) != tc.ok {
			t.Errorf("Check(%s, %s) = %v, want allowed %v", tc.scheme, tc.hostport, err, tc.ok)
		}
	}
	if conn, err := g.Dial(ctx, "tcp", ownHP); err != nil {
		t.Errorf("dial the blog's own origin: %v", err)
	} else {
		conn.Close()
	}
	if conn, err := g.Dial(ctx, "tcp", otherHP); err == nil || !errors.Is(err, fetch.ErrRefused) {
		t.Errorf("dial another loopback port: %v, want refused", err)
		if conn != nil {
			conn.Close()
		}
	}
}
