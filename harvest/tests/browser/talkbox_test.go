package browser_test

import (
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/harvest/textsim"
	"github.com/blogharvest/blogharvest/internal/fixture"

	"github.com/blogharvest/blogharvest/internal/toolskip"
)

// TestNewCrawlFindsUnknownCommentSystems crawls the talkbox blog in
// render: auto with a browser the crawl starts itself: its comment
// systems are in no table (an empty div filled from a JSON API on another
// origin, an iframe app on that origin), so only the generic detection
// renders them and only the generic extraction reads them. Comment
// precision and recall are checked per kind of system.
func TestNewCrawlFindsUnknownCommentSystems(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	if _, err := exec.LookPath("chromium"); err != nil {
		toolskip.Missing(t, "chromium", err)
	}
	t.Parallel()
	site, srv, svc := serveTalkbox(t)
	o := options("talk", srv.URL)
	o.Render, o.Allow = harvest.RenderAuto, []string{svc.URL}
	res, out := crawl(t, o)
	for _, w := range res.Warnings {
		t.Logf("warning: %s", w)
	}
	got := out.ByURL(t)
	score := map[string]*prScore{"talkbox": {}, "iframe-app": {}}
	for _, p := range site.Truth(srv.URL).Posts {
		e := got[p.URL]
		if e == nil {
			t.Errorf("post %s not archived", p.URL)
			continue
		}
		kind := "talkbox"
		if p.IframeApp {
			kind = "iframe-app"
		}
		score[kind].add(t, e, p)
	}
	for kind, s := range score {
		t.Logf("%s: comments %d found of %d, %d archived: precision %.3f recall %.3f, parents right %d of %d",
			kind, s.match, s.want, s.got, s.precision(), s.recall(), s.parents, s.match)
		if s.want == 0 {
			t.Errorf("%s: no comments in the truth", kind)
		}
		if s.precision() < 0.99 || s.recall() < 0.99 || s.parents < s.match {
			t.Errorf("%s: precision %.3f recall %.3f parents %d of %d: want all", kind, s.precision(), s.recall(), s.parents, s.match)
		}
	}
}

// serveTalkbox serves the talkbox blog and, on a second origin, its
// comment service.
func serveTalkbox(t *testing.T) (*fixture.Site, *httptest.Server, *httptest.Server) {
	t.Helper()
	return serveWithService(t, "talkbox")
}

// serveWithService serves the fixture blog name and, on a second origin,
// its comment service.
func serveWithService(t *testing.T, name string) (*fixture.Site, *httptest.Server, *httptest.Server) {
	t.Helper()
	site := fixture.MustNew(name)
	svc := httptest.NewServer(site.ServiceHandler())
	t.Cleanup(svc.Close)
	site.SetCommentService(svc.URL)
	srv := httptest.NewServer(site.Handler())
	t.Cleanup(srv.Close)
	return site, srv, svc
}

// prScore counts comments archived (got), in the truth (want) and found
// in both (match: same author and text), and matches whose parent is
// right.
type prScore struct{ got, want, match, parents int }

// commentKey identifies a comment by author and normalised text.
func commentKey(author, text string) string {
	return author + "\x00" + textsim.NormalizeText(text)
}

// add scores entry e against post truth p.
func (s *prScore) add(t *testing.T, e *blogharvest.Entry, p fixture.PostTruth) {
	t.Helper()
	s.got += len(e.Comments)
	s.want += len(p.Comments)
	gotKey := map[string]string{} // id → key
	byKey := map[string]blogharvest.Comment{}
	for _, c := range e.Comments {
		k := commentKey(c.Author, textsim.HTMLText(c.Content))
		gotKey[c.ID] = k
		byKey[k] = c
	}
	wantKey := map[string]string{}
	for _, w := range p.Comments {
		wantKey[w.ID] = commentKey(w.Author, w.Text)
	}
	for _, w := range p.Comments {
		g, ok := byKey[wantKey[w.ID]]
		if !ok {
			t.Errorf("%s: comment %s by %s not archived", p.URL, w.ID, w.Author)
			continue
		}
		s.match++
		if gotKey[g.ParentID] == wantKey[w.ParentID] {
			s.parents++
		} else {
			t.Errorf("%s: comment %s by %s: parent %q, want %s", p.URL, w.ID, w.Author, g.ParentID, w.ParentID)
		}
	}
}

func (s *prScore) precision() float64 { return ratio(s.match, s.got) }
func (s *prScore) recall() float64    { return ratio(s.match, s.want) }

// ratio returns a/b, 1 when b is zero.
func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

// TestNewCrawlFindsUtilityClassIframeApp is issue 24's finding 2: the
// nook blog's iframe app on another origin draws its comments with
// utility classes only (no comment word, no microdata; the header and
// button rows share the comment's tag and first class token), the author
// in an <h4>, the date the text of a link to #nook-comments-<id>,
// replies nested. Crawled in render: auto with the crawl's own browser,
// every comment of those posts must be archived with its parent, and the
// date link is the comment's permalink.
func TestNewCrawlFindsUtilityClassIframeApp(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a browser")
	}
	if _, err := exec.LookPath("chromium"); err != nil {
		toolskip.Missing(t, "chromium", err)
	}
	t.Parallel()
	site, srv, svc := serveWithService(t, "nook")
	o := options("nook", srv.URL)
	o.Render, o.Allow = harvest.RenderAuto, []string{svc.URL}
	_, out := crawl(t, o)
	got := out.ByURL(t)
	var s prScore
	permalinks := 0
	for _, p := range site.Truth(srv.URL).Posts {
		e := got[p.URL]
		if !p.IframeApp || e == nil {
			continue
		}
		s.add(t, e, p)
		for _, c := range e.Comments {
			if strings.Contains(c.URL, "#nook-comments-") {
				permalinks++
			}
		}
	}
	t.Logf("nook: comments %d found of %d, %d archived: precision %.3f recall %.3f, parents right %d of %d, %d with the app's permalink",
		s.match, s.want, s.got, s.precision(), s.recall(), s.parents, s.match, permalinks)
	if s.want == 0 {
		t.Fatal("no Nook comments in the truth")
	}
	if s.precision() < 0.99 || s.recall() < 0.99 || s.parents < s.match || permalinks < s.match {
		t.Errorf("precision %.3f recall %.3f parents %d of %d, permalinks %d: want all", s.precision(), s.recall(), s.parents, s.match, permalinks)
	}
}
