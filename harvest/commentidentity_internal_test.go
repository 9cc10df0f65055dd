package harvest

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
			(&crawl{}).fillComments(e, &pageJob{comments: c.feed}, learn.Extraction{Methods: rule, Comments: c.page})
			if len(e.Comments) != c.count {
				t.Errorf("%d comments, want %d: %+v", len(e.Comments), c.count, e.Comments)
			}
		})
	}
}
