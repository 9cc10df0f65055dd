package daemon

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/harvest"
)

// postsHarvester emits n posts, calling after with the number emitted
// after each emit returns, then the Blog record.
type postsHarvester struct {
	n     int
	after func(emitted int)
}

func (h postsHarvester) Harvest(ctx context.Context, o harvest.Options, since time.Time, emit func(harvest.Record) error) (*harvest.Result, error) {
	for i := range h.n {
		if err := emit(harvest.Record{Entry: groupPost(o.Blog.ID, i)}); err != nil {
			return nil, err
		}
		h.after(i + 1)
	}
	b := &blogharvest.Blog{ID: o.Blog.ID, URL: o.Blog.URL, Title: "Posts", Captured: time.Now().UTC()}
	if err := emit(harvest.Record{Blog: b}); err != nil {
		return nil, err
	}
	return &harvest.Result{Entries: h.n}, nil
}

// groupPost is the i-th post of the blog id.
func groupPost(id string, i int) *blogharvest.Entry {
	u := fmt.Sprintf("http://127.0.0.1:1/2024/post-%d/", i)
	at := time.Date(2024, 3, 1+i, 9, 0, 0, 0, time.UTC)
	f := blogharvest.File{URL: u, Role: blogharvest.RolePage, MediaType: "text/html", Body: []byte("<html><body><p>Text.</p></body></html>"),
		Status: 200, Captured: at}
	f.Sum()
	return &blogharvest.Entry{BlogID: id, Kind: blogharvest.KindPost, URL: u, Title: fmt.Sprint("Post ", i),
		Content: "<p>Text.</p>", ContentFormat: "text/html", Created: at, Captured: at, Files: []blogharvest.File{f}}
}

// TestPostRecordedOnlyWhenPublished: with the group commit, a post is
// counted archived (the run's tally, its record's changes, the progress
// the crawl command prints) only once its bag is published. The checks
// run after every emit and in the progress callback, reading the archive
// afresh: every post counted has its bag visible. A run of 11 posts (one
// flush after 8, the rest at the Blog record) ends with all 11 counted
// and visible. Counting a post when its bag is staged fails the test.
func TestPostRecordedOnlyWhenPublished(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	d := NewDaemon(dailyConfig(t, dir, "posts"))
	d.env.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	archive := filepath.Join(dir, "archive")
	store := &aip.Local{Root: archive}
	visible := func(e *blogharvest.Entry) bool {
		rel, err := d.arch.writer.EntryDir(e)
		if err != nil {
			t.Fatal(err)
		}
		v, err := aip.LatestVersionOf(store, rel)
		if err != nil {
			t.Fatal(err)
		}
		return v > 0
	}
	var mu sync.Mutex
	var stagedSeen bool // some post was emitted and not yet counted
	const n = 11
	d.run.harvester = postsHarvester{n: n, after: func(emitted int) {
		d.run.mu.Lock()
		tl := d.run.live["posts"]
		d.run.mu.Unlock()
		counted := int(tl.entries.Load())
		shown := 0
		for i := range emitted {
			if visible(groupPost("posts", i)) {
				shown++
			}
		}
		if counted > shown {
			t.Errorf("after %d posts emitted: %d counted archived, %d visible", emitted, counted, shown)
		}
		tl.notes.mu.Lock()
		for _, c := range tl.notes.changed {
			if v, err := aip.LatestVersionOf(store, filepath.ToSlash(relTo(t, archive, filepath.Dir(c.Bag)))); err != nil || v < c.Version {
				t.Errorf("the run record names %s, not visible", c.Bag)
			}
		}
		tl.notes.mu.Unlock()
		mu.Lock()
		stagedSeen = stagedSeen || counted < emitted
		mu.Unlock()
	}}
	if err := d.openStore(); err != nil {
		t.Fatal(err)
	}
	defer d.closeStore()
	progressed := 0
	st, err := d.runBlog(context.Background(), d.env.Config.Blogs[0], func(e *blogharvest.Entry) {
		progressed++
		if !visible(e) {
			t.Errorf("progress shows %s archived before its bag is visible", e.URL)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if st.Entries != n || progressed != n || st.Blogs != 1 {
		t.Errorf("run: %+v, %d progress calls; want %d entries, 1 blog", st, progressed, n)
	}
	for i := range n {
		if !visible(groupPost("posts", i)) {
			t.Errorf("post %d not visible after the run", i)
		}
	}
	if !stagedSeen {
		t.Error("every post was counted as soon as it was emitted: no group commit")
	}
	if errs := aip.Check(archive); len(errs) > 0 {
		t.Errorf("check: %v", errs)
	}
}

// relTo is filepath.Rel of p below root.
func relTo(t *testing.T, root, p string) string {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}
