package feed

import (
	"bytes"

	"github.com/mmcdole/gofeed"
	"github.com/mmcdole/gofeed/atom"
	ext "github.com/mmcdole/gofeed/extensions"
	"github.com/mmcdole/gofeed/rss"
)

// parseGofeed parses text, a UTF-8 RSS or Atom document whose root the
// scanner found (format), into gofeed's universal feed as
// gofeed.Parser.Parse does, minus two costs: its format detection (which
// copies the whole document twice) and the image search of its RSS
// translator (Feed reads no image). A document gofeed's detection might
// refuse, and every error, goes through gofeed.Parser.Parse itself, so that
// errors are gofeed's own, word for word.
func parseGofeed(text []byte, format string) (*gofeed.Feed, error) {
	if !startsLikeXML(text) {
		return gofeed.NewParser().Parse(bytes.NewReader(text))
	}
	var gf *gofeed.Feed
	switch format {
	case "atom":
		if af, err := (&atom.Parser{}).Parse(bytes.NewReader(text)); err == nil {
			gf, _ = (&gofeed.DefaultAtomTranslator{}).Translate(af)
		}
	case "rss":
		if rf, err := (&rss.Parser{}).Parse(bytes.NewReader(text)); err == nil {
			skipImageSearch(rf)
			gf, _ = (&gofeed.DefaultRSSTranslator{}).Translate(rf)
		}
	}
	if gf == nil {
		return gofeed.NewParser().Parse(bytes.NewReader(text))
	}
	return gf, nil
}

// startsLikeXML reports whether gofeed.DetectFeedType would read text as
// XML: its first byte other than white space and byte-order-mark bytes is
// '<'.
func startsLikeXML(text []byte) bool {
	for _, c := range text {
		switch c {
		case ' ', '\r', '\n', '\t', 0xFE, 0xFF, 0x00, 0xEF, 0xBB, 0xBF:
			continue
		}
		return c == '<'
	}
	return false
}

// noImage is the placeholder image skipImageSearch gives.
const noImage = "-"

// skipImageSearch gives the feed and each item without an image of its own
// a placeholder one, which gofeed's RSS translator takes before it parses
// the description and every item's content and summary as HTML to find an
// <img>. Only the images of the translation change: the other fields it
// reads from the iTunes extension test their own values.
func skipImageSearch(rf *rss.Feed) {
	if rf.Image == nil {
		rf.Image = &rss.Image{URL: noImage}
	}
	for _, it := range rf.Items {
		switch {
		case it.ITunesExt == nil:
			it.ITunesExt = &ext.ITunesItemExtension{Image: noImage}
		case it.ITunesExt.Image == "":
			e := *it.ITunesExt
			e.Image = noImage
			it.ITunesExt = &e
		}
	}
}
