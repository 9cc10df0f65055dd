package browser_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/harvest/textsim"
	"github.com/blogharvest/blogharvest/internal/fixture"

	"github.com/blogharvest/blogharvest/internal/toolskip"
)

// TestNewCrawlArchivesJavaScriptComments crawls the jscomments blog, whose
// comments only a browser sees (loaded from JSON ten at a time behind a
// "Load more comments" button, or in a same-origin iframe), in render:
// auto with the browser the crawl starts itself, as the daemon's crawls
// do. It checks that every comment of every post is archived with its
// author, text and parent, that every rendered entry keeps its screenshot
// and rendered DOM, and that the AIPs written from the crawl pass
// aip.Check; then, from that crawl's State, that UpdateCrawl sees a
// comment added to a script-drawn thread
// (checkUpdateSeesCommentAddedToScriptThread). The two checks share the
// one full rendered crawl of the blog, the slowest part of either.
func TestNewCrawlArchivesJavaScriptComments(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	if _, err := exec.LookPath("chromium"); err != nil {
		toolskip.Missing(t, "chromium", err)
	}
	t.Parallel()
	log := &requestLog{}
	site, srv := serve(t, "jscomments", log.Wrap)
	first := newestActivity(site).Add(24 * time.Hour)
	o := options("js", srv.URL)
	o.Render = harvest.RenderAuto // each crawl starts its own browser, as the daemon's do: no HTTP cache carried over
	// Each post's comments are drawn by its script after the page loads:
	// at load 36–53 the default 30 s page budget was once spent before a
	// post's screenshot, which this test checks.
	o.RenderTimeout = 2 * time.Minute
	o.Now = func() time.Time { return first }
	res, out := crawl(t, o)
	t.Run("every comment archived", func(t *testing.T) {
		truth := site.Truth(srv.URL)
		got := out.ByURL(t)
		want, found, busiest := 0, 0, 0
		for _, p := range truth.Posts {
			busiest = max(busiest, len(p.Comments))
			e := got[p.URL]
			if e == nil {
				t.Errorf("post %s not archived", p.URL)
				continue
			}
			want += len(p.Comments)
			found += checkJSComments(t, e, p)
			checkRenderedFiles(t, e)
		}
		t.Logf("comments archived: %d of %d in %d posts (busiest thread %d); render time %v; warnings %q", found, want, len(truth.Posts),
			busiest, res.Timings.Render, res.Warnings)
		if busiest <= 10 {
			t.Fatalf("the busiest thread has %d comments: no post needs \"Load more comments\"", busiest)
		}
		checkArchive(t, out)
	})
	t.Run("UpdateCrawl sees a comment added to a script thread", func(t *testing.T) {
		checkUpdateSeesCommentAddedToScriptThread(t, site, srv.URL, log, o, res)
	})
}

// checkJSComments compares an entry's comments with the truth's and
// returns how many match in id, author, text and parent.
func checkJSComments(t *testing.T, e *blogharvest.Entry, p fixture.PostTruth) int {
	t.Helper()
	byID := map[string]blogharvest.Comment{}
	for _, c := range e.Comments {
		byID[c.ID] = c
	}
	ok := 0
	for _, w := range p.Comments {
		g, has := byID[w.ID]
		switch {
		case !has:
			t.Errorf("%s: comment %s by %s missing", p.URL, w.ID, w.Author)
		case g.Author != w.Author || textsim.NormalizeText(textsim.HTMLText(g.Content)) != textsim.NormalizeText(w.Text) || g.ParentID != w.ParentID:
			t.Errorf("%s: comment %s: %q %.60q parent %q; want %q %.60q parent %q", p.URL, w.ID, g.Author,
				textsim.HTMLText(g.Content), g.ParentID, w.Author, w.Text, w.ParentID)
		case g.Provenance["full_content"] != blogharvest.MethodHeuristic:
			t.Errorf("%s: comment %s: method %q, want heuristic", p.URL, w.ID, g.Provenance["full_content"])
		default:
			ok++
		}
	}
	if len(e.Comments) != len(p.Comments) {
		t.Errorf("%s: %d comments archived, want %d", p.URL, len(e.Comments), len(p.Comments))
	}
	return ok
}

// checkRenderedFiles checks that a rendered entry keeps both its rendered
// DOM and its screenshot; every jscomments post needs rendering.
func checkRenderedFiles(t *testing.T, e *blogharvest.Entry) {
	t.Helper()
	roles := map[blogharvest.Role]int{}
	for _, f := range e.Files {
		roles[f.Role]++
	}
	if roles[blogharvest.RoleRendered] == 0 || roles[blogharvest.RoleScreenshot] == 0 {
		t.Errorf("%s: files %v: want the rendered DOM and a screenshot (problems %q)", e.URL, roles, e.Problems)
	}
}

// checkArchive writes the crawl's blog and entries as AIPs and checks
// them.
func checkArchive(t *testing.T, out *output) {
	t.Helper()
	if len(out.Blogs) != 1 {
		t.Fatalf("%d blog records, want 1", len(out.Blogs))
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	w := &aip.Writer{Root: t.TempDir(), Organization: "test", Now: func() time.Time { return now }}
	ctx := context.Background()
	if _, err := w.WriteBlog(ctx, out.Blogs[0]); err != nil {
		t.Fatalf("write blog: %v", err)
	}
	for _, e := range out.Entries {
		if _, err := w.WriteEntry(ctx, e); err != nil {
			t.Fatalf("write %s: %v", e.URL, err)
		}
	}
	for _, err := range aip.Check(w.Root) {
		t.Errorf("aip check: %v", err)
	}
	checkMadeNames(t, w.Root)
}

// checkMadeNames checks that the files the harvest made are named after
// their bytes (issue 16, finding 8): every screenshot is screenshot.png,
// every rendered DOM ends in .html, whatever the page's URL ends with.
func checkMadeNames(t *testing.T, root string) {
	t.Helper()
	shots := 0
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Base(filepath.Dir(p)) {
		case "screenshot":
			shots++
			if filepath.Base(p) != "screenshot.png" {
				t.Errorf("screenshot saved as %s", p)
			}
		case "rendered":
			if filepath.Ext(p) != ".html" {
				t.Errorf("rendered DOM saved as %s", p)
			}
		}
		return nil
	})
	if shots == 0 {
		t.Error("no screenshot in the archive")
	}
}
