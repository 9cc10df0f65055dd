package harvest_test

import (
	"html"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
)

// TestPlainBlogIssue16 crawls the "plain" fixture blog, a static
// generator's stock theme built to reproduce issue 16's findings 3 to 7,
// with the real crawler, and checks each finding on the records:
//   - 3: every post's author is right, never the year or a piece of its
//     title;
//   - 4: a post's page date is a day (no time, no zone, 2023-10-07), the
//     right day of the UTC blog;
//   - 5: comment times "2024-10-29 23:42 UTC" keep their minute and zone;
//     edited posts keep their creation date and record the edit as
//     Modified;
//   - 6: two comments of one author in the same minute stay two;
//   - 7: the listings /index.html … /index5.html are no entries, /about/
//     is an entry of kind page although the feed lists it.
func TestPlainBlogIssue16(t *testing.T) {
	site, srv := serve(t, "plain", nil)
	res, out := crawl(t, options("plain", srv.URL))
	truth := site.Truth(srv.URL)
	got := out.ByURL(t)
	heldOut, edited, dupMinute, want, matched, archived := 0, 0, 0, 0, 0, 0
	for _, p := range truth.Posts {
		e, ok := got[p.URL]
		if !ok {
			t.Errorf("post %s not archived", p.URL)
			continue
		}
		if e.Kind != blogharvest.KindPost {
			t.Errorf("post %s: kind %s", p.URL, e.Kind)
		}
		if e.Author != p.Author {
			t.Errorf("post %s (%q): author %q, want %q", p.URL, p.Title, e.Author, p.Author)
		}
		date, _ := time.Parse(time.RFC3339, p.Date)
		mod, _ := time.Parse(time.RFC3339, p.Modified)
		if !p.InFeed {
			heldOut++
			if got, want := blogharvest.FormatDate(e.Created, e.CreatedPrecision), date.UTC().Format(time.DateOnly); got != want {
				t.Errorf("held-out post %s: created %q (%v %q), want the day %s", p.URL, got, e.Created, e.CreatedPrecision, want)
			}
			if _, off := e.Created.Zone(); off != 0 {
				t.Errorf("held-out post %s: created %v, in a zone the UTC blog never shows", p.URL, e.Created)
			}
			if mod.After(date) {
				edited++
				if got, want := blogharvest.FormatDate(e.Modified, e.ModifiedPrecision), mod.UTC().Format(time.DateOnly); got != want {
					t.Errorf("edited post %s: modified %q, want %s", p.URL, got, want)
				}
			}
		}
		want, archived = want+len(p.Comments), archived+len(e.Comments)
		if len(e.Comments) != len(p.Comments) {
			t.Errorf("post %s: %d comments, want %d", p.URL, len(e.Comments), len(p.Comments))
		}
		byText := map[string]blogharvest.Comment{} // the page gives comments no ids
		for _, c := range e.Comments {
			byText[c.Author+"\x00"+strings.Join(strings.Fields(html.UnescapeString(stripTags(c.Content))), " ")] = c
		}
		for k, c := range p.Comments {
			gc, ok := byText[c.Author+"\x00"+strings.Join(strings.Fields(c.Text), " ")]
			if !ok {
				t.Errorf("post %s: comment %s by %s missing", p.URL, c.ID, c.Author)
				continue
			}
			matched++
			at, _ := time.Parse(time.RFC3339, c.Date)
			if got, want := blogharvest.FormatDate(gc.Added, gc.AddedPrecision), at.UTC().Format("2006-01-02T15:04Z"); got != want {
				t.Errorf("comment %s: added %q, want %q", c.ID, got, want)
			}
			if k == 1 && c.Author == p.Comments[0].Author {
				dupMinute++
			}
		}
	}
	if heldOut == 0 || edited == 0 || dupMinute == 0 {
		t.Errorf("fixture covers too little: %d held-out posts, %d edited among them, %d posts with one author twice in a minute", heldOut, edited, dupMinute)
	}
	for _, e := range out.Entries {
		if base := e.URL[strings.LastIndex(e.URL, "/")+1:]; strings.HasPrefix(base, "index") {
			t.Errorf("listing %s archived as a %s entry titled %q", e.URL, e.Kind, e.Title)
		}
	}
	for _, p := range truth.Pages {
		if e, ok := got[p.URL]; !ok || e.Kind != blogharvest.KindPage {
			t.Errorf("page %s: found %v, kind %v; want kind page", p.URL, ok, kindOf(e))
		}
	}
	t.Logf("%d entries (%d held-out posts, %d edited), pattern %s; comments: %d archived, %d of %d matched by author and text",
		len(out.Entries), heldOut, edited, res.Pattern, archived, matched, want)
}
