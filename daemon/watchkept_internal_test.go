package daemon

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/harvest"
)

// TestWatchKeptInArchive: a `crawl -out` run that changed the comment
// threads watched writes them into the archive (aip.PutBlogState), one
// that changed nothing but validators writes nothing, and the next
// crawl -out starts from the newer of that and the latest Blog AIP's
// state file; a run of the daemon (no watchKept) writes nothing.
func TestWatchKeptInArchive(t *testing.T) {
	root := t.TempDir()
	now := time.Date(2026, 12, 6, 12, 0, 0, 0, time.UTC)
	d := NewDaemon(&Config{Archive: root})
	d.env.Logger = slog.New(slog.DiscardHandler)
	d.env.Now = func() time.Time { return now }
	store := &aip.Local{Root: root}
	ctx := context.Background()
	thread := func(digest, etag string) blogharvest.CrawlState {
		return blogharvest.CrawlState{Threads: map[string][]blogharvest.Validators{
			"http://b.ex/posts/rye/": {{URL: "http://c.ex/api/comment?path=%2Fposts%2Frye%2F", ETag: etag, Digest: digest}}},
			CommentShapes: []string{"f:div.flex"}}
	}

	d.keepWatch("b", thread("aa", ""))
	if data, _ := aip.LatestBlogState(ctx, store, "b"); data != nil {
		t.Fatalf("a daemon run (no watchKept) wrote the archive's state: %s", data)
	}
	d.watchKept = map[string]harvest.Watch{"b": harvest.WatchOf(thread("aa", `"e1"`), now.Add(-time.Hour))}
	d.keepWatch("b", thread("aa", `"e2"`)) // a new ETag of the same answer: no change
	if data, _ := aip.LatestBlogState(ctx, store, "b"); data != nil {
		t.Fatalf("an unchanged watch was written: %s", data)
	}
	d.keepWatch("b", thread("bb", `"e3"`))
	data, err := aip.LatestBlogState(ctx, store, "b")
	if w := harvest.WatchFrom(data); err != nil || !w.Same(harvest.WatchOf(thread("bb", ""), now)) || !w.At.Equal(now) {
		t.Fatalf("the changed watch kept: %s, %v", data, err)
	}

	log := slog.New(slog.DiscardHandler)
	older := &aip.ArchivedBlog{State: harvest.WatchOf(thread("aa", ""), now.Add(-time.Hour)).JSON()}
	if w := d.archiveWatch("b", older, time.Time{}, log); w.Threads["http://b.ex/posts/rye/"][0].Digest != "bb" {
		t.Errorf("the archive's state is newer than the Blog AIP's: got %+v, want the kept one", w)
	}
	newer := &aip.ArchivedBlog{State: harvest.WatchOf(thread("cc", ""), now.Add(time.Hour)).JSON()}
	if w := d.archiveWatch("b", newer, time.Time{}, log); w.Threads["http://b.ex/posts/rye/"][0].Digest != "cc" {
		t.Errorf("a Blog AIP written after the kept state: got %+v, want the Blog AIP's", w)
	}
	undated := &aip.ArchivedBlog{State: []byte(`{"threads":{"http://b.ex/posts/rye/":[{"URL":"http://c.ex/x","Digest":"dd"}]}}`)}
	if w := d.archiveWatch("b", undated, now.Add(2*time.Hour), log); w.Threads["http://b.ex/posts/rye/"][0].Digest != "dd" {
		t.Errorf("a Blog AIP state without a time, its feed captured after the kept state: got %+v, want the Blog AIP's", w)
	}
}
