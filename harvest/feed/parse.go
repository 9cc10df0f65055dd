package feed

import (
	"bytes"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/mmcdole/gofeed"
)

// Parse parses an RSS (0.9x, 1.0, 2.0), Atom or JSON Feed document
// fetched from feedURL, whatever its declared encoding or media type.
// Relative links are resolved against feedURL. The error names what is
// wrong: not a feed (wrapping ErrNotFeed), or where the XML breaks. Errors
// are permanent.
func Parse(body []byte, feedURL string) (*Feed, error) {
	return parseAs(body, feedURL, false)
}

// parseAs is Parse; datesOnly leaves out the items' bodies (as
// PageOptions.DatesOnly says).
func parseAs(body []byte, feedURL string, datesOnly bool) (*Feed, error) {
	f, err := parse(body, feedURL, datesOnly)
	if err != nil {
		return nil, blogharvest.Permanent(fmt.Errorf("parse feed %s: %w", feedURL, err))
	}
	return f, nil
}

// parse parses body. With datesOnly, gofeed is given the document without
// the text of each item's body elements (bodySpans): the item's dates,
// links, GUID, title and its own XML (Item.Raw, cut from the whole
// document) are read as before, its Content and Summary are empty.
// Without it, a plain RSS document's bodies are still left out of what
// gofeed reads, and filled in as gofeed would read them (parseRSSCut).
func parse(body []byte, feedURL string, datesOnly bool) (*Feed, error) {
	return parseCut(body, feedURL, datesOnly, true)
}

// parseCut is parse; without cutBodies gofeed reads the document whole
// unless datesOnly (the tests' reference for parseRSSCut).
func parseCut(body []byte, feedURL string, datesOnly, cutBodies bool) (*Feed, error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return nil, fmt.Errorf("empty document: %w", ErrNotFeed)
	}
	if isJSONFeed(body) {
		return parseJSON(body, feedURL)
	}
	text, _, removed := toLegalUTF8(body)
	sc, err := scan(text)
	if err != nil {
		return nil, fmt.Errorf("malformed XML: %w", err)
	}
	format := map[string]string{"rss": "rss", "RDF": "rss", "feed": "atom"}[sc.root]
	if format == "" {
		return nil, fmt.Errorf("root element is <%s>, not rss, feed or rdf:RDF: %w", sc.root, ErrNotFeed)
	}
	gf, cut := (*gofeed.Feed)(nil), false
	if datesOnly {
		gf, err = parseGofeed(withoutSpans(text, sc.bodies), format)
	} else if gf, cut = parseRSSCut(text, sc, cutBodies); !cut {
		gf, err = parseGofeed(text, format)
	}
	if err != nil {
		return nil, fmt.Errorf("malformed %s: %w", format, err)
	}
	f := fromGofeed(gf, feedURL)
	f.Format, f.Raw, f.Removed = format, body, removed
	mergeScanned(f, sc, feedURL)
	return f, nil
}

// withoutSpans returns text without the bytes of spans (ascending,
// disjoint [start, end) offsets); text itself when there are none.
func withoutSpans(text []byte, spans [][2]int) []byte {
	if len(spans) == 0 {
		return text
	}
	n := len(text)
	for _, sp := range spans {
		n -= sp[1] - sp[0]
	}
	out := make([]byte, 0, n)
	at := 0
	for _, sp := range spans {
		out = append(out, text[at:sp[0]]...)
		at = sp[1]
	}
	return append(out, text[at:]...)
}

// fromGofeed copies gofeed's universal feed into a Feed.
func fromGofeed(gf *gofeed.Feed, feedURL string) *Feed {
	f := &Feed{
		URL: feedURL, Title: clean(gf.Title), Subtitle: clean(gf.Description), Link: resolve(feedURL, gf.Link),
		Language: strings.TrimSpace(gf.Language), Generator: strings.TrimSpace(gf.Generator),
		Rights: strings.TrimSpace(gf.Copyright), Updated: timeOf(gf.UpdatedParsed),
	}
	for _, gi := range gf.Items {
		f.Items = append(f.Items, fromGofeedItem(gi, feedURL))
	}
	if len(gf.Authors) > 0 {
		f.Webmaster = person(gf.Authors[0])
	}
	return f
}

// fromGofeedItem copies one gofeed item.
func fromGofeedItem(gi *gofeed.Item, feedURL string) Item {
	it := Item{
		GUID: strings.TrimSpace(gi.GUID), Link: resolve(feedURL, gi.Link), Title: clean(gi.Title),
		Published: timeOf(gi.PublishedParsed), Updated: timeOf(gi.UpdatedParsed),
		Content: gi.Content, Summary: gi.Description, Categories: gi.Categories, CommentCount: -1,
	}
	if gi.PublishedParsed != nil {
		it.Offset = statedOffset(gi.Published)
	} else if gi.UpdatedParsed != nil {
		it.Offset = statedOffset(gi.Updated)
	}
	if len(gi.Authors) > 0 {
		it.Author = strings.TrimSpace(gi.Authors[0].Name)
	}
	if it.Author == "" && gi.DublinCoreExt != nil && len(gi.DublinCoreExt.Creator) > 0 {
		it.Author = strings.TrimSpace(gi.DublinCoreExt.Creator[0])
	}
	for _, e := range gi.Enclosures {
		if e.URL != "" {
			it.Enclosures = append(it.Enclosures, resolve(feedURL, e.URL))
		}
	}
	return it
}

