package comments

import (
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/learn"
)

// TestCommentOrder: an archived comment feed tells its date order only
// with two comments or more, in one order, and all feeds must agree.
func TestCommentOrder(t *testing.T) {
	at := func(hs ...int) []feed.Comment {
		var cs []feed.Comment
		for _, h := range hs {
			cs = append(cs, feed.Comment{Published: time.Date(2024, 1, 1, h, 0, 0, 0, time.UTC)})
		}
		return cs
	}
	for _, c := range []struct {
		cs          []feed.Comment
		known, want int
		fails       bool
	}{
		{at(3, 2, 1), 0, -1, false},
		{at(1, 2, 3), 0, 1, false},
		{at(5), -1, -1, false},
		{nil, 0, 0, false},
		{at(1, 3, 2), 0, 0, true},
		{at(2, 2), 0, 0, true},
		{at(1, 2), -1, 0, true},
	} {
		got, err := commentOrder(c.cs, c.known)
		if (err != nil) != c.fails || err == nil && got != c.want {
			t.Errorf("commentOrder(%d comments, %d) = %d, %v; want %d, fails %v", len(c.cs), c.known, got, err, c.want, c.fails)
		}
	}
}

// TestEditedOnPage: a comment the page shows with another text than the
// archived one is edited; whitespace does not count, nor page comments
// the archive does not hold.
func TestEditedOnPage(t *testing.T) {
	cs := []feed.Comment{{ID: "http://b.example/?p=1#comment-7", Content: "<p>Nice  post.</p>\n"}}
	same := []learn.Comment{{ID: "div-comment-7", ContentText: "Nice post."}, {ID: "div-comment-9", ContentText: "Other"}}
	if err := editedOnPage(cs, same); err != nil {
		t.Errorf("same text: %v", err)
	}
	if err := editedOnPage(cs, []learn.Comment{{ID: "div-comment-7", ContentText: "Nice post!"}}); err == nil {
		t.Error("an edited comment passed")
	}
}
