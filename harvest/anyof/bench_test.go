package anyof

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The sets the crawler searches pages with, copied here (anyof imports
// none of its callers): platform's JavaScript markers, learn's edit
// markers, and commentsignals.go's comment and loader words.
var (
	jsMarkers = []string{"disqus_thread", "disqus.com/embed", ".disqus.com", "livefyre", "fyre.co",
		"jetpack_remote_comment", "jetpack-comments", "fb-comments", "facebook.com/plugins/comments",
		"intensedebate", "utteranc.es", "giscus.app", "cdn.commento.io", "data-comments=", "data-comments-src"}
	editMarkers = func() []string {
		var out []string
		for _, w := range []string{"edit", "updat", "modif", "lastmod", "ktualisi", "eänder", "ctualiz", "ggiorn", "ijgewerkt", "à jour"} {
			out = append(out, w, strings.ToUpper(w[:1])+w[1:], strings.ToUpper(w))
		}
		return out
	}()
	commentWords = []string{"comment", "discuss", "thread", "conversation",
		"kommentar", "commentaire", "comentario", "comentário", "commento", "reactie", "komentar", "kommentti",
		"hozzaszol", "yorum", "reacties", "diskussion", "discusión", "обсужд", "коммент", "コメント", "评论", "댓글"}
	loaderWords = []string{"fetch(", "xmlhttprequest", ".json", "/api/", "createelement('script')", `createelement("script")`, ".src="}
)

// corpusPages returns the HTML pages of ../../../shared/corpus (the corpus
// beside the repository), or skips b when there is none.
func corpusPages(tb testing.TB) [][]byte {
	var pages [][]byte
	filepath.WalkDir("../../../shared/corpus", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err == nil && bytes.Contains(data[:min(len(data), 1024)], []byte("<html")) {
			pages = append(pages, data)
		}
		return nil
	})
	if len(pages) == 0 {
		tb.Skip("no corpus beside the repository")
	}
	return pages
}

// TestSetsMatchContainsOnCorpus compares the crawler's sets with
// bytes.Contains on every corpus page.
func TestSetsMatchContainsOnCorpus(t *testing.T) {
	pages := corpusPages(t)
	for _, pats := range [][]string{jsMarkers, editMarkers, commentWords, loaderWords} {
		s := New(pats...)
		for _, p := range pages {
			check(t, pats, s, p)
		}
	}
}

// BenchmarkSetCorpus is First and Any of the crawler's sets over every
// corpus page, Any over the pages rid of the set's strings (every byte
// read: a page of the generated blog), and one bytes.Contains per
// string over every page.
func BenchmarkSetCorpus(b *testing.B) {
	pages := corpusPages(b)
	size := 0
	for _, p := range pages {
		size += len(p)
	}
	run := func(name string, pages [][]byte, f func([]byte)) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(size))
			for b.Loop() {
				for _, p := range pages {
					f(p)
				}
			}
		})
	}
	for _, c := range []struct {
		name string
		pats []string
	}{{"js", jsMarkers}, {"edit", editMarkers}, {"comment", commentWords}, {"loader", loaderWords}} {
		s := New(c.pats...)
		run(c.name+"/first", pages, func(p []byte) { s.First(p) })
		run(c.name+"/any", pages, func(p []byte) { s.Any(p) })
		run(c.name+"/miss", without(pages, c.pats), func(p []byte) { s.Any(p) })
		run(c.name+"/contains", pages, func(p []byte) { contains(c.pats, p) })
	}
}

// without returns copies of pages that hold none of pats: a page where
// a Set scans every byte.
func without(pages [][]byte, pats []string) [][]byte {
	var out [][]byte
	for _, p := range pages {
		p = bytes.Clone(p)
		for i := contains(pats, p); i >= 0; i = contains(pats, p) {
			p = bytes.ReplaceAll(p, []byte(pats[i]), nil)
		}
		out = append(out, p)
	}
	return out
}
