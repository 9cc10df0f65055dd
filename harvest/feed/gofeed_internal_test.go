package feed

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mmcdole/gofeed"
)

// oddDocs are documents that take parseGofeed's less travelled paths.
var oddDocs = map[string]string{
	"itunes": `<rss xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>t</title>
		<item><title>a</title><itunes:summary>s</itunes:summary><itunes:author>Al</itunes:author><description>&lt;img src="x.png"&gt;</description></item>
		<item><title>b</title><itunes:image href="i.png"/><enclosure url="e.jpg" type="image/jpeg"/></item></channel></rss>`,
	"atom":      `<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><entry><id>1</id><content type="html">&lt;img src="x"&gt;</content></entry></feed>`,
	"garbage":   `x<rss><channel><item><title>a</title></item></channel></rss>`,
	"bom":       "\xef\xbb\xbf <rss><channel><title>t</title></channel></rss>",
	"json-like": `{"a":"<rss/>"}`,
	"unclosed":  `<rss><channel><item><title>a</title></channel></rss>`,
	"rdf":       `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"><channel><title>t</title></channel><item><title>a</title></item></rdf:RDF>`,
}

// TestParseGofeedMatchesParser checks that parseGofeed gives what
// gofeed.Parser.Parse gives, images aside, for every feed of the corpus
// and some odd documents: the same translation or the same error.
func TestParseGofeedMatchesParser(t *testing.T) {
	docs := map[string][]byte{}
	for name, d := range oddDocs {
		docs[name] = []byte(d)
	}
	filepath.WalkDir("../../../shared/corpus", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if body, err := os.ReadFile(path); err == nil && Sniff(body) {
				docs[path] = body
			}
		}
		return nil
	})
	compared := 0
	for name, body := range docs {
		if sameAsGofeed(t, name, body) {
			compared++
		}
	}
	if compared < 6 {
		t.Errorf("only %d documents compared", compared)
	}
}

// FuzzParseGofeed checks parseGofeed against gofeed.Parser.Parse on any
// document the scanner reads as a feed.
func FuzzParseGofeed(f *testing.F) {
	for _, d := range oddDocs {
		f.Add([]byte(d))
	}
	f.Fuzz(func(t *testing.T, body []byte) { sameAsGofeed(t, "fuzz", body) })
}

// sameAsGofeed compares parseGofeed and gofeed.Parser.Parse on body, if it
// gets that far in Parse, and reports whether it did.
func sameAsGofeed(t *testing.T, name string, body []byte) bool {
	text, _, _ := toLegalUTF8(body)
	sc, err := scan(text)
	if err != nil {
		return false
	}
	format := map[string]string{"rss": "rss", "RDF": "rss", "feed": "atom"}[sc.root]
	if format == "" {
		return false
	}
	got, gerr := parseGofeed(text, format)
	if hasMiscasedEnclosure(text) {
		return true // gofeed.Parser.Parse may never return
	}
	want, werr := gofeed.NewParser().Parse(bytes.NewReader(text))
	if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
		t.Errorf("%s: error %v, gofeed's %v", name, gerr, werr)
	} else if gerr == nil && !reflect.DeepEqual(withoutImages(got), withoutImages(want)) {
		t.Errorf("%s: translation differs from gofeed's", name)
	}
	return true
}

// TestParseMiscasedEnclosure: gofeed's RSS parser never returns from an
// enclosure tag not in lower case; Parse does, with an error.
func TestParseMiscasedEnclosure(t *testing.T) {
	for _, doc := range []string{
		`<rss><channel><item><title>a</title><Enclosure url="x.mp3" type="audio/mpeg"/></item></channel></rss>`,
		`<rss xmlns:itunes><item><itunes:summary></itunes:summary></item><item><A:0/><enClosure type="image/"></rss>`,
	} {
		if _, err := Parse([]byte(doc), "https://x.example.org/feed"); err == nil || !strings.Contains(err.Error(), "enclosure") {
			t.Errorf("Parse(%q) = %v, want an enclosure error", doc, err)
		}
	}
	for doc, want := range map[string]bool{"<enclosure/>": false, "<Enclosure/>": true, "<x:ENCLOSURE\n>": true,
		"<enclosures>": false, "<rss:enclosure url=''>": false, "&lt;Enclosure>": false} {
		if got := hasMiscasedEnclosure([]byte(doc)); got != want {
			t.Errorf("hasMiscasedEnclosure(%q) = %v, want %v", doc, got, want)
		}
	}
}

// withoutImages clears what skipImageSearch may change: images and the
// iTunes extension of items.
func withoutImages(f *gofeed.Feed) *gofeed.Feed {
	f.Image = nil
	for _, it := range f.Items {
		it.Image, it.ITunesExt = nil, nil
	}
	return f
}
