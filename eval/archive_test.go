package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/feed"
)

// TestArchivePostsIndexLinks: a feed whose entry links name the
// index.html of each post's folder (Quarto) matches every post folder,
// as links to the folders themselves do.
func TestArchivePostsIndexLinks(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"blog/2021/a/index.html", "blog/2022/b/index.html", "blog/2022/c/index.html",
		"about/index.html", "index.html"} {
		f := filepath.Join(dir, "site", "h.example", filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("<html><body>post</body></html>"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b := &corpusBlog{Name: "q", Hosts: []string{"h.example"}, dir: dir}
	for _, link := range []string{"https://h.example/blog/2022/b/index.html", "https://h.example/blog/2022/b/"} {
		got := archivePosts(b, []feed.Item{{Link: link}})
		if len(got) != 3 {
			t.Errorf("feed link %s: %d posts matched, want the 3 under blog/<year>/: %v", link, len(got), got)
		}
	}
}
