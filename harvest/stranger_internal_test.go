package harvest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/learn"
)

// TestStrangerEvidence: a feed item is found again among the archived
// posts by its URL, a redirect to it, its guid, or its title on the
// same day (either date unknown: the title alone); another person's item
// (another title, another day, its own URL and guid) or the same title
// on another day is not; a catch-all redirect is no evidence.
func TestStrangerEvidence(t *testing.T) {
	day := time.Date(2021, 3, 4, 10, 0, 0, 0, time.UTC)
	m := newMoveIndex([]ArchivedPost{
		{URL: "http://b.test/a.html", Title: "Alder", Created: day, GUID: "tag:b.test,2021:a"},
		{URL: "http://b.test/b.html", Title: "Birch", Created: day},
		{URL: "http://b.test/c.html", Title: "Cedar"},
	})
	m.redirect("http://b.test/2021/03/birch/", 1)
	m.redirect("http://b.test/", 0)
	m.redirect("http://b.test/", 2) // a catch-all: two archived URLs lead there
	for _, tc := range []struct {
		it   feed.Item
		want string
	}{
		{feed.Item{Link: "http://b.test/a.html", Title: "Other"}, "archived URL"},
		{feed.Item{Link: "http://b.test/2021/03/birch/", Title: "Other"}, "redirect"},
		{feed.Item{Link: "http://b.test/x/", GUID: "tag:b.test,2021:a"}, "feed guid"},
		{feed.Item{Link: "http://b.test/y/", Title: "alder ", Published: day.Add(3 * time.Hour)}, "title and day"},
		{feed.Item{Link: "http://b.test/z/", Title: "Cedar", Published: day.AddDate(1, 0, 0)}, "title and day"},
		{feed.Item{Link: "http://b.test/w/", Title: "Alder", Published: day.AddDate(0, 0, 2)}, ""},
		{feed.Item{Link: "http://b.test/", Title: "Buy this domain"}, ""},
		{feed.Item{Link: "http://b.test/2024/05/kernel/", GUID: "http://b.test/2024/05/kernel/", Title: "Kernel threads", Published: day.AddDate(3, 0, 0)}, ""},
	} {
		if got := m.foundAgain(&tc.it); got != tc.want {
			t.Errorf("%s %q: found again by %q, want %q", tc.it.Link, tc.it.Title, got, tc.want)
		}
	}
}

// TestStrangerAnswered: a 4xx or a page without a feed is an answer of
// the address (a stranger may be there); a 5xx, a 408 or 429, or a
// connection error is a blog down, never a stranger.
func TestStrangerAnswered(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{&fetch.StatusError{Code: 404}, true},
		{&fetch.StatusError{Code: 403}, true},
		{fmt.Errorf("discover: %w", blogharvest.ErrNotBlog), true},
		{feed.ErrNotFeed, true},
		{&fetch.StatusError{Code: 503}, false},
		{&fetch.StatusError{Code: 429}, false},
		{errors.New("dial tcp: connection refused"), false},
	} {
		if got := answered(tc.err); got != tc.want {
			t.Errorf("answered(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
	var err error = blogharvest.Permanent(&IdentityError{Blog: "http://b.test/", Evidence: []string{"x"}})
	var ie *IdentityError
	if !errors.Is(err, ErrIdentityChanged) || !errors.As(err, &ie) || blogharvest.IsTransient(err) {
		t.Errorf("%v: not a permanent IdentityError", err)
	}
}

// TestRulesMisfit: rules fit an extraction whose article rule scores at
// least their MinConfidence and whose title and text are the feed item's;
// an article rule under it, a title rule that found nothing, or a title or
// text unlike the item's is a misfit.
func TestRulesMisfit(t *testing.T) {
	rules := &learn.Rules{MinConfidence: 0.5, Article: &learn.Rule{Trusted: true}, Title: &learn.Rule{Trusted: true}}
	text := "The lock keeper walked the towpath at dawn and counted the barges waiting by the weir."
	good := learn.Extraction{Title: "The lock keeper", ContentText: text, Score: 0.9,
		Methods: blogharvest.Provenance{"title": blogharvest.MethodRule}}
	if why := misfit(rules, good, nil, "The lock keeper", "<p>"+text+"</p>", true); why != "" {
		t.Errorf("a fitting extraction: %q", why)
	}
	for name, ex := range map[string]learn.Extraction{
		"article under": {Title: good.Title, ContentText: text, Score: 0.1, Methods: good.Methods},
		"no title rule": {Title: good.Title, ContentText: text, Score: 0.9, Methods: blogharvest.Provenance{"title": blogharvest.MethodHeuristic}},
		"other title":   {Title: "Towpath notes", ContentText: text, Score: 0.9, Methods: good.Methods},
		"other text":    {Title: good.Title, ContentText: "Archives Categories Tags Feeds", Score: 0.9, Methods: good.Methods},
	} {
		if why := misfit(rules, ex, nil, "The lock keeper", "<p>"+text+"</p>", true); why == "" {
			t.Errorf("%s: taken for a fit", name)
		}
	}
}
