package learn_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/textsim"
)

// TestDateRuleNotInWidget: every training post was published on one day,
// which a sidebar widget ("latest tweets") also shows on every page, as a
// bare date; the post's own date sits in its meta line with other words.
// The learned rule must be the post's, so that it works on other days.
func TestDateRuleNotInWidget(t *testing.T) {
	day := time.Date(2024, 3, 3, 10, 0, 0, 0, time.UTC)
	page := func(i int, shown time.Time) []byte {
		return []byte(fmt.Sprintf(`<html><body><div id="main"><article class="post"><h1 class="entry-title">Walk %d</h1>
<p class="post-meta">Posted %s by <span class="author">Ann Writer</span> · Leave a comment</p>
<div class="entry-content"><p>%s</p></div></article></div>
<div id="sidebar"><div id="twitter-2" class="widget widget_twitter"><ul><li>%s</li></ul></div></div></body></html>`,
			i, shown.Format("January 2, 2006"), strings.Repeat(fmt.Sprintf("Walk %d went along the river and back. ", i), 8),
			day.Format("January 2, 2006")))
	}
	var pairs []learn.Pair
	for i := range 5 {
		pairs = append(pairs, learn.Pair{Page: learn.Page{URL: fmt.Sprintf("https://b.example/walk-%d/", i), HTML: page(i, day)},
			Target: learn.Target{Title: fmt.Sprintf("Walk %d", i), Author: "Ann Writer", Date: day.Add(time.Duration(i) * time.Hour),
				Content: strings.Repeat(fmt.Sprintf("Walk %d went along the river and back. ", i), 8), FullText: true}})
	}
	rules, err := learn.Learn(pairs, learn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rules.Date == nil || strings.Contains(rules.Date.XPath, "twitter") || strings.Contains(rules.Date.XPath, "sidebar") {
		t.Fatalf("date rule %+v lies in the sidebar widget", rules.Date)
	}
	other := time.Date(2023, 11, 20, 0, 0, 0, 0, time.UTC)
	x, err := rules.Extract(learn.Page{URL: "https://b.example/walk-9/", HTML: page(9, other)})
	if err != nil || !textsim.SameDay(x.Date, other) {
		t.Errorf("an older post: date %v, %v; want %v", x.Date, err, other.Format("2006-01-02"))
	}
}
