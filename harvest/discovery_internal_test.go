package harvest

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

func mustURL(t testing.TB, raw string) *url.URL {
	t.Helper()
	u := mustCanonical(raw)
	if u == nil {
		t.Fatalf("bad URL %q", raw)
	}
	return u
}

func urls(t testing.TB, raws ...string) []*url.URL {
	out := make([]*url.URL, len(raws))
	for i, r := range raws {
		out[i] = mustURL(t, r)
	}
	return out
}

func TestKNNPrefersSimilarPages(t *testing.T) {
	m := newKNN(3, 4)
	if got := m.predict(mustURL(t, "http://b.ex/page/9/")); got != 1 {
		t.Errorf("prior = %v, want 1", got)
	}
	for i := 2; i <= 4; i++ {
		m.train(mustURL(t, fmt.Sprintf("http://b.ex/page/%d/", i)), 10)
	}
	m.train(mustURL(t, "http://b.ex/about/"), 0)
	m.train(mustURL(t, "http://b.ex/contact/"), 0) // evicts page/2 (ring of 4)
	paging := m.predict(mustURL(t, "http://b.ex/page/7/"))
	about := m.predict(mustURL(t, "http://b.ex/colophon/"))
	if paging <= about || paging < 5 {
		t.Errorf("paging estimate %v, about-like estimate %v: want paging far higher", paging, about)
	}
	if len(m.samples) != 4 {
		t.Errorf("kept %d samples, want the ring size 4", len(m.samples))
	}
}

func TestFrontierOrderAndOnce(t *testing.T) {
	f := newFrontier()
	f.push(task{url: "a", prio: 1})
	f.push(task{url: "b", prio: prioPost})
	f.push(task{url: "c", prio: 1})
	if f.push(task{url: "a", prio: prioPost}) {
		t.Error("a queued twice")
	}
	f.mark("d")
	if f.push(task{url: "d"}) {
		t.Error("marked URL queued")
	}
	var got []string
	for t, ok := f.pop(); ok; t, ok = f.pop() {
		got = append(got, t.url)
	}
	if strings.Join(got, "") != "bac" {
		t.Errorf("order %v, want b a c", got)
	}
}

func TestScope(t *testing.T) {
	s := newScope(mustURL(t, "http://www.b.ex/blog/"), []*regexp.Regexp{regexp.MustCompile(`^http://cdn\.ex/posts/`)},
		[]*regexp.Regexp{regexp.MustCompile(`/private/`)})
	in := []string{"http://www.b.ex/blog/a/", "https://b.ex/blog/", "http://www.b.ex/blog", "http://cdn.ex/posts/1"}
	out := []string{"http://www.b.ex/other/", "http://evil.ex/blog/", "http://www.b.ex/blog/private/x", "http://cdn.ex/img/1"}
	for _, u := range in {
		if !s.contains(mustURL(t, u)) {
			t.Errorf("%s out of scope", u)
		}
	}
	for _, u := range out {
		if s.contains(mustURL(t, u)) {
			t.Errorf("%s in scope", u)
		}
	}
}

func TestIsBinaryURL(t *testing.T) {
	bin := []string{"http://b.ex/wp-content/uploads/a.jpg", "http://b.ex/file.PDF", "http://b.ex/feed/", "http://b.ex/x/feed/",
		"http://b.ex/wp-login.php", "http://b.ex/?feed=rss2", "http://b.ex/s.css", "http://b.ex/sitemap.xml", "http://b.ex/a.mp3"}
	page := []string{"http://b.ex/2013/08/a-post/", "http://b.ex/2013/07/x.html", "http://b.ex/feedback-wanted/", "http://b.ex/?p=3",
		"http://b.ex/rss-tips/", "http://b.ex/search/label/x"}
	for _, u := range bin {
		if !isBinaryURL(mustURL(t, u)) {
			t.Errorf("%s not seen as binary", u)
		}
	}
	for _, u := range page {
		if isBinaryURL(mustURL(t, u)) {
			t.Errorf("%s seen as binary", u)
		}
	}
}

