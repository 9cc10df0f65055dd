package harvest_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// archiveOf writes the entries of a crawl into a fresh AIP archive and
// returns Options.Archived over it, as the daemon gives UpdateCrawl.
func archiveOf(t *testing.T, out *output) func(*blogharvest.Entry) []blogharvest.File {
	t.Helper()
	root := t.TempDir()
	w := &aip.Writer{Root: root, Software: "blogharvest test"}
	defer w.Close()
	for _, e := range out.Entries {
		if _, err := w.WriteEntry(context.Background(), e); err != nil {
			t.Fatalf("archiving %s: %v", e.URL, err)
		}
	}
	return func(e *blogharvest.Entry) []blogharvest.File {
		files, err := aip.ArchivedCaptures(&aip.Local{Root: root}, e)
		if err != nil {
			t.Errorf("archived media of %s: %v", e.URL, err)
		}
		return files
	}
}

// someImage returns the URL of an image the fixture serves.
func someImage(t *testing.T, site *fixture.Site, base string) string {
	for _, p := range site.Truth(base).Posts {
		if _, rest, ok := strings.Cut(p.BodyHTML, `<img src="`); ok {
			if src, _, ok := strings.Cut(rest, `"`); ok {
				return src
			}
		}
	}
	t.Fatal("fixture has no image")
	return ""
}

// pageAndMedia is the requests reading one new post costs: its page and
// its media.
func pageAndMedia(e *blogharvest.Entry) int {
	n := 1
	for _, f := range e.Files {
		if f.Role == blogharvest.RoleMedia {
			n++
		}
	}
	return n
}

// TestUpdateCrawlPoliteRequestCounts counts the requests an UpdateCrawl
// sends, given the State of the crawl before: an unchanged blog costs the
// posts feed and the site comment feed, answered 304; after one new post
// and one new comment, within a day of the last recheck, the feeds, the
// new post's page and media and the commented post's page — never the
// commented post's comment feed (its earlier comments and pictures come
// from the archive: Options.Archived), the home page, robots.txt,
// sitemaps, listings or every post of the feed's first page. No Blog record is emitted (the
// home page was not read), and the entries emitted hold what a NewCrawl
// of the blog archives for the same posts.
func TestUpdateCrawlPoliteRequestCounts(t *testing.T) {
	for _, name := range []string{"wordpress", "blogger", "static"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			log := &requestLog{}
			site, srv := serve(t, name, log.Wrap)
			first := newestActivity(site).Add(24 * time.Hour)
			o := options(name, srv.URL)
			o.MaxMediaPerEntry = 0 // media captured: the new post's count
			o.Now = func() time.Time { return first }
			res, first0 := crawl(t, o)
			o.Archived = archiveOf(t, first0)

			log.Reset()
			o.State = res.State
			o.Now = func() time.Time { return first.Add(2 * time.Hour) }
			out := &output{}
			res2, err := harvest.UpdateCrawl(context.Background(), o, res.Watermark, out.Emit)
			if err != nil {
				t.Fatal(err)
			}
			unchanged := log.All()
			t.Logf("%s unchanged: %d requests %q", name, len(unchanged), unchanged)
			if len(unchanged) > 2 || !res2.Unchanged || len(out.Order) != 0 {
				t.Errorf("unchanged blog: %d requests %q (unchanged %v), %d records emitted; want at most 2 requests and nothing emitted",
					len(unchanged), unchanged, res2.Unchanged, len(out.Order))
			}
			for _, p := range unchanged {
				if p == "/robots.txt" {
					t.Errorf("robots.txt fetched again within its lifetime")
				}
			}

			posts := site.Posts()
			commented := posts[2]
			np := site.AddPost(fixture.PostSpec{Title: "A brand new post about ladders", Date: first.Add(3 * time.Hour),
				Body: `<p>` + strings.Repeat("Ladders are taller than they look from below. ", 8) +
					`</p><p><img src="` + someImage(t, site, srv.URL) + `" alt="a ladder"></p>`})
			site.AddComment(commented.Slug, fixture.CommentSpec{Author: "Late Reader", Text: "Arrived late, but glad I did.",
				Date: first.Add(4 * time.Hour)})
			log.Reset()
			o.State = res2.State
			o.Now = func() time.Time { return first.Add(5 * time.Hour) } // within a day: no recheck due
			out = &output{}
			if _, err := harvest.UpdateCrawl(context.Background(), o, res2.Watermark, out.Emit); err != nil {
				t.Fatal(err)
			}
			changed := log.All()
			t.Logf("%s after a new post and a comment: %d requests %q", name, len(changed), changed)
			want := map[string]bool{srv.URL + np.Path: true}
			if name != "static" {
				want[srv.URL+commented.Path] = true
			}
			got := out.ByURL(t)
			for u := range got {
				if !want[u] {
					t.Errorf("emitted %s, which did not change", u)
				}
			}
			for u := range want {
				if got[u] == nil {
					t.Errorf("missed %s", u)
				}
			}
			if e := got[srv.URL+commented.Path]; e != nil {
				for _, f := range e.Files {
					if f.Role == blogharvest.RoleMedia && (f.Reused == "" || f.Stored == nil) {
						t.Errorf("%s: media %s of the commented post fetched again, not reused from the archive", name, f.URL)
					}
				}
			}
			budget := 2 // the posts feed and the site comment feed
			if e := got[srv.URL+np.Path]; e != nil {
				budget += pageAndMedia(e)
			}
			if name == "static" {
				budget-- // no comment feed, and no comments
			} else {
				budget++ // the commented post's page
			}
			if len(changed) > budget {
				t.Errorf("%d requests after a new post and a comment, want at most %d", len(changed), budget)
			}
			if slices.Contains(out.Order, "blog") {
				t.Errorf("the Blog record emitted by an update that did not read the home page")
			}
			fo := o
			fo.State, fo.Archived = harvest.State{}, nil
			sameAsNewCrawl(t, got, fo)
			for _, p := range changed {
				if p == "/robots.txt" || strings.Contains(p, "sitemap") {
					t.Errorf("asked for %s: robots.txt and sitemaps are not re-read within a day", p)
				}
			}
		})
	}
}

