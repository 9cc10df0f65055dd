package harvest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
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

// TestItemSignaturesOnce checks that a crawl digests its feed's items
// once: the gone check and the crawl's state both ask for the signatures,
// and a full-text feed's items are whole posts, which neither the
// signature nor the second call may copy (issue 43, thaumatorium's 2.4 MB
// feed). A page that failed in between still reads "".
func TestItemSignaturesOnce(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel><title>T</title><link>https://b.example/</link>`)
	for i := range 4 {
		fmt.Fprintf(&b, `<item><title>P%d</title><link>https://b.example/p%d</link><content:encoded>%s</content:encoded></item>`, i, i, strings.Repeat("<p>text</p> ", 1<<16))
	}
	b.WriteString(`</channel></rss>`)
	f, err := feed.Parse([]byte(b.String()), "https://b.example/feed")
	if err != nil {
		t.Fatal(err)
	}
	f.FirstPage = len(f.Items)
	c := &crawl{site: &site{feed: f}, failed: map[string]bool{}}
	first := c.itemSignatures()
	if len(first) != 4 {
		t.Fatalf("%d signatures, want 4", len(first))
	}
	for i := range f.Items {
		if k := itemKey(&f.Items[i]); first[k] != signatureAsStored(&f.Items[i]) {
			t.Errorf("item %d: signature %q, stored before %q", i, first[k], signatureAsStored(&f.Items[i]))
		}
	}
	failed := itemKey(&f.Items[2])
	c.failed[failed] = true
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	again := c.itemSignatures()
	runtime.ReadMemStats(&after)
	for k, v := range first {
		if want := map[bool]string{true: "", false: v}[k == failed]; again[k] != want {
			t.Errorf("%s: second call %q, want %q", k, again[k], want)
		}
	}
	if first[failed] == "" {
		t.Error("the first call's map was changed by the second")
	}
	// One item is 768 KiB: a copy of any would be seen.
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<10 {
		t.Errorf("the second call allocated %d bytes: the items were digested (or copied) again", got)
	}
	runtime.ReadMemStats(&before)
	for i := range f.Items {
		itemSignature(&f.Items[i])
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<10 {
		t.Errorf("the items' signatures allocated %d bytes: their XML was copied", got)
	}
}
