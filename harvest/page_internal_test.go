package harvest

import (
	"bytes"
	"context"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/learn"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// readBytes parses page and reads it as newFetchedPage does.
func readBytes(page []byte, base *url.URL) *pageInfo {
	return readPage(parse(page), base)
}

// parse parses an HTML page.
func parse(page []byte) *html.Node {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		panic(err)
	}
	return doc
}

// TestReadPageNoscript: the markup inside <noscript>, which the parser
// keeps as text, is read as a reader without JavaScript gets it.
func TestReadPageNoscript(t *testing.T) {
	base, _ := url.Parse("http://b.ex/2020/a/")
	pi := readBytes([]byte(`<html><body><nav><noscript><a href="/menu/">m</a></noscript></nav>`+
		`<noscript><iframe src="https://c.ex/comments/embed"></iframe><a href="/p/">p</a></noscript></body></html>`), base)
	if len(pi.links) != 2 || pi.links[0].url != "http://b.ex/menu/" || !pi.links[0].nav || pi.links[1].nav {
		t.Errorf("links = %+v, want /menu/ (navigation) and /p/", pi.links)
	}
	if pi.jsComments != "iframe" {
		t.Errorf("jsComments = %q, want iframe", pi.jsComments)
	}
	if got := stubTarget(parse([]byte(`<html><body><noscript><img src="/px.gif"></noscript></body></html>`)), base, "http://b.ex/other/"); got != "" {
		t.Errorf("a thin page with an image in noscript: stubTarget = %q, want none", got)
	}
}

// TestArticleLinksMatchReparse: the links read from an extraction's
// cleaned article element are those of its ContentHTML parsed again, on
// every fixture and corpus page (the fallbacks' article). ContentHTML
// renders the element's children, so an element of a table (a <tbody>) is
// parsed again in its own context (reparsedLinks).
func TestArticleLinksMatchReparse(t *testing.T) {
	t.Parallel()
	n := 0
	eachTestPage(t, func(path string, raw []byte) {
		base, _ := url.Parse("https://example.org/" + filepath.ToSlash(path))
		ex, _ := (*learn.Rules)(nil).Extract(learn.Page{URL: base.String(), HTML: raw, Root: parse(raw)})
		if ex.ArticleNode == nil {
			return
		}
		n++
		if got, want := articleLinks(ex, base), reparsedLinks(ex, base); !slices.Equal(got, want) {
			t.Errorf("%s: %d links from the article element, %d from ContentHTML", path, len(got), len(want))
		}
	})
	t.Logf("%d articles", n)
}

// reparsedLinks returns the links of ex.ContentHTML parsed again: as a
// document by linksOf (articleLinks' fallback), except when the article
// element is part of a table, whose children (rows, cells) are parsed as
// a fragment of an element like it. Parsed as a document body, rows
// outside a table lose their <tr> and <td> tags, not their links, and
// golang.org/x/net/html appends each cell's text to one text node a piece
// at a time, which is quadratic: thaumatorium's cryptos.html (a <tbody>
// of 5545 rows, 1.1 MB of ContentHTML) took 40 s of the test at load 14,
// more than all the other pages together.
func reparsedLinks(ex learn.Extraction, base *url.URL) []link {
	switch a := ex.ArticleNode.DataAtom; a {
	case atom.Table, atom.Caption, atom.Colgroup, atom.Thead, atom.Tbody, atom.Tfoot, atom.Tr, atom.Td, atom.Th:
		ctx := &html.Node{Type: html.ElementNode, Data: a.String(), DataAtom: a}
		nodes, err := html.ParseFragment(strings.NewReader(ex.ContentHTML), ctx)
		if err != nil {
			return nil
		}
		for _, c := range nodes {
			ctx.AppendChild(c)
		}
		return nodeLinks(ctx, base)
	}
	return linksOf(ex.ContentHTML, base)
}

// eachTestPage calls f with the path and bytes of every HTML page of the
// fixture blogs and of ../shared/corpus (when present).
func eachTestPage(t testing.TB, f func(path string, raw []byte)) {
	for _, dir := range []string{"../testdata/blogs", "../../shared/corpus"} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(p) != ".html" {
				return nil
			}
			raw, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			f(p, raw)
			return nil
		})
	}
}

// TestRenderReasonJSComments: render:auto renders a page for the comment
// system its markers show, searched in its bytes only then; a script the
// walk found that the browser may not load outranks the markers and asks
// for nothing; a crawl that never renders asks for nothing.
func TestRenderReasonJSComments(t *testing.T) {
	base := mustURL(t, "http://b.ex/p/")
	job := func(page string) *pageJob {
		return &pageJob{page: &fetchedPage{html: []byte(page), info: readBytes([]byte(page), base)}}
	}
	ex := learn.Extraction{ContentText: "text", Comments: []learn.Comment{{ContentText: "hi"}}}
	disqus := job(`<html><body><p>text</p><div id="disqus_thread"></div></body></html>`)
	w := &pageWorker{fetch: testFetching(Options{Render: RenderAuto})}
	if got := w.renderReason(context.Background(), disqus, false, ex, nil); got != (renderWhy{ReasonCommentSystem, "comments by disqus"}) {
		t.Errorf("render:auto, Disqus markers: reason %q, want comments by disqus", got)
	}
	blocked := job(`<html><body><script src="ftp://c.ex/comments.js"></script><div id="disqus_thread"></div></body></html>`)
	if got := w.renderReason(context.Background(), blocked, false, ex, nil); got.key != "" {
		t.Errorf("render:auto, a comment script the browser may not load: reason %q, want none", got)
	}
	w.fetch.cfg.render.mode = RenderNever
	if got := w.renderReason(context.Background(), disqus, false, ex, nil); got.key != "" {
		t.Errorf("render:never: reason %q, want none", got)
	}
}
