package comments

import (
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/learn"
)

// TestCommentIdentity is issue 16's finding 6: two comments are one only
// with the same platform id, or the same author, text and time to the
// precision both have; never by time proximity alone.
func TestCommentIdentity(t *testing.T) {
	post := "http://b.ex/notes/harbour.html"
	day := time.Date(2024, 10, 29, 0, 0, 0, 0, time.UTC)
	t0 := time.Date(2024, 10, 29, 23, 42, 10, 0, time.UTC)
	rule := blogharvest.Provenance{"comments": blogharvest.MethodRule}
	cases := []struct {
		name  string
		feed  []feed.Comment
		page  []learn.Comment
		count int
	}{
		{"same author, same day, two texts (day-only page)", nil, []learn.Comment{
			{ID: "c-1", Author: "Ann", Date: day, DatePrecision: blogharvest.PrecisionDay, ContentText: "The first thought of the day."},
			{ID: "c-2", Author: "Ann", Date: day, DatePrecision: blogharvest.PrecisionDay, ContentText: "And a second one, much later."},
		}, 2},
		{"same author, 20 s apart, two texts (feed and page)", []feed.Comment{
			{ID: "f-1", Author: "Ann", Published: t0, Content: "<p>The first thought of the day.</p>"},
		}, []learn.Comment{
			{ID: "c-2", Author: "Ann", Date: t0.Add(20 * time.Second), ContentText: "And a second one, much later."},
		}, 2},
		{"same comment, feed instant and page day", []feed.Comment{
			{ID: "f-1", Author: "Ann", Published: t0, Content: "<p>The first thought of the day.</p>"},
		}, []learn.Comment{
			{ID: "c-1", Author: "Ann", Date: day, DatePrecision: blogharvest.PrecisionDay, ContentText: "The first thought of the day."},
		}, 1},
		{"same comment, feed instant and page wall clock in another zone", []feed.Comment{
			{ID: "f-1", Author: "Ann", Published: t0, Content: "<p>The first thought of the day.</p>"},
		}, []learn.Comment{
			{ID: "c-1", Author: "Ann", Date: time.Date(2024, 10, 30, 1, 42, 0, 0, time.UTC), DatePrecision: blogharvest.PrecisionLocalMinute,
				ContentText: "The first thought of the day."},
		}, 1},
		{"same author and text, another day", []feed.Comment{
			{ID: "f-1", Author: "Ann", Published: t0, Content: "<p>Thanks, that helped a lot!</p>"},
		}, []learn.Comment{
			{ID: "c-9", Author: "Ann", Date: day.AddDate(0, 0, 3), DatePrecision: blogharvest.PrecisionDay, ContentText: "Thanks, that helped a lot!"},
		}, 2},
		{"same text, other author", nil, []learn.Comment{
			{ID: "c-1", Author: "Ann", Date: day, DatePrecision: blogharvest.PrecisionDay, ContentText: "Thanks, that helped a lot!"},
			{ID: "c-2", Author: "Bob", Date: day, DatePrecision: blogharvest.PrecisionDay, ContentText: "Thanks, that helped a lot!"},
		}, 2},
		{"same minute, one in UTC and one a minute-precise copy", []feed.Comment{
			{ID: "f-1", Author: "Ann", Published: t0, Content: "<p>The first thought of the day.</p>"},
		}, []learn.Comment{
			{ID: "c-1", Author: "Ann", Date: t0.Truncate(time.Minute), DatePrecision: blogharvest.PrecisionMinute, ContentText: "The first thought of the day."},
		}, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := &blogharvest.Entry{URL: post}
			FillComments(e, &Post{Comments: c.feed}, learn.Extraction{Methods: rule, Comments: c.page})
			if len(e.Comments) != c.count {
				t.Errorf("%d comments, want %d: %+v", len(e.Comments), c.count, e.Comments)
			}
		})
	}
}

// TestCommentIdentityByPermalink is issue 24's finding 3: a comment feed
// that double-escapes its author (Tom&amp;#xE1;s in the XML, so
// "Tom&#xE1;s" once read) and the page (Tomás) name one comment by the
// same permalink: it is archived once, its author read as Tomás. A
// permalink whose fragment holds no number (no platform number to key on)
// must still key the merge.
func TestCommentIdentityByPermalink(t *testing.T) {
	post := "http://b.ex/notes/harbour.html"
	t0 := time.Date(2024, 10, 29, 23, 42, 10, 0, time.UTC)
	for _, frag := range []string{"comment-1187", "comment-a3f9e2"} {
		link := post + "#" + frag
		e := &blogharvest.Entry{URL: post}
		fc := []feed.Comment{{ID: link, Link: link, Author: "Tom&#xE1;s", Published: t0, Content: "<p>Great harbour photos, thank you.</p>"}}
		pc := []learn.Comment{{ID: frag, URL: link, Author: "Tomás", Date: t0.Add(-time.Hour), DatePrecision: blogharvest.PrecisionMinute,
			ContentText: "Great harbour photos, thank you."}}
		FillComments(e, &Post{Comments: fc}, learn.Extraction{Methods: blogharvest.Provenance{"comments": blogharvest.MethodRule}, Comments: pc})
		if len(e.Comments) != 1 {
			t.Errorf("%s: %d comments, want 1: %+v", frag, len(e.Comments), e.Comments)
			continue
		}
		if e.Comments[0].Author != "Tomás" {
			t.Errorf("%s: author %q, want Tomás", frag, e.Comments[0].Author)
		}
	}
}

// TestCommentIdentityByPlatformID: a feed comment known only by its
// platform id (a GUID ending in #comment-N, no link) and the page's
// element comment-N are one comment whatever the feed did to the
// author's name (a numeric or a named character reference left in it)
// and however far apart the two dates are.
func TestCommentIdentityByPlatformID(t *testing.T) {
	post := "http://b.ex/notes/harbour.html"
	t0 := time.Date(2024, 10, 29, 23, 42, 10, 0, time.UTC)
	for _, tc := range []struct{ feedAuthor, pageAuthor string }{
		{"O&#039;Brien", "O'Brien"},
		{"Ren&eacute;e", "Renée"},
		{"Tom&#xE1;s", "Tomás"},
	} {
		e := &blogharvest.Entry{URL: post}
		fc := []feed.Comment{{ID: "http://b.ex/?p=12#comment-1187", Author: tc.feedAuthor, Published: t0, Content: "<p>Great harbour photos, thank you.</p>"}}
		pc := []learn.Comment{{ID: "comment-1187", Author: tc.pageAuthor, Date: t0.Add(-5 * time.Hour), DatePrecision: blogharvest.PrecisionMinute,
			ContentText: "Great harbour photos, thank you!"}}
		FillComments(e, &Post{Comments: fc}, learn.Extraction{Methods: blogharvest.Provenance{"comments": blogharvest.MethodRule}, Comments: pc})
		if len(e.Comments) != 1 || e.Comments[0].Author != tc.pageAuthor {
			t.Errorf("feed author %q, page author %q: %d comments %+v; want one by %s", tc.feedAuthor, tc.pageAuthor, len(e.Comments), e.Comments, tc.pageAuthor)
		}
	}
}