// sameAsNewCrawl checks that the entries an UpdateCrawl emitted hold what
// a NewCrawl of the blog now archives for them: the same fields, comments
// and media.
func sameAsNewCrawl(t *testing.T, updated map[string]*blogharvest.Entry, o harvest.Options) {
	t.Helper()
	_, out := crawl(t, o)
	fresh := out.ByURL(t)
	for u, e := range updated {
		f := fresh[u]
		if f == nil {
			t.Errorf("%s: emitted by the update, not by a new crawl", u)
			continue
		}
		if got, want := entryFacts(e), entryFacts(f); got != want {
			t.Errorf("%s: the update's entry differs from a new crawl's:\nupdate %s\nnew    %s", u, got, want)
		}
	}
}

// entryFacts renders what an entry says, files but media left out.
func entryFacts(e *blogharvest.Entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "title=%q author=%q created=%v modified=%v guid=%q kind=%s replies=%d last=%v aliases=%q tags=%q cats=%q\ncontent=%q\n",
		e.Title, e.Author, e.Created.UTC(), e.Modified.UTC(), e.AltIdentifier, e.Kind, e.NumReplies, e.LastReplyDate.UTC(),
		e.Aliases, e.Tags, e.Categories, e.Content)
	for _, c := range e.Comments {
		fmt.Fprintf(&b, "comment id=%q url=%q author=%q added=%v/%v parent=%q %q subject=%q to=%q post=%q replies=%v/%d format=%q prov=%v content=%q\n",
			c.ID, c.URL, c.Author, c.Added.UTC(), c.AddedPrecision, c.ParentID, c.ParentURL, c.Subject, c.AddressedTo, c.PostURL,
			c.HasReply, c.NumReplies, c.ContentFormat, c.Provenance, c.Content)
	}
	for _, f := range e.Files {
		if f.Role == blogharvest.RoleMedia {
			fmt.Fprintf(&b, "media %s %s\n", f.URL, f.SHA256)
		}
	}
	return b.String()
}

// statusLog records "status path" of each request.
type statusLog struct {
	requestLog
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

// Wrap logs each request with the status it was answered (in place of
// the request log's own Wrap, which logs the path alone).
func (l *statusLog) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(sw, r)
		l.Add(strconv.Itoa(sw.status) + " " + r.URL.RequestURI())
	})
}

// TestUpdateCrawlRecheckIsConditional: when the daily recheck is due, the
// posts of the first page of a feed that dates no edits (the fixture
// WordPress's RSS, without an Atom twin) are asked for with the validators
// of their last capture, answered 304, and nothing is emitted.
func TestUpdateCrawlRecheckIsConditional(t *testing.T) {
	log := &statusLog{}
	site, srv := serve(t, "wordpress", log.Wrap)
	first := newestActivity(site).Add(24 * time.Hour)
	o := options("wordpress", srv.URL)
	o.Now = func() time.Time { return first }
	res, _ := crawl(t, o)
	if len(res.State.Pages) == 0 {
		t.Fatalf("NewCrawl kept no page validators: %+v", res.State)
	}
	log.Reset()
	o.State = res.State
	o.Now = func() time.Time { return first.Add(25 * time.Hour) } // the recheck is due
	out := &output{}
	res2, err := harvest.UpdateCrawl(context.Background(), o, res.Watermark, out.Emit)
	if err != nil {
		t.Fatal(err)
	}
	reqs := log.All()
	t.Logf("recheck: %d requests %q", len(reqs), reqs)
	asked := 0
	for _, r := range reqs {
		status, path, _ := strings.Cut(r, " ")
		if _, ok := res.State.Pages[srv.URL+path]; ok {
			asked++
			if status != "304" {
				t.Errorf("post %s: %s, want 304 to a conditional request", path, status)
			}
		}
	}
	if asked == 0 || len(out.Entries) != 0 {
		t.Errorf("%d posts asked for, %d entries emitted; want the first page's posts asked for, none emitted", asked, len(out.Entries))
	}
	if !res2.State.PostsChecked.Equal(first.Add(25 * time.Hour)) {
		t.Errorf("PostsChecked %v, want the recheck's start", res2.State.PostsChecked)
	}
}
