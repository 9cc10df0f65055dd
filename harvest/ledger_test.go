package harvest_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
)

// TestLedgerFixtureBlogs crawls every fixture blog and checks its ledger:
// every post, every URL the feeds and sitemaps name and every URL of the
// post pattern the crawl met has a fate, and no entry is empty.
func TestLedgerFixtureBlogs(t *testing.T) {
	for _, name := range []string{"wordpress", "blogger", "static", "jscomments", "french"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			site, srv := serve(t, name, nil)
			res, out := crawl(t, options(name, srv.URL))
			var must []string
			for _, p := range site.Truth(srv.URL).Posts {
				must = append(must, p.URL)
				must = append(must, p.Stubs...)
			}
			checkLedger(t, res, out, must)
			// an UpdateCrawl of the unchanged blog accounts for what it meets too
			up := &output{}
			res, err := harvest.UpdateCrawl(context.Background(), options(name, srv.URL), res.Watermark, up.Emit)
			if err != nil {
				t.Fatalf("UpdateCrawl: %v", err)
			}
			checkLedger(t, res, up, nil)
		})
	}
}

// checkLedger checks a crawl's ledger: every row has a fate; the URLs of
// must, of the items of every feed and of every sitemap the Blog record
// keeps have one; every URL of the post pattern met has one; an entry fate
// belongs to an emitted entry with a title or an article, and every
// emitted entry has that fate; the Blog record carries the ledger file.
func checkLedger(t *testing.T, res *harvest.Result, out *output, must []string) {
	t.Helper()
	rows := map[string]harvest.LedgerRow{}
	for _, r := range res.Ledger {
		rows[r.URL] = r
		if r.Fate == "" {
			t.Errorf("ledger: %s (met via %s) has no fate", r.URL, r.Via)
		}
	}
	if len(out.Blogs) != 1 {
		t.Fatalf("%d Blog records, want 1", len(out.Blogs))
	}
	blog := out.Blogs[0]
	checkLedgerFile(t, blog, res)
	named := append([]string(nil), must...)
	named = append(named, feedLinks(t, blog)...)
	named = append(named, sitemapLocs(blog)...)
	for _, u := range named {
		c, err := harvest.Canonical(u)
		if err != nil {
			continue
		}
		if rows[c].Fate == "" {
			t.Errorf("ledger: %s (named by the feed, a sitemap or the truth) has no fate", c)
		}
	}
	pattern := patternREs(t, res.Pattern)
	entries := map[string]*blogharvest.Entry{}
	for _, e := range out.Entries {
		entries[e.URL] = e
		if f := rows[e.URL].Fate; f != harvest.FateEntry {
			t.Errorf("entry %s emitted, ledger fate %q", e.URL, f)
		}
	}
	posts := 0
	for _, r := range res.Ledger {
		if matchesAny(pattern, r.URL) {
			posts++
		}
		if r.Fate != harvest.FateEntry {
			continue
		}
		e := entries[r.URL]
		if e == nil {
			t.Errorf("ledger: %s has the fate entry but no entry was emitted", r.URL)
			continue
		}
		title := strings.TrimSpace(e.Title)
		if (title == "" || title == e.URL) && strings.TrimSpace(e.Content) == "" {
			t.Errorf("ledger: %s has the fate entry but neither a title nor an article", r.URL)
		}
	}
	t.Logf("ledger: %d URLs, %d of the post pattern; %s", len(res.Ledger), posts, harvest.FateSummary(res.Ledger))
}

// checkLedgerFile checks that the Blog record holds the ledger as its
// RoleLedger file, as LedgerTSV writes it.
func checkLedgerFile(t *testing.T, b *blogharvest.Blog, res *harvest.Result) {
	t.Helper()
	var got []byte
	n := 0
	for _, f := range b.Files {
		if f.Role == blogharvest.RoleLedger {
			got, n = f.Body, n+1
		}
	}
	if n != 1 {
		t.Fatalf("Blog record holds %d ledger files, want 1", n)
	}
	if want := harvest.LedgerTSV(res.Ledger); !bytes.Equal(got, want) {
		t.Errorf("ledger file differs from Result.Ledger")
	}
	lines := strings.Split(strings.TrimSuffix(string(got), "\n"), "\n")
	if lines[0] != harvest.LedgerHeader || len(lines) != len(res.Ledger)+1 {
		t.Errorf("ledger file: header %q, %d lines for %d rows", lines[0], len(lines), len(res.Ledger))
	}
	for _, l := range lines[1:] {
		if strings.Count(l, "\t") != 4 {
			t.Errorf("ledger line %q: want 5 tab-separated columns", l)
		}
	}
}

// feedLinks returns the item links of the feeds the Blog record keeps.
func feedLinks(t *testing.T, b *blogharvest.Blog) []string {
	t.Helper()
	var out []string
	for _, f := range b.Files {
		if f.Role != blogharvest.RoleFeed {
			continue
		}
		fd, err := feed.Parse(f.Body, f.URL)
		if err != nil {
			continue
		}
		for _, it := range fd.Items {
			out = append(out, it.Link)
		}
	}
	return out
}

var locRE = regexp.MustCompile(`(?s)<loc>\s*(.*?)\s*</loc>`)

// sitemapLocs returns the page URLs of the sitemaps the Blog record keeps
// (not those of sitemap indexes).
func sitemapLocs(b *blogharvest.Blog) []string {
	var out []string
	for _, f := range b.Files {
		if f.Role != blogharvest.RoleSitemap {
			continue
		}
		body := f.Body
		if zr, err := gzip.NewReader(bytes.NewReader(body)); err == nil {
			if raw, err := io.ReadAll(zr); err == nil {
				body = raw
			}
		}
		if bytes.Contains(body, []byte("<sitemapindex")) {
			continue
		}
		for _, m := range locRE.FindAllSubmatch(body, -1) {
			out = append(out, strings.ReplaceAll(string(m[1]), "&amp;", "&"))
		}
	}
	return out
}

// patternREs compiles Result.Pattern (regular expressions joined by " | ").
func patternREs(t *testing.T, p string) []*regexp.Regexp {
	t.Helper()
	var out []*regexp.Regexp
	for _, s := range strings.Split(p, " | ") {
		if s == "" {
			continue
		}
		re, err := regexp.Compile(s)
		if err != nil {
			t.Fatalf("pattern %q: %v", s, err)
		}
		out = append(out, re)
	}
	return out
}

// matchesAny reports whether the path (and query) of raw matches one of res.
func matchesAny(res []*regexp.Regexp, raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	s := u.Path
	if u.RawQuery != "" {
		s += "?" + u.RawQuery
	}
	for _, re := range res {
		if re.MatchString(s) {
			return true
		}
	}
	return false
}

var tagRE = regexp.MustCompile(`<[^>]*>`)

// stripTags returns the text of an HTML fragment, roughly.
func stripTags(s string) string { return tagRE.ReplaceAllString(s, " ") }
