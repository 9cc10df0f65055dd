package feed

import (
	"bytes"
	"html"
	"strings"

	"github.com/mmcdole/gofeed"
	"github.com/mmcdole/gofeed/rss"
)

// parseRSSCut is parseGofeed for an RSS document the scan found plain
// (scanned.plainRSS): gofeed's RSS parser reads text without the items'
// bodies (sc.bodies), and each item's Description and Content are then
// taken from the body's bytes as gofeed's own shared.ParseText takes them
// (gofeedText), before the translation. gofeed decoding a full-text
// feed's bodies a second time, after the scan, was most of its cost
// (ParseText's encoding/xml DecodeElement of the element's inner XML).
// It reports false, and gives nothing, when it cannot promise gofeed's
// own result: a body holding markup other than CDATA sections (whose
// elements would move the parser), items it cannot pair, any error;
// parse then calls parseGofeed on the whole text. With cut false it
// reports false at once.
func parseRSSCut(text []byte, sc *scanned, cut bool) (*gofeed.Feed, bool) {
	if !cut || !sc.plainRSS || len(sc.bodies) == 0 || !startsLikeXML(text) {
		return nil, false
	}
	for _, sp := range sc.bodies {
		if !textAndCDATA(text[sp[0]:sp[1]]) {
			return nil, false
		}
	}
	rf, err := (&rss.Parser{}).Parse(endingReader(withoutSpans(text, sc.bodies)))
	if err != nil || len(rf.Items) != len(sc.items) {
		return nil, false
	}
	for i, it := range rf.Items {
		si := &sc.items[i]
		if si.description != [2]int{} {
			if it.Description != "" {
				return nil, false // not the element the scan cut
			}
			it.Description = gofeedText(text[si.description[0]:si.description[1]])
		}
		if si.encoded != [2]int{} {
			if it.Content != "" {
				return nil, false
			}
			it.Content = gofeedText(text[si.encoded[0]:si.encoded[1]])
		}
	}
	skipImageSearch(rf)
	gf, _ := (&gofeed.DefaultRSSTranslator{}).Translate(rf)
	return gf, gf != nil
}

// cdataStart and cdataEnd open and close a CDATA section.
var cdataStart, cdataEnd = []byte("<![CDATA["), []byte("]]>")

// textAndCDATA reports whether b, an element's content, is character
// data and CDATA sections only: no element, comment or processing
// instruction, so that an XML parser reads it as text alone.
func textAndCDATA(b []byte) bool {
	for {
		i := bytes.IndexByte(b, '<')
		if i < 0 {
			return true
		}
		b = b[i:]
		if !bytes.HasPrefix(b, cdataStart) {
			return false
		}
		j := bytes.Index(b[len(cdataStart):], cdataEnd)
		if j < 0 {
			return false
		}
		b = b[len(cdataStart)+j+len(cdataEnd):]
	}
}

// The rest of this file is gofeed's internal/shared ParseText,
// StripCDATA and DecodeEntities (github.com/mmcdole/gofeed v1.3.0,
// MIT License, Copyright (c) 2016 mmcdole), kept as they are, their
// quirks included (StripCDATA's position after a section), so that a
// body read here is the string gofeed gives: ParseText decodes the
// element's inner XML, which for a body of text and CDATA sections is
// its bytes in the document.

// gofeedText is shared.ParseText given the element's inner XML (read
// as bytes where ParseText converts to a string and back; the same
// white space trimmed, bytes.TrimSpace being strings.TrimSpace).
func gofeedText(inner []byte) string {
	result := bytes.TrimSpace(inner)
	if bytes.Contains(result, cdataStart) {
		return stripCDATA(string(result))
	}
	return decodeEntities(result)
}

const gofeedCDATAStart, gofeedCDATAEnd = "<![CDATA[", "]]>"

// stripCDATA is shared.StripCDATA (its buffer sized at once: a body
// is often the whole post).
func stripCDATA(str string) string {
	buf := bytes.NewBuffer(make([]byte, 0, len(str)))
	curr := 0
	for curr < len(str) {
		start := indexAt(str, gofeedCDATAStart, curr)
		if start == -1 {
			buf.WriteString(decodeEntities([]byte(str[curr:])))
			return buf.String()
		}
		end := indexAt(str, gofeedCDATAEnd, start)
		if end == -1 {
			buf.WriteString(decodeEntities([]byte(str[curr:])))
			return buf.String()
		}
		buf.WriteString(str[start+len(gofeedCDATAStart) : end])
		curr = curr + end + len(gofeedCDATAEnd)
	}
	return buf.String()
}

// decodeEntities is shared.DecodeEntities (which never fails), on bytes,
// its buffer sized at once (String copies it: a string
// sharing a buffer sized for the escaped text would keep the difference
// alive as long as the item).
func decodeEntities(data []byte) string {
	buf := bytes.NewBuffer(make([]byte, 0, len(data)))
	for len(data) > 0 {
		idx := bytes.IndexByte(data, '&')
		if idx == -1 {
			buf.Write(data)
			break
		}
		buf.Write(data[:idx])
		data = data[idx:]
		if len(data) == 1 {
			buf.Write(data)
			return buf.String()
		}
		end := bytes.IndexByte(data, ';')
		if end == -1 {
			buf.Write(data)
			return buf.String()
		}
		if bytes.IndexByte(data[1:end], ' ') >= 0 {
			buf.Write(data)
			return buf.String()
		}
		if c, ok := commonEntity(data[1:end]); ok {
			buf.WriteByte(c)
		} else {
			buf.WriteString(html.UnescapeString(string(data[0 : end+1])))
		}
		data = data[end+1:]
	}
	return buf.String()
}

// commonEntity returns what html.UnescapeString gives for the entities
// escaped HTML is made of ("&lt;", "&gt;", "&amp;", "&quot;", "&#39;",
// "&#34;"), name being what lies between '&' and ';', without the
// string UnescapeString takes and gives.
func commonEntity(name []byte) (byte, bool) {
	switch string(name) {
	case "lt":
		return '<', true
	case "gt":
		return '>', true
	case "amp":
		return '&', true
	case "quot", "#34":
		return '"', true
	case "#39":
		return '\'', true
	}
	return 0, false
}

// indexAt is shared's indexAt.
func indexAt(str, substr string, start int) int {
	idx := strings.Index(str[start:], substr)
	if idx > -1 {
		idx += start
	}
	return idx
}
