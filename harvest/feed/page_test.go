package feed_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// wordpressBlog serves 25 posts, 10 per feed page, newest first, with
// ?paged=N as WordPress does (404 past the end). With ignorePaged it
// serves page 1 whatever is asked.
func wordpressBlog(t *testing.T, ignorePaged bool, hits *atomic.Int32) string {
	mux := http.NewServeMux()
	var site string
	mux.HandleFunc("/feed/", func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		page, _ := strconv.Atoi(r.URL.Query().Get("paged"))
		if page == 0 || ignorePaged {
			page = 1
		}
		top := 25 - (page-1)*10
		if top < 1 {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html") // a feed mislabelled
		fmt.Fprint(w, rssPage(site, "https://wordpress.org/?v=6.4.2", "", top, max(top-9, 1)))
	})
	site = serveMux(t, mux).URL
	return site
}

func TestFetchAllWordPress(t *testing.T) {
	var hits atomic.Int32
	site := wordpressBlog(t, false, &hits)
	f, files, err := feed.FetchAll(context.Background(), newClient(t), site+"/feed/", feed.PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Items) != 25 || len(files) != 3 || hits.Load() != 4 {
		t.Fatalf("%d items, %d files, %d requests; want 25, 3, 4", len(f.Items), len(files), hits.Load())
	}
	if f.Items[0].Title != "Post 25" || f.Items[24].Title != "Post 1" || f.Platform != "WordPress" {
		t.Errorf("first %q last %q platform %q", f.Items[0].Title, f.Items[24].Title, f.Platform)
	}
	for _, file := range files {
		if err := file.Validate(); err != nil || file.Role != blogharvest.RoleFeed {
			t.Errorf("file %s: %v", file.URL, err)
		}
	}
}

func TestFetchAllStops(t *testing.T) {
	var hits atomic.Int32
	site := wordpressBlog(t, true, &hits)
	f, files, err := feed.FetchAll(context.Background(), newClient(t), site+"/feed/", feed.PageOptions{})
	if err != nil || len(f.Items) != 10 || len(files) != 2 {
		t.Errorf("repeating pages: %v, %d items, %d files", err, len(f.Items), len(files))
	}
	site = wordpressBlog(t, false, &hits)
	f, _, err = feed.FetchAll(context.Background(), newClient(t), site+"/feed/", feed.PageOptions{MaxPages: 2})
	if err != nil || len(f.Items) != 20 {
		t.Errorf("MaxPages 2: %v, %d items", err, len(f.Items))
	}
	// Posts 25..16 are on page 1, 15..6 on page 2: since post 17, page 2
	// is still fetched (page 1 has newer posts) but not page 3.
	f, _, err = feed.FetchAll(context.Background(), newClient(t), site+"/feed/", feed.PageOptions{Since: base.AddDate(0, 0, 26)})
	if err != nil || len(f.Items) != 10 {
		t.Errorf("Since after every post: %v, %d items", err, len(f.Items))
	}
	f, _, err = feed.FetchAll(context.Background(), newClient(t), site+"/feed/", feed.PageOptions{Since: base.AddDate(0, 0, 17)})
	if err != nil || len(f.Items) != 20 {
		t.Errorf("Since post 17: %v, %d items", err, len(f.Items))
	}
	// An update that must revisit post 3 (a new comment) reads on to page 3.
	want := site + "/post-3/"
	enough := func(items []feed.Item) bool {
		return slices.ContainsFunc(items, func(it feed.Item) bool { return it.Link == want })
	}
	f, _, err = feed.FetchAll(context.Background(), newClient(t), site+"/feed/", feed.PageOptions{Since: base.AddDate(0, 0, 26), Enough: enough})
	if err != nil || len(f.Items) != 25 || !enough(f.Items) {
		t.Errorf("Since after every post, Enough wants post 3: %v, %d items", err, len(f.Items))
	}
	want = site + "/post-21/"
	f, _, err = feed.FetchAll(context.Background(), newClient(t), site+"/feed/", feed.PageOptions{Since: base.AddDate(0, 0, 26), Enough: enough})
	if err != nil || len(f.Items) != 10 {
		t.Errorf("Since after every post, Enough wants post 21 of page 1: %v, %d items", err, len(f.Items))
	}
}

func TestFetchAllBlogger(t *testing.T) {
	mux := http.NewServeMux()
	var site string
	var asked []string
	mux.HandleFunc("/feeds/posts/default", func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, r.URL.RawQuery)
		start, _ := strconv.Atoi(r.URL.Query().Get("start-index"))
		size, _ := strconv.Atoi(r.URL.Query().Get("max-results"))
		start, size = max(start, 1), cmpOr(size, 25)
		top := 60 - start + 1 // newest first: post 60 at index 1
		fmt.Fprint(w, atomPage(site, "<openSearch:totalResults>60</openSearch:totalResults>", top, max(top-size+1, 1)))
	})
	site = serveMux(t, mux).URL
	f, files, err := feed.FetchAll(context.Background(), newClient(t), site+"/feeds/posts/default", feed.PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Items) != 60 || len(files) != 3 || f.TotalResults != 60 {
		t.Errorf("%d items, %d files, total %d; asked %v", len(f.Items), len(files), f.TotalResults, asked)
	}
	if len(asked) != 3 || asked[1] != "max-results=25&start-index=26" || asked[2] != "max-results=25&start-index=51" {
		t.Errorf("asked %q", asked)
	}
}

