package harvest

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
)

// signatureAsStored is itemSignature as it was written before it hashed
// the pieces one by one: the whole text built, then digested. A
// signature is kept in the crawl state and compared with the next
// crawl's, so it must not change.
func signatureAsStored(it *feed.Item) string {
	kind := "r:"
	if !it.Updated.IsZero() {
		kind = "d:"
	}
	var b strings.Builder
	var raw []byte
	if it.Updated.IsZero() {
		raw = it.XML()
	}
	switch {
	case !it.Updated.IsZero():
		b.WriteString(it.Link + "\x00" + strconv.Itoa(it.CommentCount) + "\x00")
	case len(raw) > 0:
		b.Write(raw)
	default:
		for _, s := range []string{it.GUID, it.Link, it.Title, it.Author, it.Content, it.Summary,
			strconv.Itoa(it.CommentCount), it.Published.UTC().String(), strings.Join(it.Categories, "\x00")} {
			b.WriteString(s)
			b.WriteByte(0)
		}
	}
	b.WriteString(it.Updated.UTC().String())
	return kind + blogharvest.DigestOf([]byte(b.String()))[:32]
}

// TestItemSignatureAsStored compares itemSignature with the signature as
// stored before on every item of the corpus's feeds and on items of each
// kind (dated, with their XML, with their fields only).
func TestItemSignatureAsStored(t *testing.T) {
	t.Parallel()
	items := []feed.Item{
		{Link: "https://b.example/p", CommentCount: 3, Updated: time.Date(2020, 1, 2, 3, 4, 5, 0, time.FixedZone("y", -7200))},
		{GUID: "g", Link: "https://b.example/q", Title: "T", Author: "A", Content: "<p>c</p>", Summary: "s",
			CommentCount: -1, Published: time.Date(2019, 5, 6, 0, 0, 0, 0, time.FixedZone("x", 3600)), Categories: []string{"a", "b"}},
		{Raw: []byte(`{"id":"1"}`)},
		{},
	}
	filepath.WalkDir("../../shared/corpus", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		body, err := os.ReadFile(p)
		if err != nil || !feed.Sniff(body) {
			return nil
		}
		if f, err := feed.Parse(body, "http://example.com/feed"); err == nil {
			items = append(items, f.Items...)
		}
		return nil
	})
	for i := range items {
		if got, want := itemSignature(&items[i]), signatureAsStored(&items[i]); got != want {
			t.Errorf("item %d (%s): signature %s, stored before %s", i, items[i].Link, got, want)
		}
	}
	if len(items) < 100 {
		t.Errorf("only %d items compared", len(items))
	}
}