// mergeScanned adds what the scanner found to f.
func mergeScanned(f *Feed, sc *scanned, feedURL string) {
	f.TotalResults = sc.totalResults
	f.Webmaster = firstNonEmpty(sc.managingEditor, sc.webMaster, f.Webmaster)
	f.Rights = firstNonEmpty(f.Rights, sc.dcRights)
	f.License = sc.license
	f.UpdateFrequency = updateFrequency(sc)
	f.Platform, f.PlatformID, f.PlatformVersion = platformOf(sc.genValue, sc.genURI, sc.genVer)
	for _, l := range sc.links {
		switch l.Rel {
		case "next", "prev-archive":
			f.Next = appendNew(f.Next, resolve(feedURL, l.Href))
		case "license":
			f.License = firstNonEmpty(f.License, resolve(feedURL, l.Href))
		}
	}
	if len(sc.items) != len(f.Items) {
		return // cannot pair them safely
	}
	for i := range f.Items {
		mergeItem(&f.Items[i], &sc.items[i], feedURL)
	}
}

// mergeItem adds comment links, counts and the item's place in the text
// (Item.XML) to it.
func mergeItem(it *Item, si *scannedItem, feedURL string) {
	it.xml = si.xml
	if orig := resolve(feedURL, strings.TrimSpace(si.origLink)); orig != "" {
		it.Link = orig // FeedBurner's item link is its own redirect (feedproxy.google.com/~r/…)
	}
	it.authorURL = si.authorURI
	it.replyTo = parentRef(si, it.GUID)
	it.CommentFeedURL = resolve(feedURL, si.commentRss)
	it.CommentsURL = resolve(feedURL, si.comments)
	it.CommentCount = si.commentCount
	for _, l := range si.links {
		if l.Rel != "replies" {
			continue
		}
		if isFeedType(l.Type) {
			it.CommentFeedURL = firstNonEmpty(it.CommentFeedURL, resolve(feedURL, l.Href))
		} else {
			it.CommentsURL = firstNonEmpty(it.CommentsURL, resolve(feedURL, l.Href))
		}
		if it.CommentCount < 0 && l.Count >= 0 {
			it.CommentCount = l.Count
		}
	}
}

// isFeedType reports whether a link type is a feed's media type.
func isFeedType(t string) bool {
	t = strings.ToLower(t)
	return strings.Contains(t, "atom") || strings.Contains(t, "rss") || strings.Contains(t, "feed+json") || strings.Contains(t, "rdf")
}

// updateFrequency renders sy:updatePeriod/updateFrequency or ttl.
func updateFrequency(sc *scanned) string {
	if sc.updatePeriod != "" {
		return sc.updatePeriod + "/" + firstNonEmpty(sc.updateFreq, "1")
	}
	if sc.ttl != "" {
		return "ttl " + sc.ttl + "m"
	}
	return ""
}

// resolve makes ref absolute against base; it returns ref unchanged if
// either does not parse, and "" for "".
func resolve(base, ref string) string {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return ""
	}
	b, err1 := url.Parse(base)
	r, err2 := url.Parse(ref)
	if err1 != nil || err2 != nil {
		return ref
	}
	return b.ResolveReference(r).String()
}

func person(p *gofeed.Person) string {
	switch {
	case p.Name != "" && p.Email != "":
		return p.Name + " <" + p.Email + ">"
	case p.Name != "":
		return p.Name
	}
	return p.Email
}

func timeOf(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return *t
}

// statedOffset returns the numeric UTC offset, in seconds east, a feed
// date ends with ("+01:00", "-0500"); 0 for "Z", a zone name or none.
func statedOffset(s string) int {
	s = strings.TrimSpace(s)
	n := len(s)
	if n >= 6 && s[n-3] == ':' {
		s, n = s[:n-3]+s[n-2:], n-1
	}
	if n < 5 || s[n-5] != '+' && s[n-5] != '-' {
		return 0
	}
	h, m := digits2(s[n-4:n-2]), digits2(s[n-2:])
	if h < 0 || m < 0 || h > 14 || m > 59 {
		return 0
	}
	off := h*3600 + m*60
	if s[n-5] == '-' {
		off = -off
	}
	return off
}

// digits2 returns the number two ASCII digits write, -1 when they are not digits.
func digits2(s string) int {
	if s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' {
		return -1
	}
	return int(s[0]-'0')*10 + int(s[1]-'0')
}

// clean collapses the white space of a plain-text field.
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

func appendNew(list []string, s string) []string {
	for _, v := range list {
		if v == s {
			return list
		}
	}
	return append(list, s)
}
