package harvest_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestNotHTMLSkipsSummedUp is finding 6 of issue 37: one blog's comment
// feeds gave 76 of the first 83 log lines, "page skipped: not an HTML
// page" each. At info level the crawl now logs no such line per page but
// one summary, whose count equals the ledger's skipped rows of that kind.
func TestNotHTMLSkipsSummedUp(t *testing.T) {
	srv := httptest.NewServer(commentFeedSite(12))
	defer srv.Close()
	logs := &syncBuffer{}
	o := options("wp", srv.URL)
	o.Logger = slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelInfo}))
	res, _ := crawl(t, o)
	skipped := 0
	for _, r := range res.Ledger {
		if strings.Contains(r.Detail, "not an HTML page") {
			skipped++
		}
	}
	if skipped == 0 {
		t.Fatal("the ledger lists no page skipped as not HTML: the fixture no longer tests this")
	}
	out := logs.String()
	if n := strings.Count(out, "page skipped: not an HTML page"); n > 0 {
		t.Errorf("%d info lines for single pages skipped as not HTML, want none (debug level)", n)
	}
	m := regexp.MustCompile(`msg="pages skipped: not HTML[^"]*" pages=(\d+) media_types="([^"]+)"`).FindAllStringSubmatch(out, -1)
	if len(m) != 1 {
		t.Fatalf("%d summary lines of pages skipped as not HTML, want 1:\n%s", len(m), out)
	}
	if n, _ := strconv.Atoi(m[0][1]); n != skipped || !strings.Contains(m[0][2], "xml") {
		t.Errorf("summary: %q pages, types %q; the ledger lists %d", m[0][1], m[0][2], skipped)
	}
}

// commentFeedSite is a blog of n posts, each linking to its comment feed
// at a URL that does not look like a feed (/talk/i), served as RSS.
func commentFeedSite(n int) http.Handler {
	mux := http.NewServeMux()
	post := func(i int) string { return fmt.Sprintf("/2024/01/%02d/post-%d/", i+1, i) }
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!DOCTYPE html><html lang="en"><head><title>Talk blog</title><link rel="alternate" type="application/rss+xml" href="/rss.xml"></head><body><main>`)
		for i := range n {
			fmt.Fprintf(w, `<p><a href="%s">Post %d</a></p>`, post(i), i)
		}
		fmt.Fprint(w, `</main></body></html>`)
	})
	mux.HandleFunc("/rss.xml", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/rss+xml")
		fmt.Fprintf(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>Talk blog</title><link>http://%s/</link>`, r.Host)
		for i := range n {
			fmt.Fprintf(w, `<item><title>Post %d</title><link>http://%s%s</link><pubDate>%s</pubDate></item>`, i, r.Host, post(i),
				fmt.Sprintf("Mon, %02d Jan 2024 10:00:00 +0000", i+1))
		}
		fmt.Fprint(w, `</channel></rss>`)
	})
	mux.HandleFunc("/2024/01/{day}/{slug}/", func(w http.ResponseWriter, r *http.Request) {
		var i int
		fmt.Sscanf(r.PathValue("slug"), "post-%d", &i)
		fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><title>Post %d</title></head><body><article><h1>Post %d</h1>
<p>%s</p><p><a href="/talk/%d">Comments on post %d</a></p></article></body></html>`, i, i, strings.Repeat("Words of a post. ", 40), i, i)
	})
	mux.HandleFunc("/talk/{i}", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/rss+xml")
		fmt.Fprintf(w, `<?xml version="1.0"?><rss version="2.0"><channel><title>Comments</title></channel></rss>`)
	})
	return mux
}