func TestReadPage(t *testing.T) {
	page := `<html lang="fr"><head><link rel="canonical" href="/2013/08/28/p/?utm_source=x">
<link rel="shortlink" href="/?p=5"><link rel="alternate" type="application/rss+xml" href="/2013/08/28/p/feed/">
<meta property="og:type" content="article"></head><body>
<header><nav><a href="/about/">About</a></nav></header>
<a href="/2013/08/27/older/#comments">older</a> <a href="javascript:x()">js</a> <a href="mailto:a@b">m</a>
<form class="post-password-form" action="/wp-login.php?action=postpass"></form>
<div id="disqus_thread"></div></body></html>`
	pi := readBytes([]byte(page), mustURL(t, "http://b.ex/2013/08/28/p/"))
	if pi.canonical != "http://b.ex/2013/08/28/p/" || pi.shortlink != "http://b.ex/?p=5" || pi.lang != "fr" {
		t.Errorf("canonical %q shortlink %q lang %q", pi.canonical, pi.shortlink, pi.lang)
	}
	if !pi.password || pi.jsSystem([]byte(page)) != "disqus" || !pi.ogArticle || len(pi.feeds) != 1 {
		t.Errorf("password %v js %q og %v feeds %v", pi.password, pi.jsSystem([]byte(page)), pi.ogArticle, pi.feeds)
	}
	if len(pi.links) != 2 || !pi.links[0].nav || pi.links[1].nav || pi.links[1].url != "http://b.ex/2013/08/27/older/" {
		t.Errorf("links %+v", pi.links)
	}
}

func TestMediaURLs(t *testing.T) {
	content := `<p><img src="data:image/gif;base64,R0" data-src="/img/a.jpg"></p>
<img src="/img/b-300.jpg" srcset="/img/b-300.jpg 300w, /img/b-1024.jpg 1024w, /img/b-600.jpg 600w">
<audio src="http://cdn.ex/s.mp3"></audio><video poster="/v.jpg"><source src="/v.mp4"></video>
<a href="/docs/report.pdf">report</a> <a href="/2013/other/">post</a> <img src="/img/a.jpg#x">`
	got := mediaURLs(content, mustURL(t, "http://b.ex/2013/p/"))
	want := []string{"http://b.ex/img/a.jpg", "http://b.ex/img/b-300.jpg", "http://b.ex/img/b-1024.jpg",
		"http://cdn.ex/s.mp3", "http://b.ex/v.jpg", "http://b.ex/v.mp4", "http://b.ex/docs/report.pdf"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("media\n got %q\nwant %q", got, want)
	}
}

func TestListingAndPlatformPages(t *testing.T) {
	listing := []string{"http://b.ex/page/2/", "http://b.ex/archive.html", "http://b.ex/tag/x/", "http://b.ex/?paged=3",
		"http://b.ex/search/label/x", "http://b.ex/search?updated-max=2013-01-01"}
	for _, u := range listing {
		if !isListingPath(mustURL(t, u)) {
			t.Errorf("%s not seen as a listing", u)
		}
	}
	for _, u := range []string{"http://b.ex/about/", "http://b.ex/p/contact.html", "http://b.ex/pages-i-like/"} {
		if isListingPath(mustURL(t, u)) {
			t.Errorf("%s seen as a listing", u)
		}
	}
	if !isPlatformPage(mustURL(t, "http://b.ex/p/about.html")) || isPlatformPage(mustURL(t, "http://b.ex/p/x/y.html")) {
		t.Error("Blogger /p/ pages misjudged")
	}
}

func TestIsTrap(t *testing.T) {
	trap := []string{"http://b.ex/a/b/a/b/a/b/", "http://b.ex/" + strings.Repeat("x", 600),
		"http://b.ex/1/2/3/4/5/6/7/8/9/10/11/12/13/"}
	ok := []string{"http://b.ex/2013/08/08/slug/", "http://b.ex/tag/x/page/2/", "http://b.ex/2013/01/01/01/"}
	for _, u := range trap {
		if !isTrap(mustURL(t, u)) {
			t.Errorf("%s not seen as a trap", u)
		}
	}
	for _, u := range ok {
		if isTrap(mustURL(t, u)) {
			t.Errorf("%s seen as a trap", u)
		}
	}
}
