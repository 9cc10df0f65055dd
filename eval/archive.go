package main

import (
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/blogharvest/blogharvest/harvest/feed"
)

// archivePosts returns the corpus files (by path) of every post page of
// the capture, feed entry or not: the HTML files whose URL path matches a
// pattern generalised from the feed's entry links (a digits-only segment
// becomes \d+, the last segment any name; a link to <dir>/index.html is
// the page <dir>/, as the corpus README maps it). It is the truth of whole-archive
// discovery in crawl mode; the report sets its size beside blog.json's
// posts count so a pattern that over- or under-matches shows.
func archivePosts(b *corpusBlog, items []feed.Item) map[string]bool {
	pats := map[string]*regexp.Regexp{}
	for _, it := range items {
		if u, err := url.Parse(it.Link); err == nil && b.serves(u.Hostname()) {
			p := pathPattern(dirOfIndex(u.Path))
			pats[strings.ToLower(u.Hostname())+p] = regexp.MustCompile("^" + p + "$")
		}
	}
	out := map[string]bool{}
	for key, re := range pats {
		host := key[:strings.IndexByte(key, '/')]
		root := filepath.Join(b.dir, "site", host)
		_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			rel := "/" + filepath.ToSlash(strings.TrimPrefix(path, root+string(filepath.Separator)))
			rel = strings.TrimSuffix(rel, "index.html")
			if re.MatchString(rel) && !isFeedFile(path) {
				out[path] = true
			}
			return nil
		})
	}
	return out
}

// isFeedFile reports whether a corpus file is a feed (a WordPress
// <post>/feed/ or an extensionless feed matches post patterns too).
func isFeedFile(path string) bool {
	body, err := os.ReadFile(path)
	return err == nil && feed.Sniff(body)
}

// pathPattern generalises a URL path: digits-only segments match any
// digits, the last named segment any name; a trailing slash is kept.
func pathPattern(p string) string {
	segs := strings.Split(p, "/")
	last := len(segs) - 1
	if segs[last] == "" {
		last--
	}
	for i, s := range segs {
		switch {
		case s == "":
		case i == last:
			segs[i] = `[^/]+`
		case strings.Trim(s, "0123456789") == "":
			segs[i] = `\d+`
		default:
			segs[i] = regexp.QuoteMeta(s)
		}
	}
	return strings.Join(segs, "/")
}

// dirOfIndex returns the folder path of a path naming an index.html
// ("/a/index.html" → "/a/"), other paths unchanged: the corpus stores the
// page served at "/a/" as "a/index.html", so both URLs name one page.
func dirOfIndex(p string) string {
	if p == "/index.html" || strings.HasSuffix(p, "/index.html") {
		return strings.TrimSuffix(p, "index.html")
	}
	return p
}
