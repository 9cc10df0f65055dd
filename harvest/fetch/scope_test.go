package fetch_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// loopbackPair starts two servers on 127.0.0.1: the blog and another port.
func loopbackPair(t *testing.T) (blog, other *httptest.Server) {
	t.Helper()
	blog = httptest.NewServer(http.NotFoundHandler())
	other = httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(blog.Close)
	t.Cleanup(other.Close)
	return blog, other
}

// TestCheckBrowserTarget checks the browser's subresource decision: the
// blog's exact origin and allowed origins may be private; other ports,
// literal private addresses, localhost and metadata names may not; other
// names are left to the dial-time check.
func TestCheckBrowserTarget(t *testing.T) {
	blog, other := loopbackPair(t)
	c, err := fetch.New(fetch.Options{Origins: []string{blog.URL + "/blog/", "http://blog.internal:8080"}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		scheme, hostport string
		ok               bool
	}{
		{"http", hostOf(blog.URL), true},
		{"http", hostOf(other.URL), false},
		{"http", "blog.internal:8080", true},
		{"http", "BLOG.internal.:8080", true},
		{"http", "blog.internal:8081", false},
		{"https", "blog.internal", false},
		{"https", "10.1.2.3", false},
		{"http", "169.254.169.254:80", false},
		{"http", "[fd00:ec2::254]:80", false},
		{"http", "[::1]:80", false},
		{"https", "metadata.google.internal:443", false},
		{"http", "metadata", false},
		{"http", "metadata.goog", false},
		{"http", "instance-data:80", false},
		{"https", "localhost:443", false},
		{"https", "app.localhost", false},
		{"https", "cdn.example.org:443", true},
		{"https", "93.184.216.34", true},
	} {
		err := c.CheckBrowserTarget(ctx, tc.scheme, tc.hostport)
		if tc.ok != (err == nil) || err != nil && !errors.Is(err, fetch.ErrRefused) {
			t.Errorf("CheckBrowserTarget(%s, %s) = %v, want ok %v", tc.scheme, tc.hostport, err, tc.ok)
		}
	}
}

// TestDialBrowser checks that the browser's dialler connects to the blog's
// origin and refuses another port of the same loopback host, and that a
// name resolving to loopback is refused after resolution.
func TestDialBrowser(t *testing.T) {
	blog, other := loopbackPair(t)
	c, err := fetch.New(fetch.Options{Origins: []string{blog.URL}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	conn, err := c.DialBrowser(ctx, "tcp", hostOf(blog.URL))
	if err != nil {
		t.Fatalf("blog origin: %v", err)
	}
	conn.Close()
	for _, addr := range []string{hostOf(other.URL), "localhost:" + portOf(blog.URL), "169.254.169.254:80"} {
		if conn, err := c.DialBrowser(ctx, "tcp", addr); !errors.Is(err, fetch.ErrRefused) {
			t.Errorf("DialBrowser(%s) = %v, want ErrRefused", addr, err)
			if conn != nil {
				conn.Close()
			}
		}
	}
	// A name that is not refused by its look but resolves to loopback: the
	// machine's own name, when it does.
	name, err := os.Hostname()
	if err != nil {
		return
	}
	addrs, err := net.DefaultResolver.LookupHost(ctx, name)
	if err != nil || len(addrs) == 0 || !net.ParseIP(addrs[0]).IsLoopback() {
		t.Logf("host name %s does not resolve to loopback (%v %v): dial-time check not exercised here", name, addrs, err)
		return
	}
	if conn, err := c.DialBrowser(ctx, "tcp", net.JoinHostPort(name, portOf(blog.URL))); !errors.Is(err, fetch.ErrRefused) {
		t.Errorf("name %s resolving to loopback: %v, want ErrRefused", name, err)
		if conn != nil {
			conn.Close()
		}
	}
	// The client's own proxy, named so, is dialled by the client but is no
	// exception for the browser.
	proxyAddr := net.JoinHostPort(name, portOf(other.URL))
	t.Setenv("HTTP_PROXY", "http://"+proxyAddr)
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")
	pc, err := fetch.New(fetch.Options{Origins: []string{blog.URL}})
	if err != nil {
		t.Fatal(err)
	}
	if conn, err := pc.DialBrowser(ctx, "tcp", proxyAddr); !errors.Is(err, fetch.ErrRefused) {
		t.Errorf("the client's proxy %s: %v, want ErrRefused for the browser", proxyAddr, err)
		if conn != nil {
			conn.Close()
		}
	}
}

func hostOf(raw string) string {
	u, _ := url.Parse(raw)
	return u.Host
}

func portOf(raw string) string {
	u, _ := url.Parse(raw)
	return u.Port()
}
