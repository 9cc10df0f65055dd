package harvest

import (
	"bytes"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/net/html"
)

// corpusPage is one page of ../shared/corpus, parsed.
type corpusPage struct {
	doc  *html.Node
	base *url.URL
}

// corpusPages parses up to perBlog HTML pages of each corpus blog (in
// path order); it skips the benchmark when the corpus is absent.
func corpusPages(b *testing.B, perBlog int) []corpusPage {
	blogs, _ := filepath.Glob("../../shared/corpus/*/site")
	if len(blogs) == 0 {
		b.Skip("corpus absent")
	}
	var pages []corpusPage
	for _, site := range blogs {
		n := 0
		filepath.WalkDir(site, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || filepath.Ext(p) != ".html" || n >= perBlog {
				return nil
			}
			raw, err := os.ReadFile(p)
			if err != nil {
				b.Fatal(err)
			}
			rel, _ := filepath.Rel(site, p)
			base, _ := url.Parse("https://" + filepath.ToSlash(rel))
			doc, _ := html.Parse(bytes.NewReader(raw))
			pages = append(pages, corpusPage{doc, base})
			n++
			return nil
		})
	}
	return pages
}

// BenchmarkReadPageCorpus reads parsed corpus pages as newFetchedPage
// does (links, identity hints); ns/op and allocs/op are per page.
func BenchmarkReadPageCorpus(b *testing.B) {
	pages := corpusPages(b, 60)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		p := pages[i%len(pages)]
		readPage(p.doc, p.base)
	}
}
