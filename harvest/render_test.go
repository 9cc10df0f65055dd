package harvest_test

import (
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"

	"github.com/blogharvest/blogharvest/internal/toolskip"
)

func TestNewCrawlRendersScriptedArticle(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		toolskip.Missing(t, "chromium", err)
	}
	if testing.Short() {
		t.Skip("starts a browser")
	}
	t.Parallel()
	b := newTinyBlog(24)
	b.scripted = 2 // older than the feed: only the rendered page holds its article
	srv := httptest.NewServer(b)
	defer srv.Close()
	o := options("tiny", srv.URL)
	o.Render = harvest.RenderAuto
	res, out := crawl(t, o)
	got := out.ByURL(t)
	e := got[srv.URL+b.path(b.scripted)]
	if e == nil {
		t.Fatal("scripted post not found")
	}
	roles := map[blogharvest.Role]int{}
	for _, f := range e.Files {
		roles[f.Role]++
	}
	if roles[blogharvest.RoleRendered] == 0 || roles[blogharvest.RoleScreenshot] == 0 {
		t.Errorf("scripted post files %v: want rendered DOM and screenshot (problems %q, warnings %q)", roles, e.Problems, res.Warnings)
	}
	if !strings.Contains(e.Content, "Paragraph 5 of post 2") {
		t.Errorf("scripted post content %q: want the article JavaScript wrote", e.Content)
	}
	rendered := 0
	for _, e := range out.Entries {
		for _, f := range e.Files {
			if f.Role == blogharvest.RoleRendered {
				rendered++
			}
		}
	}
	if rendered != 1 {
		t.Errorf("%d pages rendered, want only the scripted one", rendered)
	}
}

func TestNewCrawlWithoutBrowserWarnsOnce(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // no chromium on PATH
	b := newTinyBlog(24)
	b.scripted = 2
	srv := httptest.NewServer(b)
	defer srv.Close()
	o := options("tiny", srv.URL)
	o.Render = harvest.RenderAlways
	res, out := crawl(t, o)
	n := 0
	for _, w := range res.Warnings {
		if strings.Contains(w, "render") {
			n++
		}
	}
	if n != 1 || len(out.Entries) != b.posts {
		t.Errorf("%d render warnings (%q), %d entries: want one warning and every post", n, res.Warnings, len(out.Entries))
	}
}
