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

// BenchmarkDetectCommentSignal is the generic comment-signal detection
// (the walk renderReason makes on a page that shows no comments when
// rendering is automatic) over every page of ../shared/corpus, against
// html.Parse of the same pages for scale.
func BenchmarkDetectCommentSignal(b *testing.B) {
	var docs []*html.Node
	var raw [][]byte
	filepath.WalkDir("../../shared/corpus", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(p) != ".html" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		if doc, err := html.Parse(bytes.NewReader(data)); err == nil {
			docs, raw = append(docs, doc), append(raw, data)
		}
		return nil
	})
	if len(docs) == 0 {
		b.Skip("no pages in ../../shared/corpus")
	}
	base, _ := url.Parse("http://blog.example/2024/post.html")
	b.Run("detect", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, d := range docs {
				detectCommentSignal(d, base)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(docs)), "µs/page")
	})
	b.Run("parse", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for _, d := range raw {
				html.Parse(bytes.NewReader(d))
			}
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*len(raw)), "µs/page")
	})
}
