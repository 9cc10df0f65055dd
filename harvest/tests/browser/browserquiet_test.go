package browser_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/render"

	"github.com/blogharvest/blogharvest/internal/toolskip"
)

// TestBrowserMakesNoRequestsOfItsOwn runs Chromium behind the filtering
// proxy with a gate that records every target, idle on a blank page for a
// few seconds, then renders a page and idles again: the only targets must
// be the page's own (the browser's services, pointed at .invalid names,
// never reach the gate). Without the quiet flags Chromium connects to its
// vendor's search, GCM and accounts services within seconds; Chromium 156
// asks update.googleapis.com for an on-demand component despite
// --disable-component-update. The test names which promise held: the quiet
// switches (nothing reached the proxy) or only the proxy (the browser asked,
// the gate refused).
func TestBrowserMakesNoRequestsOfItsOwn(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		toolskip.Missing(t, "chromium", err)
	}
	if testing.Short() {
		t.Skip("starts a browser")
	}
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!DOCTYPE html><html><body><p>hello</p><img src="/a.png"><a href="https://www.example.com/">a link</a></body></html>`)
	}))
	defer srv.Close()
	page := srv.Listener.Addr().String()
	var mu sync.Mutex
	seen := map[string]int{}
	gate := fetch.BrowserGate{
		Check: func(_ context.Context, scheme, hostport string) error {
			mu.Lock()
			seen[hostport]++
			mu.Unlock()
			if hostport == page {
				return nil
			}
			return fetch.ErrRefused
		},
		Dial: (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
	}
	p, err := fetch.NewBrowserProxy(gate, fetch.BrowserProxyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	b, err := render.New(context.Background(), render.Options{Tabs: 1, ProxyServer: p.URL(), ProxyOnly: true})
	if errors.Is(err, render.ErrNoBrowser) {
		t.Skipf("no browser: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	time.Sleep(4 * time.Second) // startup traffic comes in the first seconds
	if _, err := b.Render(context.Background(), srv.URL+"/"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * time.Second)
	mu.Lock()
	defer mu.Unlock()
	quiet := true
	for hp, n := range seen {
		if hp != page {
			quiet = false
			t.Errorf("quiet switches did not hold: the browser asked the proxy for %s (%d times; the proxy refused it, so nothing left): only the page's own host may appear", hp, n)
		}
	}
	if quiet {
		t.Logf("quiet switches held: no request of the browser's own reached the proxy (%d targets: %v)", len(seen), seen)
	}
	if seen[page] == 0 {
		t.Errorf("the page itself never went through the proxy: %v", seen)
	}
}
