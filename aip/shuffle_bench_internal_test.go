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
