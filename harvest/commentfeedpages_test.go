package harvest_test

import (
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
)

// TestCommentFeedPagesArchived: a post whose comment feed spans pages
// (the Blogger fixture's feeds hold 25 comments a page) keeps every page
// read in its entry, each a comment feed capture, and together they hold
// every comment: the pages after the first were read for their comments
// and not archived once.
func TestCommentFeedPagesArchived(t *testing.T) {
	t.Parallel()
	site, srv := serve(t, "blogger", nil)
	_, out := crawl(t, options("blogger", srv.URL))
	got := out.byURL(t)
	paged := 0
	for _, p := range site.Truth(srv.URL).Posts {
		if len(p.Comments) <= 25 {
			continue
		}
		paged++
		e := got[p.URL]
		if e == nil {
			t.Errorf("post %s not archived", p.URL)
			continue
		}
		pages, ids := map[string]bool{}, map[string]bool{}
		for _, f := range e.Files {
			if f.Role != blogharvest.RoleCommentFeed {
				continue
			}
			pages[f.URL] = true
			cs, err := feed.ParseComments(f.Body, f.URL)
			if err != nil {
				t.Errorf("%s: comment feed page %s: %v", p.URL, f.URL, err)
			}
			for _, c := range cs {
				ids[c.ID] = true
			}
		}
		if want := (len(p.Comments) + 24) / 25; len(pages) < want {
			t.Errorf("%s: %d comments in %d comment feed pages archived, want %d pages", p.URL, len(p.Comments), len(pages), want)
		}
		if len(ids) != len(p.Comments) {
			t.Errorf("%s: the archived comment feed pages hold %d of its %d comments", p.URL, len(ids), len(p.Comments))
		}
	}
	if paged == 0 {
		t.Fatal("the fixture has no post with more than a page of comments")
	}
}
