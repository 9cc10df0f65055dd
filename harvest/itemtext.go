package harvest

import (
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/textsim"
)

// itemText is what a crawl reads of a feed item's text (textsim.HTMLText
// of its content): whether it looks like a whole post (fullText) and its
// length in bytes.
type itemText struct {
	full bool
	n    int
}

// itemTextOf reads the itemText of a feed item's content.
func itemTextOf(content string) itemText {
	text := textsim.HTMLText(content)
	return itemText{full: fullText(text), n: len(text)}
}

// itemTexts holds the itemText of the feed's items by their content, read
// once with the feed (readFeed) and read-only afterwards (the page worker's
// copy of the site shares it). Each item's HTML was tokenized again for
// the same answer by fullTextFeed, by its training pair, by fillContent
// and twice by renderReason: on a full-text feed of long posts (jerryc's
// 657 KB Atom feed) the most of what a crawl spent on the items' text.
type itemTexts map[string]itemText

// readItemTexts reads the itemText of each of f's items.
func readItemTexts(f *feed.Feed) itemTexts {
	m := make(itemTexts, len(f.Items))
	for i := range f.Items {
		c := f.Items[i].Content
		if _, ok := m[c]; !ok {
			m[c] = itemTextOf(c)
		}
	}
	return m
}

// of returns the itemText of an item's content: the one read with the
// feed, or, for an item the feed did not hold (a nil itemTexts holds
// none), one read now.
func (m itemTexts) of(content string) itemText {
	if t, ok := m[content]; ok {
		return t
	}
	return itemTextOf(content)
}

// full reports whether the item's content looks like a whole post
// (fullText of its text).
func (m itemTexts) full(it *feed.Item) bool { return m.of(it.Content).full }
