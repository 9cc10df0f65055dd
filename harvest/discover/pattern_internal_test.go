package discover

import (
	"net/url"
	"testing"
)

// urls parses raws, which are canonical already.
func urls(t testing.TB, raws ...string) []*url.URL {
	t.Helper()
	out := make([]*url.URL, len(raws))
	for i, r := range raws {
		u, err := url.Parse(r)
		if err != nil {
			t.Fatalf("bad URL %q", r)
		}
		out[i] = u
	}
	return out
}

func TestPatternWordPressDates(t *testing.T) {
	feed := urls(t, "http://b.ex/2013/08/28/first-post/", "http://b.ex/2013/08/30/second/", "http://b.ex/2013/09/01/third-one/")
	p := LearnPattern(feed)
	p.verify(urls(t, "http://b.ex/", "http://b.ex/tag/x/", "http://b.ex/about/"), feed)
	match := []string{"http://b.ex/2012/01/05/old-post/", "http://b.ex/2013/08/28/first-post/"}
	noMatch := []string{"http://b.ex/tag/x/", "http://b.ex/2013/08/", "http://b.ex/about/", "http://b.ex/page/2/",
		"http://b.ex/2013/08/28/first-post/comment-page-2/", "http://b.ex/category/a/b/c/d/"}
	checkPattern(t, p, match, noMatch)
}

func TestPatternSingleSegmentSlugs(t *testing.T) {
	feed := urls(t, "http://m.ex/be-kind/", "http://m.ex/less-stuff/", "http://m.ex/on-walking/")
	p := LearnPattern(feed)
	p.verify(urls(t, "http://m.ex/", "http://m.ex/archives/", "http://m.ex/uncopyright/"), feed)
	checkPattern(t, p, []string{"http://m.ex/some-older-post/"},
		[]string{"http://m.ex/archives/", "http://m.ex/uncopyright/", "http://m.ex/tag/", "http://m.ex/a/b/"})
}

func TestPatternBloggerAndQuery(t *testing.T) {
	feed := urls(t, "http://d.ex/2013/08/one-thing.html", "http://d.ex/2013/07/other.html")
	p := LearnPattern(feed)
	p.verify(urls(t, "http://d.ex/search/label/x"), feed)
	checkPattern(t, p, []string{"http://d.ex/2012/12/old.html"},
		[]string{"http://d.ex/2013/07/", "http://d.ex/search/label/x", "http://d.ex/2013/07/x.php"})

	q := LearnPattern(urls(t, "http://w.ex/?p=12", "http://w.ex/?p=40"))
	checkPattern(t, q, []string{"http://w.ex/?p=7"}, []string{"http://w.ex/?page_id=7", "http://w.ex/?p=x", "http://w.ex/"})

	tumblr := LearnPattern(urls(t, "http://t.ex/post/59190266995/a-slug", "http://t.ex/post/591903/other-slug"))
	checkPattern(t, tumblr, []string{"http://t.ex/post/1/x"}, []string{"http://t.ex/tagged/1/x"})
}

func checkPattern(t *testing.T, p *Pattern, match, noMatch []string) {
	t.Helper()
	for _, m := range match {
		if !p.Match(urls(t, m)[0]) {
			t.Errorf("pattern %s does not match post %s", p, m)
		}
	}
	for _, m := range noMatch {
		if p.Match(urls(t, m)[0]) {
			t.Errorf("pattern %s matches non-post %s", p, m)
		}
	}
}
