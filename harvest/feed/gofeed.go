package feed

import (
	"bytes"
	"errors"
	"io"

	"github.com/blogharvest/blogharvest/internal/lazyregexp"
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
// errors are gofeed's own, word for word; but an RSS document with an
// enclosure tag not in lower case, on which gofeed never returns, is an
// error of its own.
func parseGofeed(text []byte, format string) (*gofeed.Feed, error) {
	if !startsLikeXML(text) {
		return gofeed.NewParser().Parse(bytes.NewReader(text))
	}
	var gf *gofeed.Feed
	var err error
	switch format {
	case "atom":
		var af *atom.Feed
		if af, err = (&atom.Parser{}).Parse(endingReader(text)); err == nil {
			gf, _ = (&gofeed.DefaultAtomTranslator{}).Translate(af)
		}
	case "rss":
		var rf *rss.Feed
		if rf, err = (&rss.Parser{}).Parse(endingReader(text)); err == nil {
			skipImageSearch(rf)
			gf, _ = (&gofeed.DefaultRSSTranslator{}).Translate(rf)
		}
	}
	if errors.Is(err, errEndOfFeed) && hasMiscasedEnclosure(text) {
		return nil, errors.New("an enclosure element not written in lower case runs to the end of the document")
	}
	if gf == nil {
		return gofeed.NewParser().Parse(bytes.NewReader(text))
	}
	return gf, nil
}

// errEndOfFeed ends the document endingReader gives gofeed's parsers.
var errEndOfFeed = errors.New("end of feed")

// endingReader reads text and then fails with errEndOfFeed, not io.EOF.
// gofeed's RSS parser never returns from an enclosure element whose name
// is not written in lower case ("<Enclosure/>"): it waits for
// "</enclosure>" and takes each read at io.EOF for one more event. An
// error stops it. A document gofeed reads whole never gets that far: it
// stops at the root element's end tag.
func endingReader(text []byte) io.Reader {
	return io.MultiReader(bytes.NewReader(text), failingReader{})
}

// failingReader fails every read with errEndOfFeed.
type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errEndOfFeed }

// enclosureTag finds enclosure start tags, in any case, with any prefix.
var enclosureTag = lazyregexp.New(`<(?:[^\s<>:/]+:)?((?i)enclosure)[\s/>]`)

// hasMiscasedEnclosure reports whether text holds an enclosure tag not
// written in lower case, which gofeed's RSS parser would wait for the end
// of forever.
func hasMiscasedEnclosure(text []byte) bool {
	for _, m := range enclosureTag.FindAllSubmatch(text, -1) {
		if string(m[1]) != "enclosure" {
			return true
		}
	}
	return false
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