func cmpOr(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// TestFetchAllRFC5005 follows next and prev-archive links and stops when a
// page links back to one already fetched.
func TestFetchAllRFC5005(t *testing.T) {
	mux := http.NewServeMux()
	var site string
	pages := map[string]string{
		"/feed.xml":      `<link rel="next" href="/archive-2.xml"/>`,
		"/archive-2.xml": `<link rel="prev-archive" href="archive-1.xml"/>`,
		"/archive-1.xml": `<link rel="next" href="/archive-2.xml"/>`,
	}
	ranges := map[string][2]int{"/feed.xml": {9, 7}, "/archive-2.xml": {6, 4}, "/archive-1.xml": {3, 1}}
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		extra, ok := pages[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		rg := ranges[r.URL.Path]
		fmt.Fprint(w, atomPage(site, extra, rg[0], rg[1]))
	})
	site = serveMux(t, mux).URL
	f, files, err := feed.FetchAll(context.Background(), newClient(t), site+"/feed.xml", feed.PageOptions{})
	if err != nil || len(f.Items) != 9 || len(files) != 3 {
		t.Fatalf("%v: %d items, %d files", err, len(f.Items), len(files))
	}
}

func TestFetchAllConditional(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/feed", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("ETag", `"abc"`)
		if r.Header.Get("If-None-Match") == `"abc"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		fmt.Fprint(w, rssPage("http://x", "Hugo", "", 2, 1))
	})
	site := serveMux(t, mux).URL
	c := newClient(t)
	f, _, err := feed.FetchAll(context.Background(), c, site+"/feed", feed.PageOptions{})
	if err != nil || f.ETag != `"abc"` || f.NotModified {
		t.Fatalf("first: %v %+v", err, f)
	}
	f, files, err := feed.FetchAll(context.Background(), c, site+"/feed", feed.PageOptions{ETag: f.ETag})
	if err != nil || !f.NotModified || len(f.Items) != 0 || len(files) != 0 {
		t.Errorf("conditional: %v %+v", err, f)
	}
}

func TestFetchAllErrors(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/feed.xml", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, atomPage("http://x", `<link rel="next" href="/broken.xml"/>`, 3, 1))
	})
	mux.HandleFunc("/broken.xml", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(503) })
	mux.HandleFunc("/page.html", func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "<html><body>hi</body></html>") })
	site := serveMux(t, mux).URL
	c := newClient(t)
	f, files, err := feed.FetchAll(context.Background(), c, site+"/feed.xml", feed.PageOptions{})
	var se *fetch.StatusError
	if !errors.As(err, &se) || se.Code != 503 || !blogharvest.IsTransient(err) || f == nil || len(f.Items) != 3 || len(files) != 1 {
		t.Errorf("failing page 2: err %v, feed %v, %d files", err, f != nil, len(files))
	}
	_, _, err = feed.FetchAll(context.Background(), c, site+"/page.html", feed.PageOptions{})
	if !errors.Is(err, feed.ErrNotFeed) {
		t.Errorf("HTML page: %v", err)
	}
	_, _, err = feed.FetchAll(context.Background(), c, site+"/missing", feed.PageOptions{})
	if !errors.As(err, &se) || se.Code != 404 {
		t.Errorf("missing feed: %v", err)
	}
}

// TestFetchAllSharedGUID keeps two posts that share a GUID (as a WordPress
// import can leave them) and still drops an item repeated across pages.
func TestFetchAllSharedGUID(t *testing.T) {
	item := func(site, slug string) string {
		return fmt.Sprintf(`<item><title>%s</title><link>%s/%s/</link><guid isPermaLink="false">https://old.example.com/?p=1</guid><pubDate>Mon, 02 Jan 2023 10:00:00 +0000</pubDate></item>`, slug, site, slug)
	}
	mux := http.NewServeMux()
	srv := serveMux(t, mux)
	page := func(items ...string) string {
		return `<?xml version="1.0"?><rss version="2.0"><channel><title>B</title><link>` + srv.URL + `/</link><generator>https://wordpress.org/?v=6.1</generator>` + strings.Join(items, "") + `</channel></rss>`
	}
	mux.HandleFunc("/feed/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/rss+xml")
		switch r.URL.Query().Get("paged") {
		case "":
			fmt.Fprint(w, page(item(srv.URL, "one"), item(srv.URL, "two")))
		case "2":
			fmt.Fprint(w, page(item(srv.URL, "two"), item(srv.URL, "three")))
		default:
			http.NotFound(w, r)
		}
	})
	f, _, err := feed.FetchAll(context.Background(), newClient(t), srv.URL+"/feed/", feed.PageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, it := range f.Items {
		got = append(got, it.Title)
	}
	if strings.Join(got, " ") != "one two three" {
		t.Errorf("items %q, want one two three", got)
	}
}
