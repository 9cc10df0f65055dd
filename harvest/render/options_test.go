package render_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/render"
)

// newBrowser starts a browser of its own for a test, closed at cleanup.
func newBrowser(t *testing.T, o render.Options) *render.Browser {
	t.Helper()
	browser(t) // skip without a browser
	o.HostRules = sharedOptions().HostRules
	o.Logger = quietLogger()
	b, err := render.New(context.Background(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// proxy is a forward HTTP proxy that sends requests for proxied.test to the
// blog server and counts them.
type proxy struct {
	srv   *httptest.Server
	count atomic.Int32
}

func newProxy(t *testing.T) *proxy {
	p := &proxy{}
	rp := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		r.Out.URL.Scheme = "http"
		r.Out.URL.Host = blog.host()
	}}
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Host != "proxied.test" {
			http.Error(w, "proxy: unknown host "+r.URL.Host, http.StatusBadGateway)
			return
		}
		p.count.Add(1)
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

func TestOptionsAndClose(t *testing.T) {
	t.Parallel()
	px := newProxy(t)
	b := newBrowser(t, render.Options{Tabs: 1, MaxClicks: -1, ProxyServer: px.srv.URL})
	res, err := b.Render(context.Background(), "http://proxied.test/loadmore.html")
	if err != nil {
		t.Fatal(err)
	}
	if px.count.Load() < 2 {
		t.Errorf("proxy saw %d requests, want the page and its batch", px.count.Load())
	}
	if n := strings.Count(string(res.HTML), `class="comment"`); res.Clicks != 0 || n != 5 {
		t.Errorf("MaxClicks -1: %d clicks, %d comments; want 0 and the first batch of 5", res.Clicks, n)
	}
	if res.Screenshot != nil {
		t.Error("screenshot taken though not asked for")
	}
	dir := b.ProfileDir()
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("profile dir: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("profile dir %s left after Close: %v", dir, err)
	}
	if _, err := b.Render(context.Background(), "http://blog.test/delayed.html"); err == nil || blogharvest.IsTransient(err) {
		t.Errorf("Render after Close: %v, want a permanent error", err)
	}
}

func TestHungRendererGivesUp(t *testing.T) {
	t.Parallel()
	// Timeout is what the hung page gets, twice; the next page must render
	// within it too, on a loaded machine.
	b := newBrowser(t, render.Options{Tabs: 1, Timeout: 10 * time.Second})
	// The outer deadline only keeps a broken build from hanging the test;
	// the renderer must give up by itself, after its two attempts, long before.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	start := time.Now()
	_, err := b.Render(ctx, "http://blog.test/hang.html")
	if err == nil || !blogharvest.IsTransient(err) {
		t.Fatalf("Render of a hung page: %v, want a transient error", err)
	}
	if ctx.Err() != nil {
		t.Fatalf("Render of a hung page ran into the test's own deadline: the renderer did not give up by itself")
	}
	if !strings.Contains(err.Error(), "first attempt") {
		t.Errorf("Render of a hung page: %v, want the two attempts named", err)
	}
	t.Logf("gave up after %s: %v", time.Since(start), err)
	start = time.Now()
	if _, err := b.Render(context.Background(), "http://blog.test/dynamic.html"); err != nil {
		t.Errorf("next page after a hung one: %v", err)
	}
	t.Logf("next page in %s", time.Since(start))
}

func TestNavigationError(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	l.Close() // nothing listens there now
	_, err = browser(t).Render(context.Background(), "http://"+l.Addr().String()+"/")
	if err == nil || !strings.Contains(err.Error(), "ERR_CONNECTION_REFUSED") {
		t.Errorf("Render of a dead address: %v, want connection refused", err)
	}
}

func TestResultFiles(t *testing.T) {
	t.Parallel()
	u := "http://blog.test/iframe-cross.html?embed=" + "http://comments.test/thread.html%3Fn%3D2"
	res := renderOK(t, context.Background(), u)
	now := time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)
	files := res.Files(now)
	want := []blogharvest.Role{blogharvest.RoleRendered, blogharvest.RoleRendered, blogharvest.RoleScreenshot}
	if len(files) != len(want) {
		t.Fatalf("got %d files, want %d", len(files), len(want))
	}
	for i, f := range files {
		if f.Role != want[i] || f.Size == 0 || len(f.SHA256) != 64 || !f.Captured.Equal(now) {
			t.Errorf("file %d: role %s size %d sha %q", i, f.Role, f.Size, f.SHA256)
		}
		if err := f.Validate(); err != nil {
			t.Errorf("file %d: %v", i, err)
		}
	}
	if files[1].URL != "http://comments.test/thread.html?n=2" || files[2].MediaType != "image/png" {
		t.Errorf("frame file URL %q, screenshot type %q", files[1].URL, files[2].MediaType)
	}
}
