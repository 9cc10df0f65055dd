package harvest_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// archive is an AIP archive that successive crawls of a test write to, as
// the daemon's does.
type archive struct {
	root string
	w    *aip.Writer
}

func newArchive(t *testing.T) *archive {
	a := &archive{root: t.TempDir()}
	a.w = &aip.Writer{Root: a.root, Software: "blogharvest test"}
	t.Cleanup(func() { a.w.Close() })
	return a
}

// add archives the entries of a crawl (a new version of each).
func (a *archive) add(t *testing.T, out *output) {
	t.Helper()
	for _, e := range out.Entries {
		if _, err := a.w.WriteEntry(context.Background(), e); err != nil {
			t.Fatalf("archiving %s: %v", e.URL, err)
		}
	}
}

// captures is Options.Archived over the archive.
func (a *archive) captures(t *testing.T) func(*blogharvest.Entry) []blogharvest.File {
	return func(e *blogharvest.Entry) []blogharvest.File {
		files, err := aip.ArchivedCaptures(&aip.Local{Root: a.root}, e)
		if err != nil {
			t.Errorf("archived captures of %s: %v", e.URL, err)
		}
		return files
	}
}

// postCommentFeed matches the request of a post's own comment feed
// (WordPress <post>/feed/, Blogger /feeds/<id>/comments/default).
var postCommentFeed = regexp.MustCompile(`^/.+/feed/$|^/feeds/\d+/comments/default`)

// askedPostCommentFeed returns the requests among reqs for a post's own
// comment feed.
func askedPostCommentFeed(reqs []string) []string {
	var out []string
	for _, r := range reqs {
		if postCommentFeed.MatchString(r) && r != "/comments/feed/" {
			out = append(out, r)
		}
	}
	return out
}

// TestUpdateCrawlArchivedComments follows a commented post through
// updates, each archived as the daemon does: a reply to an earlier
// comment, then one more comment (its earlier comments now in the version
// the first update wrote) cost no request for the post's comment feed —
// the earlier comments come from the archive, the new ones from the
// blog-wide comment feed; a comment edited since forces that request. Each
// time the entry holds what a NewCrawl archives, field by field.
func TestUpdateCrawlArchivedComments(t *testing.T) {
	for _, name := range []string{"wordpress", "blogger"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			log := &requestLog{}
			site, srv := serve(t, name, log.Wrap)
			first := newestActivity(site).Add(24 * time.Hour)
			o := options(name, srv.URL)
			o.Now = func() time.Time { return first }
			res, out := crawl(t, o)
			arch := newArchive(t)
			arch.add(t, out)
			o.Archived = arch.captures(t)

			post, ok := quietPost(site)
			if !ok {
				t.Fatal("no post with three comments")
			}
			comment := func(h int, parent int64) {
				site.AddComment(post.Slug, fixture.CommentSpec{Author: "Late Reader", ParentID: parent,
					Text: "Arrived " + strings.Repeat("very ", h) + "late, but glad I did.", Date: first.Add(time.Duration(h) * time.Hour)})
			}
			steps := []struct {
				what   string
				change func()
				asked  bool // the post's comment feed is asked for
			}{
				{"a reply to an earlier comment", func() { comment(1, post.Comments[0].ID) }, false},
				{"one more comment", func() { comment(3, 0) }, false},
				{"an edited comment and a new one", func() {
					site.EditComment(post.Slug, post.Comments[1].ID, "On second thoughts, I disagree with all of this.")
					comment(5, 0)
				}, true},
			}
			for i, s := range steps {
				s.change()
				now := first.Add(time.Duration(2*i+2) * time.Hour)
				o.State, o.Now = res.State, func() time.Time { return now }
				log.Reset()
				out := &output{}
				res2, err := harvest.UpdateCrawl(context.Background(), o, res.Watermark, out.Emit)
				if err != nil {
					t.Fatal(err)
				}
				reqs := log.All()
				t.Logf("%s, %s: %d requests %q", name, s.what, len(reqs), reqs)
				if asked := askedPostCommentFeed(reqs); len(asked) > 0 != s.asked {
					t.Errorf("%s: the post's comment feed asked for: %q, want asked %v", s.what, asked, s.asked)
				}
				got := out.ByURL(t)
				if got[srv.URL+post.Path] == nil {
					t.Fatalf("%s: the commented post not emitted", s.what)
				}
				if !s.asked && !reusedCommentFeed(got[srv.URL+post.Path]) {
					t.Errorf("%s: no archived comment feed reused", s.what)
				}
				fo := o
				fo.State, fo.Archived = harvest.State{}, nil
				sameAsNewCrawl(t, got, fo)
				arch.add(t, out)
				res = res2
			}
		})
	}
}

// quietPost returns the post with three comments or more whose last
// comment is the oldest: the blog-wide comment feed lists none of them.
func quietPost(site *fixture.Site) (fixture.Post, bool) {
	var best fixture.Post
	var bestLast time.Time
	for _, p := range site.Posts() {
		if len(p.Comments) < 3 {
			continue
		}
		var last time.Time
		for _, c := range p.Comments {
			if c.Date.After(last) {
				last = c.Date
			}
		}
		if best.Slug == "" || last.Before(bestLast) {
			best, bestLast = p, last
		}
	}
	return best, best.Slug != ""
}

// reusedCommentFeed reports whether e holds a comment feed reused from
// the archive.
func reusedCommentFeed(e *blogharvest.Entry) bool {
	for _, f := range e.Files {
		if f.Role == blogharvest.RoleCommentFeed && f.Reused != "" {
			return true
		}
	}
	return false
}
