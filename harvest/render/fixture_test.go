package render_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/render"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// TestFixtureJSComments renders posts of the "jscomments" fixture blog, whose
// comments only exist after its script ran (behind "Load more comments", or
// in an iframe), and finds every comment of its Truth by id in the rendered
// DOM or a captured frame; the post whose article a script builds must show
// its body.
func TestFixtureJSComments(t *testing.T) {
	t.Parallel()
	b := browser(t)
	s, err := fixture.New("jscomments")
	if err != nil {
		t.Skipf("fixture blog not available yet: %v", err)
	}
	srv := httptest.NewServer(s.Handler())
	defer srv.Close()
	for _, p := range pickPosts(t, s.Truth(srv.URL)) {
		res, err := b.Render(context.Background(), p.URL)
		if err != nil {
			t.Errorf("Render(%s): %v", p.URL, err)
			continue
		}
		doc := renderedText(res)
		found := 0
		for _, c := range p.Comments {
			if strings.Contains(doc, `id="`+c.ID+`"`) {
				found++
			}
		}
		t.Logf("%s: %d of %d comments (clicks %d, frames %d, inlined frames %d, scripted %v)", p.URL, found, len(p.Comments),
			res.Clicks, len(res.Frames), strings.Count(string(res.HTML), "data-blogharvest-iframe"), p.Scripted)
		if found != len(p.Comments) || len(p.Comments) == 0 && !p.Scripted {
			t.Errorf("%s: %d of %d comments rendered (notes %q)", p.URL, found, len(p.Comments), res.Notes)
		}
		if snippet := textSnippet(p.BodyText); p.Scripted && !strings.Contains(doc, snippet) {
			t.Errorf("%s: script-built article missing %q", p.URL, snippet)
		}
	}
}

// pickPosts returns the two posts with most comments (several "load more"
// clicks), a post whose comments are in an iframe and the post built by
// script.
func pickPosts(t *testing.T, truth fixture.Truth) []fixture.PostTruth {
	posts := append([]fixture.PostTruth(nil), truth.Posts...)
	sort.SliceStable(posts, func(i, j int) bool { return len(posts[i].Comments) > len(posts[j].Comments) })
	out := posts[:min(2, len(posts))]
	kinds := map[string]int{}
	for _, p := range posts[len(out):] {
		kind := ""
		switch {
		case p.Scripted:
			kind = "scripted"
		case strings.Contains(rawPage(t, p.URL), "/embed/comments/"):
			kind = "iframe"
		}
		if kind != "" && kinds[kind] == 0 {
			out = append(out, p)
			kinds[kind]++
		}
	}
	if kinds["scripted"] == 0 || kinds["iframe"] == 0 {
		t.Errorf("fixture has %v: want a scripted post and an iframe thread", kinds)
	}
	return out
}

// rawPage returns the HTML the server sends for u.
func rawPage(t *testing.T, u string) string {
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// textSnippet returns the first words of text as the DOM serialises them.
func textSnippet(text string) string {
	words := strings.Fields(text)
	s := strings.Join(words[:min(6, len(words))], " ")
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// renderedText joins the rendered DOM and every captured frame.
func renderedText(res *render.Result) string {
	var b strings.Builder
	b.Write(res.HTML)
	for _, f := range res.Frames {
		b.Write(f.HTML)
	}
	return b.String()
}
