package harvest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest"
)

// bothSchemes is a blog at blog.example.org answering http and https
// alike, without a redirect (replayTransport sends both to one server):
// its feed links the posts under http, its pages under https, as a blog
// moved to https keeps an old feed.
type bothSchemes struct{ posts int }

func (b bothSchemes) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	const host = "blog.example.org"
	page := func(title, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><title>%s</title><link rel="alternate" type="application/rss+xml" href="/feed/"></head><body>%s</body></html>`, title, body)
	}
	switch {
	case r.URL.Path == "/feed/":
		w.Header().Set("Content-Type", "application/rss+xml")
		var items strings.Builder
		for i := 1; i <= b.posts; i++ {
			fmt.Fprintf(&items, `<item><title>Post %[1]d</title><link>http://%[2]s/2024/01/0%[1]d/post-%[1]d/</link><pubDate>Mon, 0%[1]d Jan 2024 10:00:00 +0000</pubDate><description>Summary %[1]d</description></item>`, i, host)
		}
		fmt.Fprintf(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>Both</title><link>http://%s/</link>%s</channel></rss>`, host, items.String())
	case r.URL.Path == "/":
		var links strings.Builder
		for i := 1; i <= b.posts; i++ {
			fmt.Fprintf(&links, `<li><a href="https://%[2]s/2024/01/0%[1]d/post-%[1]d/">Post %[1]d</a></li>`, i, host)
		}
		page("Both", "<ul>"+links.String()+"</ul>")
	default:
		for i := 1; i <= b.posts; i++ {
			if r.URL.Path == fmt.Sprintf("/2024/01/0%[1]d/post-%[1]d/", i) {
				page(fmt.Sprintf("Post %d", i), fmt.Sprintf(`<article class="post hentry"><h1>Post %d</h1><div class="entry-content"><p>%s</p><p><a href="https://%s/2024/01/0%d/post-%d/">next</a></p></div></article>`,
					i, strings.Repeat("Words of the post. ", 30), host, i%b.posts+1, i%b.posts+1))
				return
			}
		}
		http.NotFound(w, r)
	}
}

// TestOnePostUnderBothSchemes: a post that the feed links under http and
// the pages under https is one entry, under the scheme the blog is
// registered with (its key as before for http- and https-registered
// blogs alike); the other scheme's URL is a duplicate row in the ledger
// naming it and an alias of the entry; an update crawl of the unchanged blog emits no entry the
// first crawl did not (no post under the other scheme).
func TestOnePostUnderBothSchemes(t *testing.T) {
	b := bothSchemes{posts: 3}
	for _, tc := range []struct{ scheme, other string }{{"https", "http"}, {"http", "https"}} {
		t.Run(tc.scheme, func(t *testing.T) {
			t.Parallel()
			srv := httptest.NewServer(b)
			t.Cleanup(srv.Close)
			o := options("both-"+tc.scheme, tc.scheme+"://blog.example.org")
			o.Transport = replayTransport{addr: srv.Listener.Addr().String(), next: srv.Client().Transport}
			res, out := crawl(t, o)
			got := out.ByURL(t)
			ledger := map[string]harvest.LedgerRow{}
			for _, r := range res.Ledger {
				ledger[r.URL] = r
			}
			for i := 1; i <= b.posts; i++ {
				p := fmt.Sprintf("blog.example.org/2024/01/0%[1]d/post-%[1]d/", i)
				own, other := tc.scheme+"://"+p, tc.other+"://"+p
				if e, ok := got[own]; !ok {
					t.Errorf("post %d not archived under %s; warnings %q", i, own, res.Warnings)
				} else if !slices.Contains(e.Aliases, other) {
					t.Errorf("entry %s: aliases %q, want %s (an archive holding it under that URL adds a version there)", own, e.Aliases, other)
				}
				if _, ok := got[other]; ok {
					t.Errorf("post %d archived a second time under %s", i, other)
				}
				if r := ledger[other]; r.Fate != harvest.FateDuplicate || !strings.HasPrefix(r.Detail, own) {
					t.Errorf("ledger row of %s: %s %q, want duplicate of %s", other, r.Fate, r.Detail, own)
				}
			}
			if len(got) != b.posts {
				t.Errorf("%d entries, want %d (one per post): %v", len(got), b.posts, keys(got))
			}
			up := &output{}
			if _, err := harvest.UpdateCrawl(context.Background(), o, res.Watermark, up.Emit); err != nil {
				t.Fatalf("UpdateCrawl: %v", err)
			}
			for u := range up.ByURL(t) {
				if _, ok := got[u]; !ok {
					t.Errorf("the update crawl of the unchanged blog emitted a new entry %s", u)
				}
			}
		})
	}
}
