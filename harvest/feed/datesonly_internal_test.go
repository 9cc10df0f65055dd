package feed

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestDatesOnlyAsFull parses every RSS and Atom document of the shared
// corpus and of testdata twice, whole and with PageOptions.DatesOnly, and
// requires the same feed but for the items' Content and Summary, which
// DatesOnly leaves empty: what a side feed is read for (dates, links,
// GUIDs, the item's own XML) cannot change with it.
func TestDatesOnlyAsFull(t *testing.T) {
	var files []string
	for _, root := range []string{"../../../shared/corpus", "testdata"} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				files = append(files, p)
			}
			return nil
		})
	}
	docs, cut, bodies := 0, 0, 0
	for _, p := range files {
		body, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		head := body[:min(len(body), 1024)]
		if !bytes.Contains(head, []byte("<rss")) && !bytes.Contains(head, []byte("<feed")) && !bytes.Contains(head, []byte("<rdf:RDF")) {
			continue
		}
		full, err := parse(body, "http://example.com/feed", false)
		if err != nil {
			continue
		}
		docs++
		dates, err := parse(body, "http://example.com/feed", true)
		if err != nil {
			t.Errorf("%s: dates only: %v (whole: no error)", p, err)
			continue
		}
		if len(dates.Items) != len(full.Items) {
			t.Errorf("%s: %d items, whole %d", p, len(dates.Items), len(full.Items))
			continue
		}
		shrunk := false
		for i := range full.Items {
			if full.Items[i].Content != "" || full.Items[i].Summary != "" {
				bodies++
				if dates.Items[i].Content == "" && dates.Items[i].Summary == "" {
					shrunk = true
				}
			}
			full.Items[i].Content, full.Items[i].Summary = "", ""
			dates.Items[i].Content, dates.Items[i].Summary = "", ""
		}
		if shrunk {
			cut++
		}
		if !reflect.DeepEqual(full, dates) {
			t.Errorf("%s: dates-only feed differs from the whole one beyond Content and Summary", p)
		}
	}
	t.Logf("%d feeds, %d with their items' bodies left out (%d items with a body)", docs, cut, bodies)
	if cut == 0 {
		t.Fatal("no feed had its items' bodies left out")
	}
}
