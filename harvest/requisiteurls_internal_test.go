package harvest

import (
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestRequisiteRefs: every kind of requisite a page names is found, once,
// resolved against <base href>, with stylesheets and frames marked; links
// to other pages, data: URLs and fragments are not requisites.
func TestRequisiteRefs(t *testing.T) {
	const page = `<!doctype html><html><head><base href="https://blog.example/theme/">
<link rel="stylesheet" href="style.css"><link rel="icon" href="/favicon.png"><link rel="alternate" href="/feed/">
<link rel="preload" as="style" href="print.css"><script src="https://cdn.example.net/app.js"></script>
<style>@import "more.css"; body{background:url('bg.png')}</style></head>
<body background="paper.gif"><a href="/other/">page</a>
<img src="a.png" srcset="a-300.png 300w, a-600.png 600w" data-src="lazy.png">
<picture><source srcset="b.webp 1x,b@2x.webp 2x"><img src="b.png"></picture>
<video poster="poster.jpg"><source src="clip.mp4"></video><div style="background-image:url(&quot;div.png&quot;)"></div>
<iframe src="https://embed.example.org/frame"></iframe><img src="data:image/png;base64,AAAA"><img src="#top">
</body></html>`
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	base, _ := url.Parse("https://blog.example/post/")
	var got []string
	for _, r := range requisiteRefs(doc, base) {
		got = append(got, r.url+map[refKind]string{refPlain: "", refCSS: " css", refIframe: " frame"}[r.kind])
	}
	const th = "https://blog.example/theme/"
	want := []string{th + "style.css css", "https://blog.example/favicon.png", th + "print.css css", "https://cdn.example.net/app.js",
		th + "more.css css", th + "bg.png", th + "paper.gif", th + "a.png", th + "lazy.png", th + "a-300.png", th + "a-600.png",
		th + "b.webp", th + "b@2x.webp", th + "b.png", th + "poster.jpg", th + "clip.mp4", th + "div.png", "https://embed.example.org/frame frame"}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("requisites\n got %q\nwant %q", got, want)
	}
}

// TestCSSRefs: @import in its forms and url() in its quotings, comments
// ignored.
func TestCSSRefs(t *testing.T) {
	css := `/* url(commented.png) */ @import url("a.css"); @import 'b.css' screen; @import c.css;
@font-face{src:url(f.woff2) format("woff2"),url( 'f.ttf' )} .x{background:url("x.png")}`
	var got []string
	for _, r := range cssRefs(css) {
		got = append(got, r.url+map[refKind]string{refPlain: "", refCSS: " css"}[r.kind])
	}
	want := []string{"a.css css", "b.css css", "c.css css", "f.woff2", "f.ttf", "x.png"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestCSSRefsLiteralCheck: the look for "url(" and "@import" before the
// regular expressions misses no reference: any case, and a comment that
// splits the word (removed first, as the expressions saw it).
func TestCSSRefsLiteralCheck(t *testing.T) {
	for css, want := range map[string]string{
		".a{BACKGROUND:URL(x.png)}":            "x.png",
		"@IMPORT 'a.css';":                     "a.css",
		".b{background:uR/* split */l(y.png)}": "y.png",
		".c{color:red} /* url(z.png) */":       "",
		"uRl":                                  "",
	} {
		var got string
		for _, r := range cssRefs(css) {
			got += r.url
		}
		if got != want {
			t.Errorf("cssRefs(%q) = %q, want %q", css, got, want)
		}
	}
}

// TestSrcsetURLs: candidates split as the HTML standard says, commas inside
// URLs kept.
func TestSrcsetURLs(t *testing.T) {
	got := srcsetURLs(" a.png 1x,b,c.png 2x , d.png")
	want := []string{"a.png", "b,c.png", "d.png"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestRequisiteRefusal: the one decision for the Go client and the
// browser: none refuses all; same-origin only the blog's hosts; all any
// public host but a literal private address or localhost name elsewhere.
func TestRequisiteRefusal(t *testing.T) {
	home, _ := url.Parse("http://127.0.0.1:8080/")
	w := &pageWorker{site: &site{scope: newScope(home, nil, []*regexp.Regexp{})}, fetch: testFetching(Options{})}
	cases := []struct {
		mode, url string
		ok        bool
	}{
		{RequisitesAll, "http://127.0.0.1:8080/style.css", true},
		{RequisitesAll, "https://cdn.example.net/app.js", true},
		{RequisitesAll, "http://10.0.0.5/x.png", false},
		{RequisitesAll, "http://127.0.0.1:9090/x.png", false}, // another port: another origin
		{RequisitesAll, "http://localhost:8080/x.png", false},
		{RequisitesAll, "ftp://127.0.0.1:8080/x", false},
		{RequisitesSameOrigin, "http://127.0.0.1:8080/style.css", true},
		{RequisitesSameOrigin, "https://cdn.example.net/app.js", false},
		{RequisitesNone, "http://127.0.0.1:8080/style.css", false},
	}
	for _, c := range cases {
		w.fetch.cfg.req.mode = c.mode
		if why := w.requisiteRefusal(c.url); (why == "") != c.ok {
			t.Errorf("%s %s: refusal %q, want allowed %v", c.mode, c.url, why, c.ok)
		}
	}
}
