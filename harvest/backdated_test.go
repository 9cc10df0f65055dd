package harvest_test

import (
	"context"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest"
)

// TestUpdateCrawlBackDatedPost: a post the author dated before the last
// crawl (a static site built and deployed days after the date its front
// matter gives) appears on the feed's first page between archived posts.
// Its date is older than the update's watermark, so dates alone call it
// old; but the last crawl did not list it, and the update must archive it
// — and only it: the archived posts are not asked again.
func TestUpdateCrawlBackDatedPost(t *testing.T) {
	t.Parallel()
	names := []string{"alder", "birch", "cedar", "dogwood", "elm", "fir"}
	var posts []movePost
	start := time.Date(2019, 5, 1, 9, 30, 0, 0, time.UTC)
	for i, name := range names {
		posts = append([]movePost{{slug: name + "-notes", title: "Notes on the " + name, body: prose(name, 3),
			date: start.AddDate(0, 0, 5*i)}}, posts...) // newest first, as a feed lists them
	}
	site := &switchSite{}
	site.cur.Store(stableGUIDs(posts))
	asked := &pathCounts{}
	srv := asked.serve(t, site)
	o := options("backdated", srv.URL)
	res, first := crawl(t, o)
	if len(first.Entries) != len(names) {
		t.Fatalf("the first crawl archived %d entries, want %d", len(first.Entries), len(names))
	}

	// The new post, dated between the two newest archived posts.
	late := movePost{slug: "hazel-notes", title: "Notes on the hazel", body: prose("hazel", 3),
		date: posts[0].date.AddDate(0, 0, -2)}
	withLate := append([]movePost{posts[0], late}, posts[1:]...)
	site.cur.Store(stableGUIDs(withLate))
	asked.reset()
	o.State = res.State
	second := &output{}
	if _, err := harvest.UpdateCrawl(context.Background(), o, res.Watermark, second.Emit); err != nil {
		t.Fatalf("UpdateCrawl: %v", err)
	}
	var got []string
	for _, e := range second.Entries {
		got = append(got, e.URL)
	}
	want := srv.URL + "/posts/" + late.slug + ".html"
	if len(got) != 1 || got[0] != want {
		t.Errorf("the update archived %v, want only the back-dated post %s", got, want)
	}
	for _, p := range posts {
		if n := asked.of("/posts/" + p.slug + ".html"); n > 0 {
			t.Errorf("the archived post %s was asked for %d times", p.slug, n)
		}
	}
}

// stableGUIDs is oldEngine with each item's guid its post's own, as real
// feeds give them (oldEngine numbers them by position).
func stableGUIDs(posts []movePost) *miniSite {
	s := oldEngine(posts)
	var items []miniItem
	for _, p := range posts {
		items = append(items, miniItem{path: "/posts/" + p.slug + ".html", title: p.title, body: p.body, date: p.date,
			guid: "tag:old.example,2019:" + p.slug, comments: -1})
	}
	s.docs["/feed.xml"] = rss("Weir", "en", items)
	return s
}
