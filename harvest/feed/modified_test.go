package feed_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest/feed"
)

// TestFillUpdated dates a WordPress RSS feed's items from its Atom twin:
// only post 3 was edited; post 1 is not in the Atom page.
func TestFillUpdated(t *testing.T) {
	edited := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	mux := http.NewServeMux()
	var site string
	mux.HandleFunc("/feed/", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, rssPage(site, "https://wordpress.org/?v=6.1.9", "", 4, 1))
	})
	mux.HandleFunc("/feed/atom/", func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/Atom"><title>Test blog</title><generator uri="https://wordpress.org/" version="6.1.9">WordPress</generator>`)
		for n := 4; n >= 2; n-- {
			up := base.AddDate(0, 0, n)
			if n == 3 {
				up = edited
			}
			fmt.Fprintf(&b, `<entry><id>%s/?p=%d</id><title>Post %d</title><link rel="alternate" type="text/html" href="%s/post-%d/"/><published>%s</published><updated>%s</updated></entry>`,
				site, n, n, site, n, base.AddDate(0, 0, n).Format(time.RFC3339), up.Format(time.RFC3339))
		}
		b.WriteString(`</feed>`)
		fmt.Fprint(w, b.String())
	})
	site = serveMux(t, mux).URL
	ctx := context.Background()
	f, _, err := feed.FetchAll(ctx, newClient(t), site+"/feed/", feed.PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := feed.AtomTwin(f), site+"/feed/atom/"; got != want {
		t.Fatalf("AtomTwin = %q, want %q", got, want)
	}
	file, n, err := feed.FillUpdated(ctx, newClient(t), f)
	if err != nil || file == nil || n != 3 {
		t.Fatalf("FillUpdated: file %v, %d items dated, %v; want a file, 3 items", file != nil, n, err)
	}
	for _, it := range f.Items {
		var want time.Time
		switch it.Title {
		case "Post 3":
			want = edited
		case "Post 2", "Post 4":
			want = it.Published
		}
		if !it.Updated.Equal(want) {
			t.Errorf("%s: updated %v, want %v", it.Title, it.Updated, want)
		}
	}
	plain := &feed.Feed{URL: "https://b.example/?feed=rss2", Format: "rss", Platform: "WordPress", PlatformID: "wordpress", Items: []feed.Item{{Link: "https://b.example/?p=1"}}}
	if got, want := feed.AtomTwin(plain), "https://b.example/?feed=atom"; got != want {
		t.Errorf("AtomTwin(plain permalinks) = %q, want %q", got, want)
	}
	if feed.AtomTwin(f) != "" {
		t.Errorf("a feed with modification dates still asks for its Atom twin")
	}
}

// TestAtomTwinNone: no twin for feeds of other platforms or already dated.
func TestAtomTwinNone(t *testing.T) {
	for _, f := range []*feed.Feed{
		nil,
		{URL: "https://b.example/feed/", Format: "rss", Platform: "Ghost", Items: []feed.Item{{Link: "https://b.example/a/"}}},
		{URL: "https://b.example/feed/atom/", Format: "atom", Platform: "WordPress", PlatformID: "wordpress", Items: []feed.Item{{Link: "https://b.example/a/"}}},
		{URL: "https://b.example/?cat=3", Format: "rss", Platform: "WordPress", PlatformID: "wordpress", Items: []feed.Item{{Link: "https://b.example/a/"}}},
		{URL: "https://b.example/feed/", Format: "rss", Platform: "WordPress", PlatformID: "wordpress"},
	} {
		if got := feed.AtomTwin(f); got != "" {
			t.Errorf("AtomTwin(%+v) = %q, want none", f, got)
		}
	}
}
