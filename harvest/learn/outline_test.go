package learn_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/learn"
)

// TestOutlineOnCorpus compares page outlines with html.Parse on every
// corpus page and every page of the txtar cases.
func TestOutlineOnCorpus(t *testing.T) {
	var pages []learn.Page
	files, _ := filepath.Glob("testdata/*.txtar")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, tf := range parseTxtar(data) {
			if filepath.Ext(tf.name) == ".html" {
				pages = append(pages, learn.Page{URL: f + "/" + tf.name, HTML: tf.data})
			}
		}
	}
	if !testing.Short() {
		for _, b := range corpusBlogs(t) {
			for _, p := range b.pairs(t) {
				pages = append(pages, p.Page)
			}
		}
	}
	usable := 0
	for _, p := range pages {
		ok, msg := learn.OutlineMismatch(p.HTML)
		if msg != "" {
			t.Errorf("%s: %s", p.URL, msg)
		}
		if ok {
			usable++
		} else if testing.Verbose() {
			t.Logf("%s: %s", p.URL, learn.OutlineWhy(p.HTML))
		}
	}
	t.Logf("outline usable on %d of %d pages", usable, len(pages))
}
