package fetch

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
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
