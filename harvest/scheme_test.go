package harvest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest"
)

// bothSchemes is a blog at blog.example.org answering http and https
// alike, without a redirect (replayTransport sends both to one server):
// its feed links the posts under http, its pages under https, as a blog
// moved to https keeps an old feed.
//
// The fields add the other paths by which a URL names a page under the
// other scheme than the blog's (other), each one the crawl's
// canonicaliser folds (scope.identity): the home page links /old-N/,
// which redirects to post N under other (redirect); every post's page
// declares its rel=canonical under other (canonical); the feed's items
// carry no date and the posts' pages advertise a section feed,
// /2024/index.xml, odd posts under other and even ones under https,
// whose items date the posts, linking them under other (sideFeed).
type bothSchemes struct {
	posts                         int
	other                         string
	redirect, canonical, sideFeed bool
	log                           requestLog
}

// sideDate is the date the section feed gives post i.
func sideDate(i int) time.Time { return time.Date(2023, 6, i, 8, 0, 0, 0, time.UTC) }

func (b *bothSchemes) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	const host = "blog.example.org"
	b.log.Add(r.URL.Path)
	page := func(title, head, body string) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><title>%s</title><link rel="alternate" type="application/rss+xml" href="/feed/">%s</head><body>%s</body></html>`, title, head, body)
	}
	switch {
	case r.URL.Path == "/feed/":
		w.Header().Set("Content-Type", "application/rss+xml")
		var items strings.Builder
		for i := 1; i <= b.posts; i++ {
			date := fmt.Sprintf(`<pubDate>Mon, 0%d Jan 2024 10:00:00 +0000</pubDate>`, i)
			if b.sideFeed {
				date = ""
			}
			fmt.Fprintf(&items, `<item><title>Post %[1]d</title><link>http://%[2]s/2024/01/0%[1]d/post-%[1]d/</link>%[3]s<description>Summary %[1]d</description></item>`, i, host, date)
		}
		fmt.Fprintf(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>Both</title><link>http://%s/</link>%s</channel></rss>`, host, items.String())
	case r.URL.Path == "/2024/index.xml" && b.sideFeed:
		w.Header().Set("Content-Type", "application/rss+xml")
		var items strings.Builder
		for i := 1; i <= b.posts; i++ {
			fmt.Fprintf(&items, `<item><title>Post %[1]d</title><link>%[2]s://%[3]s/2024/01/0%[1]d/post-%[1]d/</link><pubDate>%[4]s</pubDate></item>`, i, b.other, host, sideDate(i).Format(time.RFC1123Z))
		}
		fmt.Fprintf(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>2024</title><link>http://%s/2024/</link>%s</channel></rss>`, host, items.String())
	case r.URL.Path == "/":
		var links strings.Builder
		for i := 1; i <= b.posts; i++ {
			fmt.Fprintf(&links, `<li><a href="https://%[2]s/2024/01/0%[1]d/post-%[1]d/">Post %[1]d</a></li>`, i, host)
			if b.redirect {
				fmt.Fprintf(&links, `<li><a href="/old-%[1]d/">Post %[1]d, old address</a></li>`, i)
			}
		}
		page("Both", "", "<ul>"+links.String()+"</ul>")
	default:
		for i := 1; i <= b.posts; i++ {
			p := fmt.Sprintf("/2024/01/0%[1]d/post-%[1]d/", i)
			switch r.URL.Path {
			case fmt.Sprintf("/old-%d/", i):
				if b.redirect {
					http.Redirect(w, r, b.other+"://"+host+p, http.StatusMovedPermanently)
					return
				}
			case p:
				head := ""
				if b.canonical {
					head += fmt.Sprintf(`<link rel="canonical" href="%s://%s%s">`, b.other, host, p)
				}
				if b.sideFeed {
					scheme := "https"
					if i%2 == 1 {
						scheme = b.other
					}
					head += fmt.Sprintf(`<link rel="alternate" type="application/rss+xml" title="2024" href="%s://%s/2024/index.xml">`, scheme, host)
				}
				page(fmt.Sprintf("Post %d", i), head, fmt.Sprintf(`<article class="post hentry"><h1>Post %d</h1><div class="entry-content"><p>%s</p><p><a href="https://%s/2024/01/0%d/post-%d/">next</a></p></div></article>`,
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
//
// The same holds whichever path names the post under the other scheme
// (issue 43, the crawl's one canonicaliser, scope.identity): a redirect's
// target, the page's rel=canonical (3mdeb's pages declare theirs under
// http), and a section feed advertised under both schemes is read once,
// its items (linked under the other scheme) dating the posts.
func TestOnePostUnderBothSchemes(t *testing.T) {
	for _, paths := range []struct {
		name                          string
		redirect, canonical, sideFeed bool
	}{{name: "feed-links"}, {name: "redirect", redirect: true}, {name: "canonical", canonical: true}, {name: "side-feed", sideFeed: true}} {
		for _, tc := range []struct{ scheme, other string }{{"https", "http"}, {"http", "https"}} {
			t.Run(paths.name+"/"+tc.scheme, func(t *testing.T) {
				t.Parallel()
				b := &bothSchemes{posts: 3, other: tc.other, redirect: paths.redirect, canonical: paths.canonical, sideFeed: paths.sideFeed}
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
					e, ok := got[own]
					if !ok {
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
					if b.sideFeed && ok && !e.Created.Equal(sideDate(i)) {
						t.Errorf("entry %s created %v, want %v: the section feed's item (linked under %s) dates it", own, e.Created, sideDate(i), tc.other)
					}
				}
				if len(got) != b.posts {
					t.Errorf("%d entries, want %d (one per post): %v", len(got), b.posts, keys(got))
				}
				if n := b.log.Count(func(p string) bool { return p == "/2024/index.xml" }); b.sideFeed && n != 1 {
					t.Errorf("the section feed, advertised under both schemes, read %d times, want once", n)
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
}
