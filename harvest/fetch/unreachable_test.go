package fetch_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// TestUnreachableInPlainWords: a blog whose server is gone (connection
// refused), whose name does not resolve, or whose certificate is not
// trusted fails with the cause in plain words, through robots.txt (asked
// first) as through a page with robots.txt ignored, and never as
// "disallowed by robots.txt" (issue 37: nothing was disallowed).
func TestUnreachableInPlainWords(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	gone := "http://" + ln.Addr().String() + "/"
	ln.Close() // nothing listens there now: connection refused
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	defer tlsSrv.Close()
	cases := []struct{ name, url, cause string }{
		{"refused", gone, "unreachable (connection refused)"},
		{"dns", "http://no-such-host.invalid/", "DNS"}, // "no such host: DNS lookup found no address" where a resolver answers
		{"tls", tlsSrv.URL + "/", "unreachable (TLS certificate not accepted)"},
	}
	for _, c := range cases {
		for _, ignore := range []bool{false, true} {
			cl, err := fetch.New(fetch.Options{Retries: -1, IgnoreRobots: ignore, AllowHosts: []string{"127.0.0.1"}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = cl.Get(context.Background(), c.url)
			var ue *fetch.UnreachableError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), c.cause) || ue.Robots == ignore {
				t.Errorf("%s (robots ignored %v): %v, want an *UnreachableError saying %q", c.name, ignore, err, c.cause)
			}
			if errors.Is(err, blogharvest.ErrDisallowed) || strings.Contains(err.Error(), "disallowed") {
				t.Errorf("%s (robots ignored %v): %v: nothing was disallowed", c.name, ignore, err)
			}
		}
	}
}
