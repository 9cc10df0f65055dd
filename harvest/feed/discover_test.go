package feed_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

func TestDiscover(t *testing.T) {
	mux := http.NewServeMux()
	var site string
	page := func(head string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, "<!DOCTYPE html><html><head><title>Blog</title>%s</head><body><p>Hello</p></body></html>", head)
		}
	}
	rss := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=UTF-8") // sniffed, not trusted
		fmt.Fprint(w, rssPage(site, "https://wordpress.org/?v=6.4.2", "", 2, 1))
	}
	mux.HandleFunc("/{$}", page(`<link rel="alternate" type="application/rss+xml" title="Comments Feed" href="/comments/feed/">
		<link rel="alternate" type="application/rss+xml" title="Feed" href="/feed/">`))
	mux.HandleFunc("/feed/", rss)
	mux.HandleFunc("/comments/feed/", rss)
	mux.HandleFunc("/plain/{$}", page(""))  // no link: /plain/atom.xml exists
	mux.HandleFunc("/plain/atom.xml", rss)  // found by common path under /plain/
	mux.HandleFunc("/nofeed/{$}", page("")) // nothing anywhere (root /feed is not there)
	mux.HandleFunc("/dead/{$}", page(`<link rel="alternate" type="application/atom+xml" href="/gone.xml">`))
	site = serveMux(t, mux).URL
	c := newClient(t)
	ctx := context.Background()
	for _, tc := range []struct{ page, want string }{
		{site + "/", site + "/feed/"},
		{site + "/feed/", site + "/feed/"},
		{site + "/plain/", site + "/plain/atom.xml"},
		{site + "/dead/", site + "/feed/"}, // declared feed is gone; /feed/ at the root works
	} {
		got, home, _, err := feed.Discover(ctx, c, tc.page)
		if err != nil || got != tc.want || home == nil || home.URL != tc.page {
			t.Errorf("Discover(%s) = %q, %v; want %q", tc.page, got, err, tc.want)
		}
	}
}

func TestDiscoverNotBlog(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, "<html><head><title>Shop</title></head><body>Buy things</body></html>")
	})
	site := serveMux(t, mux).URL
	_, home, _, err := feed.Discover(context.Background(), newClient(t), site+"/")
	if !errors.Is(err, blogharvest.ErrNotBlog) || blogharvest.IsTransient(err) || home == nil {
		t.Errorf("err %v", err)
	}
}

// TestDiscoverFeedTooLarge checks that a blog whose declared feed is over
// the body cap is reported as such, not as "not a blog".
func TestDiscoverFeedTooLarge(t *testing.T) {
	mux := http.NewServeMux()
	var site string
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<html><head><title>Blog</title><link rel="alternate" type="application/rss+xml" href="/feed/"></head><body>Hi</body></html>`)
	})
	mux.HandleFunc("/feed/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, rssPage(site, "", "", 200, 1))
	})
	site = serveMux(t, mux).URL
	c, err := fetch.New(fetch.Options{AllowHosts: []string{"127.0.0.1"}, Retries: -1, MaxBody: 4096})
	if err != nil {
		t.Fatal(err)
	}
	_, _, _, err = feed.Discover(context.Background(), c, site+"/")
	if errors.Is(err, blogharvest.ErrNotBlog) || !errors.Is(err, blogharvest.ErrTooLarge) || blogharvest.IsTransient(err) ||
		!strings.Contains(err.Error(), "feed too large") || !strings.Contains(err.Error(), site+"/feed/") || !strings.Contains(err.Error(), "4096 bytes") {
		t.Errorf("err %v; want a permanent error: feed too large, naming %s/feed/ and the 4096-byte cap, not ErrNotBlog", err, site)
	}
}

func TestFeedLinks(t *testing.T) {
	page := `<html><head>
<link rel="stylesheet" href="/s.css">
<link rel="alternate" type="application/atom+xml" href="atom.xml">
<link rel="Alternate home" type="application/feed+json" href="https://cdn.example.org/feed.json">
<link rel="alternate" type="text/html" hreflang="fr" href="/fr/">
<link rel="alternate" type="application/rss+xml; charset=utf-8" href="/rss">
</head></html>`
	got := feed.FeedLinks([]byte(page), "https://b.example.org/blog/")
	want := []string{"https://b.example.org/blog/atom.xml", "https://cdn.example.org/feed.json", "https://b.example.org/rss"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("FeedLinks = %v, want %v", got, want)
	}
}
