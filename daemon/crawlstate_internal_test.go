package daemon

import (
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/schedule"
)

// TestCrawlStateSurvivesTheStore: what a crawl leaves for the next one
// (harvest.State's CrawlState: the feeds' validators, item signatures,
// page validators, the comment thread APIs it watches, the comment
// shapes it learned and the posts that moved) goes through the run's
// outcome into a real schedule store and comes back whole in the next
// crawl's harvest.State (previous), so that the daemon's next scheduled
// update asks for all of it conditionally.
func TestCrawlStateSurvivesTheStore(t *testing.T) {
	checked := time.Date(2026, 4, 5, 6, 7, 8, 0, time.UTC)
	want := blogharvest.CrawlState{
		Feed:         blogharvest.Validators{URL: "http://b.ex/feed/", ETag: `"f1"`, LastModified: "Mon, 02 Jan 2006 15:04:05 GMT", Digest: "aa11"},
		CommentFeed:  blogharvest.Validators{URL: "http://b.ex/comments/feed/", ETag: `"c1"`, Digest: "bb22"},
		Items:        map[string]string{"http://b.ex/posts/rye/": "d:0123", "http://b.ex/posts/oat/": ""},
		PostsChecked: checked,
		Pages:        map[string]blogharvest.Validators{"http://b.ex/posts/rye/": {ETag: `"p1"`, LastModified: "Tue, 03 Jan 2006 15:04:05 GMT"}},
		Threads: map[string][]blogharvest.Validators{
			"http://b.ex/posts/rye/": {{URL: "http://c.ex/api/comment?path=%2Fposts%2Frye%2F", ETag: `"x1"`, Digest: "ab12"}},
			"http://b.ex/posts/oat/": {{URL: "http://c.ex/api/comment?path=%2Fposts%2Foat%2F", LastModified: "Mon, 02 Jan 2006 15:04:05 GMT", Digest: "cd34"},
				{URL: "http://c.ex/api/count?path=%2Fposts%2Foat%2F", Digest: "ef56"}},
		},
		CommentShapes: []string{"f:div.flex", "s:div.flex flex-col gap-2"},
		Moved:         map[string]string{"http://b.ex/2021/03/rye/": "http://b.ex/posts/rye/"},
	}
	store, err := schedule.Open(filepath.Join(t.TempDir(), "schedule.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	res := &harvest.Result{State: harvest.State{CrawlState: want, Rules: []byte(`{}`)}}
	outcome := newRunner(newEnv(&Config{}), nil).reportOf(schedule.OutcomeOK, &tally{}, res, nil)
	if err := store.Update("b", func(st *schedule.State) error { outcome.apply(st, time.Now()); return nil }); err != nil {
		t.Fatal(err)
	}
	stored, _, err := store.Get("b")
	if err != nil {
		t.Fatal(err)
	}
	if got := newRunner(newEnv(&Config{}), nil).previous("b", stored).CrawlState; !reflect.DeepEqual(got, want) {
		t.Errorf("crawl state after the store:\n got %+v\nwant %+v", got, want)
	}
}
