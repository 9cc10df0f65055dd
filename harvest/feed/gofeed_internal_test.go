package feed

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/mmcdole/gofeed"
)

// TestParseGofeedMatchesParser checks that parseGofeed gives what
// gofeed.Parser.Parse gives, images aside, for every feed of the corpus
// and some odd documents: the same translation or the same error.
func TestParseGofeedMatchesParser(t *testing.T) {
	docs := map[string][]byte{
		"itunes": []byte(`<rss xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>t</title>
			<item><title>a</title><itunes:summary>s</itunes:summary><itunes:author>Al</itunes:author><description>&lt;img src="x.png"&gt;</description></item>
			<item><title>b</title><itunes:image href="i.png"/><enclosure url="e.jpg" type="image/jpeg"/></item></channel></rss>`),
		"atom":      []byte(`<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title><entry><id>1</id><content type="html">&lt;img src="x"&gt;</content></entry></feed>`),
		"garbage":   []byte(`x<rss><channel><item><title>a</title></item></channel></rss>`),
		"bom":       []byte("\xef\xbb\xbf <rss><channel><title>t</title></channel></rss>"),
		"json-like": []byte(`{"a":"<rss/>"}`),
		"unclosed":  []byte(`<rss><channel><item><title>a</title></channel></rss>`),
		"rdf":       []byte(`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"><channel><title>t</title></channel><item><title>a</title></item></rdf:RDF>`),
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
		text, _, _ := toLegalUTF8(body)
		sc, err := scan(text)
		if err != nil {
			continue
		}
		format := map[string]string{"rss": "rss", "RDF": "rss", "feed": "atom"}[sc.root]
		if format == "" {
			continue
		}
		compared++
		got, gerr := parseGofeed(text, format)
		want, werr := gofeed.NewParser().Parse(bytes.NewReader(text))
		if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
			t.Errorf("%s: error %v, gofeed's %v", name, gerr, werr)
			continue
		}
		if gerr == nil && !reflect.DeepEqual(withoutImages(got), withoutImages(want)) {
			t.Errorf("%s: translation differs from gofeed's", name)
		}
	}
	if compared < 6 {
		t.Errorf("only %d documents compared", compared)
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
