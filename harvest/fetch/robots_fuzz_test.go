package fetch_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync/atomic"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// FuzzRobots serves any robots.txt and asks a fresh client about it and
// about any path: nothing panics, the file counts as fetched, its
// crawl-delay is never negative (a delay too long to represent is the
// longest, not none), and Allowed answers nil or a permanent ErrDisallowed.
func FuzzRobots(f *testing.F) {
	f.Add(robotsTxt, "/drafts/x?y=1")
	f.Add("User-agent: *\nCrawl-delay: 1e300\n", "/")
	f.Add("User-agent: blogharvest\nCrawl-delay: 99999999999\nDisallow: /\nSitemap: ::bad\n", "/p")
	f.Add("User-agent: *\nDisallow: /*$\nAllow: /$\n\xff\xfe", "/%zz")
	var body atomic.Value
	body.Store("")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, body.Load().(string))
	}))
	defer srv.Close()
	base, _ := url.Parse(srv.URL)
	f.Fuzz(func(t *testing.T, robots, path string) {
		body.Store(robots)
		c := newClient(t, fetch.Options{UserAgent: "blogharvest/1.0", Sleep: new(sleeps).sleep, Retries: -1})
		ctx := context.Background()
		r := c.RobotsFor(ctx, base)
		if r.Err != nil || r.Status != http.StatusOK {
			t.Fatalf("robots.txt: status %d, err %v", r.Status, r.Err)
		}
		if r.CrawlDelay < 0 {
			t.Fatalf("crawl-delay %v < 0", r.CrawlDelay)
		}
		u := srv.URL + "/" + path
		if _, err := url.Parse(u); err != nil {
			return
		}
		if err := c.Allowed(ctx, u); err != nil && (!errors.Is(err, blogharvest.ErrDisallowed) || blogharvest.IsTransient(err)) {
			t.Fatalf("Allowed(%q): %v, want nil or a permanent ErrDisallowed", u, err)
		}
		if err := c.Allowed(ctx, srv.URL+"/robots.txt"); err != nil {
			t.Fatalf("robots.txt itself disallowed: %v", err)
		}
	})
}
