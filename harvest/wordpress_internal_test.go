package harvest

import (
	"net/url"
	"slices"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/learn"
)

func TestCommentedPostDropsCommentPage(t *testing.T) {
	for in, want := range map[string]string{
		"http://b.ex/2012/01/03/post/comment-page-1/#comment-927": "http://b.ex/2012/01/03/post/",
		"http://b.ex/2012/01/03/post/#comment-5":                  "http://b.ex/2012/01/03/post/",
		"http://b.ex/comment-page-2/":                             "http://b.ex/",
	} {
		if got := commentedPost(in); got == nil || got.String() != want {
			t.Errorf("commentedPost(%q) = %v, want %s", in, got, want)
		}
	}
}

func TestStripProtectedPrefix(t *testing.T) {
	for in, want := range map[string]string{
		"Protected: Template: Password Protected": "Template: Password Protected",
		"Protégé : Mon billet":                    "Mon billet",
		"Protected:":                              "Protected:",
		"A title":                                 "A title",
	} {
		if got := stripProtectedPrefix(in); got != want {
			t.Errorf("stripProtectedPrefix(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSplitTagsByTaxonomyLinks(t *testing.T) {
	base, _ := url.Parse("http://b.ex/2012/01/03/post/")
	page := `<div class="entry-content"><a href="/tag/css/" rel="tag">not meta</a></div>
<footer><span class="cat-links"><a href="/category/classic/" rel="category tag">Classic</a>, <a href="/category/template/" rel="category tag">Template</a></span>
<span class="tags-links"><a href="/tag/comments-2/" rel="tag">comments</a>, <a href="/tag/template-2/" rel="tag">template</a>, <a href="/tag/both/" rel="tag">Both</a></span>
<a href="/category/both/" rel="category tag">Both</a></footer>`
	info := readBytes([]byte(page), base)
	cats, tags := splitTags([]string{"Classic", "Template", "comments", "template", "Both", "Both"}, info)
	if !slices.Equal(cats, []string{"Classic", "Template", "Both"}) || !slices.Equal(tags, []string{"comments", "template", "Both"}) {
		t.Errorf("categories %q tags %q", cats, tags)
	}
	cats, tags = splitTags(nil, info) // no feed: the page's own lists
	if !slices.Equal(cats, []string{"Classic", "Template", "Both"}) || len(tags) != 4 {
		t.Errorf("from the page: categories %q tags %q", cats, tags)
	}
	blogger := readBytes([]byte(`<a href="/search/label/x" rel="tag">x</a>`), base)
	if cats, tags := splitTags([]string{"x"}, blogger); !slices.Equal(cats, []string{"x"}) || tags != nil {
		t.Errorf("Blogger labels: categories %q tags %q", cats, tags)
	}
	cats, tags = splitTags([]string{"Classic", "Both"}, info) // WordPress feeds name a shared term once
	if !slices.Equal(cats, []string{"Classic", "Both"}) || !slices.Equal(tags, []string{"Both"}) {
		t.Errorf("shared name listed once: categories %q tags %q", cats, tags)
	}
}

func TestMediaHosts(t *testing.T) {
	home, _ := url.Parse("http://127.0.0.1:8080/")
	public, _ := url.Parse("https://blog.example.org/")
	for _, tc := range []struct {
		home  *url.URL
		opt   string
		media string
		want  bool
	}{
		{home, "", "http://127.0.0.1:8080/wp-content/a.jpg", true},
		{home, "", "https://upload.wikimedia.org/a.ogg", false},
		{home, MediaAnyHost, "https://upload.wikimedia.org/a.ogg", true},
		{public, "", "https://upload.wikimedia.org/a.ogg", true},
		{public, MediaSameHost, "https://upload.wikimedia.org/a.ogg", false},
		{public, MediaSameHost, "https://www.blog.example.org/a.png", true},
	} {
		c := &pageWorker{site: &site{home: tc.home, scope: newScope(tc.home, nil, nil)}, fetch: testFetching(Options{MediaHosts: tc.opt})}
		if got := c.mediaHostAllowed(tc.media); got != tc.want {
			t.Errorf("blog %s, MediaHosts %q: %s allowed = %v, want %v", tc.home, tc.opt, tc.media, got, tc.want)
		}
	}
	for h, want := range map[string]bool{"localhost": true, "10.1.2.3": true, "::1": true, "192.168.0.1": true, "8.8.8.8": false, "example.org": false} {
		if isPrivateHost(h) != want {
			t.Errorf("isPrivateHost(%q) = %v", h, !want)
		}
	}
}

func TestPostPageLinks(t *testing.T) {
	u, _ := url.Parse("http://b.ex/2012/01/08/paginated/")
	page := `<nav class="page-links"><span class="post-page-numbers current">1</span> <a href="/2012/01/08/paginated/3/" class="post-page-numbers">3</a> <a href="/2012/01/08/paginated/2/" class="post-page-numbers">2</a></nav>
<a href="/2012/01/08/other/2/">other post</a> <a href="/2012/01/08/paginated/comment-page-1/">c</a> <a href="/2012/01/08/paginated/feed/">f</a>`
	p := &fetchedPage{url: u, ident: u.String(), info: readBytes([]byte(page), u)}
	want := []string{"http://b.ex/2012/01/08/paginated/2/", "http://b.ex/2012/01/08/paginated/3/"}
	if got := postPageLinks(p); !slices.Equal(got, want) {
		t.Errorf("postPageLinks = %q, want %q", got, want)
	}
}

func TestListingIsNoContent(t *testing.T) {
	u, _ := url.Parse("http://b.ex/type/aside/")
	one := readBytes([]byte(`<article class="post"><p>x</p><article id="div-comment-3" class="comment-body">c</article></article>`), u)
	two := readBytes([]byte(`<article class="post">a</article><article class="post">b</article>`), u)
	if one.articles != 1 || two.articles != 2 {
		t.Errorf("articles: %d with a comment, %d in a listing; want 1, 2", one.articles, two.articles)
	}
}

func TestStripPageLinks(t *testing.T) {
	in := `<p>Post Page 1</p><nav class="page-links"><span class="post-page-numbers current">Page 1</span> <a class="post-page-numbers" href="/p/2/">Page 2</a></nav><p>End</p>`
	if got, want := stripPageLinks(in), `<p>Post Page 1</p><p>End</p>`; got != want {
		t.Errorf("stripPageLinks = %q, want %q", got, want)
	}
	if plain := "<p>No pages</p>"; stripPageLinks(plain) != plain {
		t.Errorf("a fragment without page links changed")
	}
}

func TestFillContentShortPostOfFullFeed(t *testing.T) {
	surroundings := learn.Extraction{ContentHTML: "<h1>Edge Case: No Content</h1><p>Published August 6, 2009 By Theme Buster</p>",
		ContentText: "Edge Case: No Content Published August 6, 2009 By Theme Buster",
		Methods:     blogharvest.Provenance{learn.FieldContent: blogharvest.MethodHeuristic}}
	for _, tc := range []struct{ feedHTML, want string }{
		{"", ""},
		{`<p><img src="/a.jpg" alt=""></p>`, `<p><img src="/a.jpg" alt=""></p>`},
	} {
		r := &reading{cfg: readConfig{full: true}}
		e := &blogharvest.Entry{}
		r.fillContent(e, &feed.Item{Content: tc.feedHTML}, surroundings, nil)
		if e.Content != tc.want {
			t.Errorf("feed %q: content %q, want the feed's", tc.feedHTML, e.Content)
		}
	}
	r := &reading{cfg: readConfig{full: false}} // a summary feed: the page's extraction stays
	e := &blogharvest.Entry{}
	r.fillContent(e, &feed.Item{Content: ""}, surroundings, nil)
	if e.Content != surroundings.ContentHTML {
		t.Errorf("summary feed: content %q", e.Content)
	}
}
