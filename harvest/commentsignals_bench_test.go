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
// rendering is automatic) over every page of ../shared/corpus, the
// lower-casing of their inline scripts it does, and html.Parse of the
// same pages for scale.
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
	var scripts []string
	for _, d := range docs {
		scripts = appendInlineScripts(scripts, d)
	}
	b.Run("lower", func(b *testing.B) {
		size := 0
		for _, s := range scripts {
			size += len(s)
		}
		b.SetBytes(int64(size))
		for b.Loop() {
			for _, s := range scripts {
				lowerNoSpaces(s)
			}
		}
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

// appendInlineScripts appends the code of the inline scripts below n.
func appendInlineScripts(scripts []string, n *html.Node) []string {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data == "script" && getAttr(c, "src") == "" {
			scripts = append(scripts, textOf(c))
		}
		scripts = appendInlineScripts(scripts, c)
	}
	return scripts
}
