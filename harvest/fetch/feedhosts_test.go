package fetch_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// hostTransport answers every request itself, naming the host asked.
type hostTransport struct{}

func (hostTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	rec := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/atom+xml"}},
		Body: http.NoBody, Request: r, ProtoMajor: 1, ProtoMinor: 1}
	return rec, nil
}

// TestFeedHostsForFeedPagesOnly: a host of Options.FeedHosts takes the
// feed pages of the blog (Kind FeedPage), not its pages; a feed page on
// any other host is out of scope as a page is; the browser's decision
// does not change (issue 36, cause 6).
func TestFeedHostsForFeedPagesOnly(t *testing.T) {
	c, err := fetch.New(fetch.Options{Origins: []string{"http://canal.blogspot.com/"}, FeedHosts: []string{"WWW.Blogger.com"},
		Transport: hostTransport{}, IgnoreRobots: true, Retries: -1})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tc := range []struct {
		url  string
		kind fetch.Kind
		ok   bool
	}{
		{"http://www.blogger.com/feeds/4242/posts/default?start-index=26", fetch.FeedPage, true},
		{"https://www.blogger.com/feeds/4242/posts/default?start-index=26", fetch.FeedPage, true},
		{"http://www.blogger.com/feeds/4242/posts/default?start-index=26", fetch.Page, false},
		{"http://feeds.example.net/canal?page=2", fetch.FeedPage, false},
		{"http://canal.blogspot.com/feeds/posts/default?start-index=26", fetch.FeedPage, true},
	} {
		_, err := c.Do(ctx, fetch.Request{URL: tc.url, Kind: tc.kind})
		if out := errors.Is(err, fetch.ErrOutOfScope); out == tc.ok {
			t.Errorf("%s as a %s: err %v, want allowed %v", tc.url, tc.kind, err, tc.ok)
		}
	}
	if err := c.CheckBrowserTarget(ctx, "http", "www.blogger.com:80"); err != nil {
		t.Errorf("browser: %v", err) // a public name: the browser's rule, unchanged
	}
}
