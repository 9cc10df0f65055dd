package feed_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/feed"
)

func BenchmarkParseRSS50(b *testing.B) {
	doc := []byte(rssPage("https://b.example.org", "https://wordpress.org/?v=6.4.2", "", 50, 1))
	b.SetBytes(int64(len(doc)))
	for b.Loop() {
		if _, err := feed.Parse(doc, "https://b.example.org/feed/"); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzParse checks that no input makes Parse, Sniff or ParseComments panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{rssDoc, atomDoc, jsonDoc, atomComments, "<rss><channel><item>", `{"version":"https://jsonfeed.org/version/1","items":[1]}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		feed.Sniff(body)
		if fd, err := feed.Parse(body, "https://x.example.org/feed"); err == nil && fd == nil {
			t.Error("nil feed without error")
		}
		feed.ParseComments(body, "https://x.example.org/feed")
	})
}

// BenchmarkParseCorpus parses every file of the corpus that sniffs as a
// feed (posts feeds, comment feeds, category feeds), all of them per op.
func BenchmarkParseCorpus(b *testing.B) {
	var docs [][]byte
	filepath.WalkDir(corpusDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if body, err := os.ReadFile(path); err == nil && feed.Sniff(body) {
				docs = append(docs, body)
			}
		}
		return nil
	})
	if len(docs) == 0 {
		b.Skip("corpus absent")
	}
	size := 0
	for _, d := range docs {
		size += len(d)
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		for _, d := range docs {
			if _, err := feed.Parse(d, "http://example.org/feed"); err != nil {
				b.Fatal(err)
			}
		}
	}
}
