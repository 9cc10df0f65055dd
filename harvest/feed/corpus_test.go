package feed_test

import (
	"encoding/json"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
)

// corpusDir is the shared corpus, relative to this package.
const corpusDir = "../../../shared/corpus"

// corpusBlog is the part of a corpus blog.json these tests read.
type corpusBlog struct {
	Name        string `json:"name"`
	Feed        string `json:"feed"`
	FeedKind    string `json:"feed_kind"`
	Platform    string `json:"platform"`
	Language    string `json:"language"`
	FeedEntries int    `json:"feed_entries"`
}

// corpusFile maps a URL to its file under a blog's site/ folder.
func corpusFile(blogDir, raw string) string {
	u, _ := url.Parse(raw)
	p := u.Path
	if strings.HasSuffix(p, "/") {
		p += "index.html"
	}
	return filepath.Join(blogDir, "site", u.Host, filepath.FromSlash(p))
}

// samePlatform reports whether the platform the feed names is the one
// blog.json gives, compared without case and spaces ("Movable Type" is
// "movabletype"). A blog.json platform "custom (…)" is a generator of
// the blog's own, which names no platform: the feed may name the feed
// library it used (PyRSS2Gen) or nothing.
func samePlatform(feedPlatform, corpusPlatform string) bool {
	if feedPlatform == "" || strings.HasPrefix(corpusPlatform, "custom") {
		return true
	}
	fold := func(s string) string { return strings.ToLower(strings.ReplaceAll(s, " ", "")) }
	return fold(feedPlatform) == fold(corpusPlatform)
}

func TestCorpusFeeds(t *testing.T) {
	blogs, _ := filepath.Glob(filepath.Join(corpusDir, "*", "blog.json"))
	if len(blogs) == 0 {
		t.Skip("corpus absent")
	}
	for _, bj := range blogs {
		var cb corpusBlog
		data, err := os.ReadFile(bj)
		if err != nil || json.Unmarshal(data, &cb) != nil {
			t.Fatalf("%s: %v", bj, err)
		}
		t.Run(cb.Name, func(t *testing.T) { checkCorpusFeed(t, filepath.Dir(bj), cb) })
	}
}

func checkCorpusFeed(t *testing.T, dir string, cb corpusBlog) {
	body, err := os.ReadFile(corpusFile(dir, cb.Feed))
	if err != nil {
		t.Fatal(err)
	}
	if !feed.Sniff(body) {
		t.Errorf("Sniff = false")
	}
	f, err := feed.Parse(body, cb.Feed)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Items) != cb.FeedEntries {
		t.Errorf("%d items, blog.json says %d", len(f.Items), cb.FeedEntries)
	}
	if f.Title == "" {
		t.Errorf("no title")
	}
	if !samePlatform(f.Platform, cb.Platform) {
		t.Errorf("platform %q (generator %q), blog.json says %q", f.Platform, f.Generator, cb.Platform)
	}
	if f.Language != "" && !strings.EqualFold(strings.Split(f.Language, "-")[0], strings.Split(cb.Language, "-")[0]) {
		t.Errorf("language %q, want %q", f.Language, cb.Language)
	}
	for i, it := range f.Items {
		if len(it.XML()) == 0 || it.Title == "" && it.Content == "" && it.Summary == "" {
			t.Errorf("item %d: empty (%q, raw %d bytes)", i, it.Title, len(it.XML()))
		}
	}
	var b blogharvest.Blog
	feed.FillBlog(f, &b)
	t.Logf("%s: %d items, platform %q %q, lang %q, post freq %q, update %q, last %v, webmaster %q, rights %q",
		f.Format, len(f.Items), f.Platform, f.PlatformVersion, f.Language, b.PostFrequency, b.UpdateFrequency,
		b.LastActivity.Format("2006-01-02"), f.Webmaster, f.Rights)
}

// TestCorpusAllFeedsParse parses every file of the corpus that sniffs as
// a feed (per-post comment feeds, category feeds …).
func TestCorpusAllFeedsParse(t *testing.T) {
	if _, err := os.Stat(corpusDir); err != nil {
		t.Skip("corpus absent")
	}
	n := 0
	filepath.WalkDir(corpusDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		body, err := os.ReadFile(path)
		if err != nil || !feed.Sniff(body) {
			return nil
		}
		n++
		f, err := feed.Parse(body, "http://example.org/feed")
		if err != nil {
			t.Errorf("%s: %v", path, err)
			return nil
		}
		if _, err := feed.ParseComments(body, "http://example.org/feed"); err != nil {
			t.Errorf("%s: comments: %v", path, err)
		}
		_ = f
		return nil
	})
	t.Logf("%d feeds parsed", n)
	if n < 10 {
		t.Errorf("only %d feeds found", n)
	}
}
