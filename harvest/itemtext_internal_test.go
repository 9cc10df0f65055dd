package harvest

import (
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/learn"
)

// TestItemTextsReadWithFeed checks that the feed's items' texts are read
// once, with the feed, and that fillContent and fullTextFeed answer from
// what was read: a text planted for an item's content decides, where
// reading the content again would decide otherwise.
func TestItemTextsReadWithFeed(t *testing.T) {
	long := "<p>" + strings.Repeat("word ", 60) + "</p>"
	f := &feed.Feed{Items: []feed.Item{{Content: long}, {Content: "<p>short</p>"}, {Content: long}}}
	texts := readItemTexts(f)
	if len(texts) != 2 {
		t.Fatalf("%d texts for two distinct contents", len(texts))
	}
	for _, it := range f.Items {
		if got, want := texts.of(it.Content), itemTextOf(it.Content); got != want {
			t.Errorf("%.20q: read with the feed %+v, read alone %+v", it.Content, got, want)
		}
	}
	if !texts.of(long).full || texts.of("<p>short</p>").full {
		t.Errorf("long item full %v, short item full %v", texts.of(long).full, texts.of("<p>short</p>").full)
	}
	if got := itemTexts(nil).of(long); got != itemTextOf(long) {
		t.Errorf("an item the feed did not hold: %+v", got)
	}

	short := "<p>short</p>"
	planted := itemTexts{short: {full: true, n: 1000}}
	if !fullTextFeed(&feed.Feed{Items: []feed.Item{{Content: short}}}, planted) {
		t.Error("fullTextFeed read the item again instead of its text read with the feed")
	}
	ex := learn.Extraction{ContentHTML: "<p>page</p>", ContentText: "page", Score: 1}
	r := &reading{cfg: readConfig{full: true, texts: planted}}
	e := &blogharvest.Entry{}
	r.fillContent(e, &feed.Item{Content: short}, ex, nil)
	if e.Content != short {
		t.Errorf("fillContent kept %q: it read the item again instead of its text read with the feed", e.Content)
	}
}
