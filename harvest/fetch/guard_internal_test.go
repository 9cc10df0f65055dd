package fetch

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"testing"
)

func TestIsPublic(t *testing.T) {
	for addr, want := range map[string]bool{
		"93.184.216.34": true, "2606:2800:220:1::": true, "127.0.0.1": false, "10.1.1.1": false,
		"172.16.0.1": false, "192.168.0.1": false, "169.254.169.254": false, "::1": false,
		"fe80::1": false, "fd00::1": false, "::ffff:127.0.0.1": false, "100.64.0.1": false, "0.0.0.0": false,
	} {
		if got := isPublic(netip.MustParseAddr(addr)); got != want {
			t.Errorf("isPublic(%s) = %v", addr, got)
		}
	}
}

// TestDialGuard checks the dial-time check: a name that resolves to a
// loopback address is refused unless allowed or a proxy.
func TestDialGuard(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	addr := net.JoinHostPort("localhost", port)
	ctx := context.Background()
	for _, tc := range []struct {
		g    *guard
		want bool
	}{
		{newGuard(nil, nil, nil), false},
		{newGuard([]string{"LOCALHOST"}, nil, nil), true},
		{newGuard(nil, nil, []string{addr}), true},
	} {
		conn, err := tc.g.dialContext(&net.Dialer{})(ctx, "tcp", addr)
		if tc.want != (err == nil) {
			t.Errorf("guard %+v: err %v", tc.g, err)
		}
		if err == nil {
			conn.Close()
		} else if !errors.Is(err, ErrRefused) {
			t.Errorf("err %v, want ErrRefused", err)
		}
	}
}

// TestOrigins checks which origins count as the blog's: exact scheme, host
// and port; the www./bare twin on the same scheme and port; for a name on
// a default port the http:80/https:443 pair; never another port, and no
// twin for an IP literal. Only the given origins may be non-public.
func TestOrigins(t *testing.T) {
	o, err := newOrigins([]string{"http://Blog.Example.org/path/?q", "http://127.0.0.1:8080", "https://www.b.example:8443", ""})
	if err != nil {
		t.Fatal(err)
	}
	for raw, want := range map[string]bool{
		"http://blog.example.org/x": true, "https://blog.example.org/": true, "http://www.blog.example.org:80/": true,
		"https://www.blog.example.org": true, "http://blog.example.org:8080/": false, "https://blog.example.org:8443/": false,
		"http://127.0.0.1:8080/a": true, "http://127.0.0.1/": false, "https://127.0.0.1:8080/": false, "http://127.0.0.1:8081/": false,
		"https://www.b.example:8443/": true, "https://b.example:8443/": true, "http://b.example:8443/": false, "https://b.example/": false,
		"http://www.127.0.0.1:8080/": false,
	} {
		u, _ := url.Parse(raw)
		n, _ := originOf(u)
		if o.set[n] != want {
			t.Errorf("%s (%s) in origins = %v, want %v", raw, n, o.set[n], want)
		}
	}
	more := o.with("https://feeds.example.net:443")
	if !more.set["https://feeds.example.net:443"] || more.hostports["feeds.example.net:443"] || o.set["https://feeds.example.net:443"] {
		t.Errorf("an added origin must be a page origin only, in a copy")
	}
	if _, err := newOrigins([]string{"ftp://x.org"}); err == nil {
		t.Error("ftp origin accepted")
	}
}

// TestLegacyIPv4 checks the numeric host forms read as addresses.
func TestLegacyIPv4(t *testing.T) {
	for host, want := range map[string]string{
		"2130706433": "127.0.0.1", "0x7f.1": "127.0.0.1", "127.1": "127.0.0.1", "017700000001": "127.0.0.1",
		"10.0x10.1": "10.16.0.1", "0xa9.254.169.254": "169.254.169.254", "8.8.8.8": "8.8.8.8",
		"example.org": "", "1.2.3.4.5": "", "256.1": "", "0x": "", "1..2": "", "4294967296": "", "1.2.65536": "",
	} {
		a, ok := legacyIPv4(host)
		if ok != (want != "") || ok && a.String() != want {
			t.Errorf("legacyIPv4(%q) = %v, %v; want %q", host, a, ok, want)
		}
	}
	for _, h := range []string{"2130706433", "0x7f.1", "0xa9.254.169.254", "017700000001"} {
		if !privateName(h) {
			t.Errorf("%s not refused", h)
		}
	}
}
