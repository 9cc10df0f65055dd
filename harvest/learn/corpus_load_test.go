package learn_test

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/mmcdole/gofeed"
)

// corpusDir is the shared test corpus, relative to this package.
const corpusDir = "../../../shared/corpus"

// corpusBlog is a blog.json of the corpus.
type corpusBlog struct {
	Name     string `json:"name"`
	URL      string `json:"url"`
	Feed     string `json:"feed"`
	FeedKind string `json:"feed_kind"`
	Language string `json:"language"`
	FullText bool   `json:"feed_full_text"`
	dir      string
}

// corpusBlogs returns the corpus's blogs, skipping the test when the corpus
// is absent.
func corpusBlogs(t testing.TB) []corpusBlog {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(corpusDir, "*", "blog.json"))
	if err != nil || len(dirs) == 0 {
		t.Skipf("corpus not found at %s", corpusDir)
	}
	var out []corpusBlog
	for _, f := range dirs {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cb corpusBlog
		if err := json.Unmarshal(b, &cb); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		cb.dir = filepath.Dir(f)
		out = append(out, cb)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// sitePath maps a URL to its file under the blog's site/ folder, per the
// corpus README: percent-decoded path, index.html for directories, query and
// fragment ignored.
func (b corpusBlog) sitePath(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	p := filepath.Join(b.dir, "site", u.Host, filepath.FromSlash(u.Path))
	if strings.HasSuffix(u.Path, "/") || u.Path == "" {
		p = filepath.Join(p, "index.html")
	}
	if fi, err := os.Stat(p); err == nil && fi.IsDir() {
		p = filepath.Join(p, "index.html")
	}
	return p
}

// read returns the file served at raw, or nil.
func (b corpusBlog) read(raw string) []byte {
	p := b.sitePath(raw)
	if p == "" {
		return nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	return data
}

// feed parses the file served at raw as a feed.
func (b corpusBlog) feed(t testing.TB, raw string) *gofeed.Feed {
	data := b.read(raw)
	if data == nil {
		return nil
	}
	f, err := gofeed.NewParser().ParseString(string(data))
	if err != nil {
		t.Logf("%s: feed %s: %v", b.Name, raw, err)
		return nil
	}
	return f
}

// pairs returns the blog's feed entries paired with their pages, oldest
// first, with comment targets from per-post comment feeds (<post>/feed/)
// where the corpus has them.
func (b corpusBlog) pairs(t testing.TB) []learn.Pair {
	if b.FeedKind != "" {
		return nil
	}
	f := b.feed(t, b.Feed)
	if f == nil {
		return nil
	}
	var out []learn.Pair
	for _, it := range f.Items {
		page := b.read(it.Link)
		if page == nil {
			continue
		}
		out = append(out, learn.Pair{
			Page:   learn.Page{URL: it.Link, HTML: page, Lang: b.Language},
			Target: targetOf(it, b.FullText),
		})
		out[len(out)-1].Target.Comments = b.commentTargets(t, it.Link)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Target.Date.Before(out[j].Target.Date) })
	return out
}

// targetOf makes a learning target of a feed item.
func targetOf(it *gofeed.Item, full bool) learn.Target {
	t := learn.Target{Title: it.Title, Content: it.Content, FullText: full}
	if t.Content == "" {
		t.Content = it.Description
	}
	if it.PublishedParsed != nil {
		t.Date = *it.PublishedParsed
	} else if it.UpdatedParsed != nil {
		t.Date = *it.UpdatedParsed
	}
	t.Author = itemAuthor(it)
	return t
}

// itemAuthor returns an item's author name (dc:creator, author name).
func itemAuthor(it *gofeed.Item) string {
	if it.DublinCoreExt != nil && len(it.DublinCoreExt.Creator) > 0 {
		return it.DublinCoreExt.Creator[0]
	}
	for _, a := range it.Authors {
		if a != nil && a.Name != "" && !strings.EqualFold(a.Name, "unknown") {
			return a.Name
		}
	}
	return ""
}

// commentTargets returns the comments of the post at link from its comment
// feed <link>/feed/ (WordPress), when the corpus has it; nil when it has
// not, and the page's comments are unknown.
func (b corpusBlog) commentTargets(t testing.TB, link string) []learn.CommentTarget {
	u := strings.TrimSuffix(link, "/") + "/feed/"
	if b.read(u) == nil {
		return nil
	}
	f := b.feed(t, u)
	if f == nil {
		return nil
	}
	out := []learn.CommentTarget{} // not nil: the comments are known, even when none
	for _, it := range f.Items {
		c := learn.CommentTarget{ID: commentID(it.Link), Author: itemAuthor(it), Content: it.Content}
		if c.Content == "" {
			c.Content = it.Description
		}
		if it.PublishedParsed != nil {
			c.Date = *it.PublishedParsed
		}
		out = append(out, c)
	}
	return out
}

// commentID returns the fragment of a comment permalink (#comment-42).
func commentID(link string) string {
	if i := strings.LastIndex(link, "#"); i >= 0 {
		return link[i+1:]
	}
	return link
}

// split returns the older and newer halves of pairs sorted by date.
func split(pairs []learn.Pair) (old, recent []learn.Pair) {
	h := len(pairs) / 2
	return pairs[:h], pairs[h:]
}

var _ = time.Time{}
