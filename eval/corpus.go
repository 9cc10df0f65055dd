package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/learn"
)

// corpusBlog is one blog of a corpus: its blog.json and its folder.
type corpusBlog struct {
	Name     string   `json:"name"`
	URL      string   `json:"url"`
	Feed     string   `json:"feed"`
	FeedKind string   `json:"feed_kind"`
	Hosts    []string `json:"hosts"`
	Language string   `json:"language"`
	FullText bool     `json:"feed_full_text"`
	Posts    int      `json:"posts"`
	dir      string
}

// loadCorpus reads every blog.json under dir, sorted by name; only, when
// not empty, keeps the blogs named in it.
func loadCorpus(dir string, only []string) ([]*corpusBlog, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*", "blog.json"))
	if err != nil {
		return nil, fmt.Errorf("corpus %s: %w", dir, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("corpus %s: no */blog.json", dir)
	}
	var out []*corpusBlog
	for _, f := range files {
		b, err := readBlogJSON(f)
		if err != nil {
			return nil, err
		}
		if len(only) == 0 || contains(only, b.Name) {
			out = append(out, b)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// readBlogJSON reads one blog.json.
func readBlogJSON(path string) (*corpusBlog, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read blog: %w", err)
	}
	b := &corpusBlog{dir: filepath.Dir(path)}
	if err := json.Unmarshal(raw, b); err != nil {
		return nil, fmt.Errorf("parse %s: %w", path, err)
	}
	return b, nil
}

// fileFor maps a URL to its file under site/ (corpus README "site/");
// "" for URLs of hosts the blog does not serve.
func (b *corpusBlog) fileFor(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	f := b.fileAt(u.Hostname(), u.Path)
	if fi, err := os.Stat(f); f != "" && err == nil && fi.IsDir() {
		f = filepath.Join(f, "index.html")
	}
	return f
}

// fileAt maps a host and a percent-decoded path to the file under site/:
// <path>/index.html for a path ending in "/", the path's own name
// otherwise (query and fragment play no part). It returns "" for hosts
// the blog does not serve.
func (b *corpusBlog) fileAt(host, path string) string {
	if !b.serves(host) {
		return ""
	}
	if path == "" || strings.HasSuffix(path, "/") {
		path += "index.html"
	}
	clean := filepath.Clean("/" + path)
	return filepath.Join(b.dir, "site", strings.ToLower(host), filepath.FromSlash(clean))
}

// serves reports whether host is one of the blog's hosts.
func (b *corpusBlog) serves(host string) bool {
	for _, h := range b.Hosts {
		if strings.EqualFold(h, host) {
			return true
		}
	}
	return false
}

// read returns the file served at raw, or nil when there is none.
func (b *corpusBlog) read(raw string) []byte {
	f := b.fileFor(raw)
	if f == "" {
		return nil
	}
	data, err := os.ReadFile(f)
	if err != nil || len(data) == 0 {
		return nil
	}
	return data
}

// parseFeed reads and parses the blog's main feed.
func (b *corpusBlog) parseFeed() (*feed.Feed, []byte, error) {
	raw := b.read(b.Feed)
	if raw == nil {
		return nil, nil, fmt.Errorf("blog %s: feed %s not in corpus", b.Name, b.Feed)
	}
	f, err := feed.Parse(raw, b.Feed)
	if err != nil {
		return nil, nil, fmt.Errorf("blog %s: %w", b.Name, err)
	}
	return f, raw, nil
}

// samples returns the blog's feed entries whose pages the corpus holds,
// oldest first, with their truth. skip says why a blog has none.
func (b *corpusBlog) samples() (out []sample, skip string, err error) {
	if b.FeedKind != "" {
		return nil, "feed is a " + b.FeedKind + " feed, not a posts feed", nil
	}
	f, _, err := b.parseFeed()
	if err != nil {
		return nil, "", err
	}
	for _, it := range f.Items {
		s, ok := b.sample(it)
		if ok {
			out = append(out, s)
		}
	}
	sortSamples(out)
	return out, "", nil
}

// sample pairs one feed item with its page; false when the page is absent.
func (b *corpusBlog) sample(it feed.Item) (sample, bool) {
	raw := b.read(it.Link)
	if raw == nil {
		return sample{}, false
	}
	html, _, err := fetch.DecodeText(raw, contentType(b.fileFor(it.Link), raw))
	if err != nil {
		html = raw
	}
	s := sample{
		Page:   learn.Page{URL: it.Link, HTML: html, Lang: b.Language},
		Target: targetOf(it, b.FullText),
	}
	s.Target.Comments, s.CommentTruth = b.commentTruth(it.Link)
	return s, true
}

// targetOf makes the truth of one feed item.
func targetOf(it feed.Item, full bool) learn.Target {
	t := learn.Target{Title: it.Title, Author: it.Author, Content: it.Content, FullText: full}
	if t.Content == "" {
		t.Content = it.Summary
	}
	t.Date, t.DateOffset = it.Published, it.Offset
	if t.Date.IsZero() {
		t.Date = it.Updated
	}
	return t
}

// commentTruth reads the comment feed of the post at link (WordPress
// <post>/feed/, or <post>/feed for .html permalinks) when the corpus holds
// it; ok is false when there is no comment truth.
func (b *corpusBlog) commentTruth(link string) (out []learn.CommentTarget, ok bool) {
	for _, u := range commentFeedURLs(link) {
		raw := b.read(u)
		if raw == nil || !feed.Sniff(raw) {
			continue
		}
		cs, err := feed.ParseComments(raw, u)
		if err != nil {
			continue
		}
		for _, c := range cs {
			out = append(out, learn.CommentTarget{ID: c.ID, Author: c.Author, Date: c.Published,
				Content: c.Content, ParentID: c.InReplyTo})
		}
		return out, true
	}
	return nil, false
}

// commentFeedURLs returns where a WordPress post's comment feed lives.
func commentFeedURLs(link string) []string {
	u, err := url.Parse(link)
	if err != nil {
		return nil
	}
	u.RawQuery, u.Fragment = "", ""
	base := u.String()
	if strings.HasSuffix(base, "/") {
		return []string{base + "feed/"}
	}
	return []string{base + "/feed/", base + "/feed"}
}

// contains reports whether list holds s.
func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
