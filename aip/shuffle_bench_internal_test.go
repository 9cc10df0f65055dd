package aip

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkUnshuffled reads, each iteration, the HTML files of the corpus
// blogs whose posts hold the most runs (thaumatorium's tables, jerryc's
// and 0x7df's highlighted code) as the content digest does: it reports
// bytes and allocations per pass over them all, the figure the shuffle
// reader's allocations were cut by (doc/benchmarks.md, "Per page").
func BenchmarkUnshuffled(b *testing.B) {
	var pages []string
	for _, blog := range []string{"thaumatorium", "jerryc", "0x7df"} {
		root := filepath.Join("../../shared/corpus", blog)
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".html") && len(pages) < 300 {
				if data, err := os.ReadFile(p); err == nil {
					pages = append(pages, string(data))
				}
			}
			return nil
		})
	}
	if len(pages) == 0 {
		b.Skip("no ../../shared/corpus")
	}
	size := 0
	for _, p := range pages {
		size += len(p)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, p := range pages {
			unshuffled(p)
		}
	}
}

// BenchmarkUnshuffledContents reads, each iteration, the content an
// extraction takes from the same pages as BenchmarkUnshuffled (contentsOf:
// the rendered children of each body, article, main and content, entry or
// post block) as the content digest does ("scan"), and as it did before
// noRun, parsing every one ("parse").
func BenchmarkUnshuffledContents(b *testing.B) {
	var contents []string
	size := 0
	for _, blog := range []string{"thaumatorium", "jerryc", "0x7df"} {
		n := 0
		root := filepath.Join("../../shared/corpus", blog)
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".html") && n < 100 {
				if data, err := os.ReadFile(p); err == nil {
					n++
					for _, c := range contentsOf(data) {
						contents = append(contents, c)
						size += len(c)
					}
				}
			}
			return nil
		})
	}
	if len(contents) == 0 {
		b.Skip("no ../../shared/corpus")
	}
	for _, m := range []struct {
		name string
		f    func(string) string
	}{{"scan", unshuffled}, {"parse", unshuffledTree}} {
		b.Run(m.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				for _, c := range contents {
					m.f(c)
				}
			}
		})
	}
}
