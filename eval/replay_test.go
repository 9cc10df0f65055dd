package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tinyCorpus writes a made-up WordPress-like blog "tiny" on host
// tiny.example with n posts (newest first in the feed), a home page
// linking to the newest two, and each post linking to the one before it,
// except post 1, which nothing links to. It returns the corpus folder.
func tinyCorpus(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	blog := filepath.Join(dir, "tiny")
	site := filepath.Join(blog, "site", "tiny.example")
	write(t, filepath.Join(blog, "blog.json"), `{"name":"tiny","url":"https://tiny.example/","feed":"https://tiny.example/feed/",
"hosts":["tiny.example"],"language":"en","feed_full_text":true,"posts":`+fmt.Sprint(n)+`}`)
	var items, home strings.Builder
	for i := n; i >= 1; i-- {
		link := fmt.Sprintf("https://tiny.example/2024/01/%02d/post-%d/", i, i)
		body := tinyBody(i)
		fmt.Fprintf(&items, `<item><title>Post number %d</title><link>%s</link><dc:creator>Ann Author</dc:creator>
<pubDate>%s</pubDate><content:encoded><![CDATA[%s]]></content:encoded></item>`, i, link,
			fmt.Sprintf("Mon, %02d Jan 2024 10:00:00 +0000", i), body)
		prev := ""
		if i > 2 {
			prev = fmt.Sprintf(`<a rel="prev" href="/2024/01/%02d/post-%d/">previous</a>`, i-1, i-1)
		}
		write(t, filepath.Join(site, "2024", "01", fmt.Sprintf("%02d", i), fmt.Sprintf("post-%d", i), "index.html"),
			fmt.Sprintf(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>Post number %d – Tiny</title></head><body>
<nav><a href="/">Tiny</a> <a href="/about/">About</a></nav><article class="post"><h1 class="entry-title">Post number %d</h1>
<span class="byline">Ann Author</span> <time class="published" datetime="2024-01-%02dT10:00:00+00:00">January %d, 2024</time>
<div class="entry-content">%s</div></article>%s<footer>Tiny runs on nothing at all.</footer></body></html>`, i, i, i, i, body, prev))
		if i > n-2 {
			fmt.Fprintf(&home, `<a href="%s">Post number %d</a>`, link, i)
		}
	}
	write(t, filepath.Join(site, "feed", "index.html"), `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:dc="http://purl.org/dc/elements/1.1/"><channel>
<title>Tiny</title><link>https://tiny.example/</link><description>A tiny blog</description>`+items.String()+`</channel></rss>`)
	write(t, filepath.Join(site, "index.html"), `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Tiny</title>
<link rel="alternate" type="application/rss+xml" href="https://tiny.example/feed/"></head><body>`+home.String()+`</body></html>`)
	return dir
}

// tinyBody makes a distinct article for post i.
func tinyBody(i int) string {
	words := []string{"harbour", "lantern", "meadow", "copper", "violet", "thunder", "orchard", "pebble", "saddle", "willow"}
	var b strings.Builder
	for p := 0; p < 3; p++ {
		b.WriteString("<p>")
		for w := 0; w < 25; w++ {
			b.WriteString(words[(i*7+p*3+w*w)%len(words)] + " ")
		}
		fmt.Fprintf(&b, "paragraph %d of post %d.</p>", p, i)
	}
	return b.String()
}

// write creates a file with its folders.
func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// tinyReplay starts the replay server over a tiny corpus.
func tinyReplay(t *testing.T, n int) (*replay, *http.Client) {
	t.Helper()
	blogs, err := loadCorpus(tinyCorpus(t, n), nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := newReplay(blogs[0])
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	c := &http.Client{Transport: newLoopback(r.srv), CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}
	return r, c
}

// TestReplayRules checks the corpus README's serving rules through the
// loopback transport, with https URLs of the original host.
func TestReplayRules(t *testing.T) {
	_, c := tinyReplay(t, 4)
	cases := []struct {
		url, status, ctype, contains string
	}{
		{"https://tiny.example/", "200", "text/html", "Post number 4"},
		{"https://tiny.example/2024/01/03/post-3/?replytocom=5#c", "200", "text/html", "Post number 3"},
		{"https://tiny.example/2024/01/03/post-3", "301", "", ""},
		{"https://tiny.example/feed/", "200", "application/xml", "Post number 3"},
		{"https://tiny.example/feed/?paged=2", "404", "", ""},
		{"https://tiny.example/style.css", "404", "", ""},
		{"https://elsewhere.example/", "404", "", ""},
	}
	for _, tc := range cases {
		resp, err := c.Get(tc.url)
		if err != nil {
			t.Fatalf("GET %s: %v", tc.url, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if got := fmt.Sprint(resp.StatusCode); got != tc.status {
			t.Errorf("GET %s: status %s, want %s", tc.url, got, tc.status)
		}
		if !strings.HasPrefix(resp.Header.Get("Content-Type"), tc.ctype) {
			t.Errorf("GET %s: content type %q, want %s", tc.url, resp.Header.Get("Content-Type"), tc.ctype)
		}
		if !strings.Contains(string(body), tc.contains) {
			t.Errorf("GET %s: body lacks %q", tc.url, tc.contains)
		}
		if resp.Request.URL.Host != "tiny.example" && !strings.Contains(tc.url, "elsewhere") {
			t.Errorf("GET %s: response request host %s, want the original", tc.url, resp.Request.URL.Host)
		}
	}
}

// TestReplayCutFeed checks that the served feed holds only the newer half
// and that the older half is held out.
func TestReplayCutFeed(t *testing.T) {
	r, _ := tinyReplay(t, 5)
	if len(r.kept) != 3 || len(r.heldOut) != 2 {
		t.Fatalf("kept %d, held out %d; want 3 and 2", len(r.kept), len(r.heldOut))
	}
	feed := string(r.feed)
	for i := 1; i <= 5; i++ {
		has := strings.Contains(feed, fmt.Sprintf("<title>Post number %d</title>", i))
		if has != (i > 2) {
			t.Errorf("cut feed has post %d: %v, want %v", i, has, i > 2)
		}
	}
}

// TestReachable checks the discovery truth: post 1 is linked from no page.
func TestReachable(t *testing.T) {
	blogs, err := loadCorpus(tinyCorpus(t, 4), nil)
	if err != nil {
		t.Fatal(err)
	}
	b := blogs[0]
	reach := reachable(b, []string{b.URL})
	for i := 1; i <= 4; i++ {
		f := b.fileFor(fmt.Sprintf("https://tiny.example/2024/01/%02d/post-%d/", i, i))
		if reach[f] != (i > 1) {
			t.Errorf("post %d reachable = %v, want %v", i, reach[f], i > 1)
		}
	}
}

// TestTinyCrawl runs crawl mode on the tiny corpus: the older half minus
// the unlinked post 1 is the discovery truth.
func TestTinyCrawl(t *testing.T) {
	r, md, _ := runMain(t, "-corpus", tinyCorpus(t, 8), "-mode", "crawl")
	ours := checkReport(t, r, modeCrawl, []string{systemOurs})
	t.Log("\n" + md)
	d := obj(t, ours, "discovery")
	if n, u := number(t, d, "n"), number(t, d, "unreachable"); n != 3 || u != 1 {
		t.Errorf("discovery n = %v, unreachable = %v; want 3 and 1", n, u)
	}
	if got := number(t, d, "found"); got != 3 {
		t.Errorf("found %v of the 3 reachable held-out posts", got)
	}
	if h, f := number(t, d, "held_out"), number(t, d, "found_all"); h != 4 || f != 3 {
		t.Errorf("discovery held_out = %v, found_all = %v; want 4 and 3 (the unlinked post counts against it)", h, f)
	}
	if !strings.Contains(md, "| 75.0 % (3/4) | 100.0 % (3/3) |") {
		t.Errorf("markdown lacks discovery over all held-out posts and over reachable ones")
	}
	if got := rate(t, ours, "article"); got != 1 {
		t.Errorf("article success %.2f on tiny, want 1", got)
	}
}

// TestTinyExtract runs extract mode on the tiny corpus with every system.
func TestTinyExtract(t *testing.T) {
	r, md, svg := runMain(t, "-corpus", tinyCorpus(t, 8), "-mode", "extract")
	ours := checkReport(t, r, modeExtract, allSystems)
	t.Log("\n" + md)
	checkPlot(t, svg, len(allSystems)+1)
	if got := number(t, obj(t, ours, "article"), "n"); got != 8 {
		t.Errorf("article n = %v, want 8 (every post tested once)", got)
	}
	for _, f := range []string{"article", "title", "author", "date"} {
		if got := rate(t, ours, f); got != 1 {
			t.Errorf("%s success %.2f on tiny, want 1", f, got)
		}
	}
}
