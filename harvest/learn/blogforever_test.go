package learn_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/antchfx/htmlquery"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/textsim"
)

// bfCase is one blog/page pair of the original BlogForever unit tests with
// the content and title XPaths its test expected.
type bfCase struct {
	Page         string  `json:"page_corpus_path"`
	ContentXPath string  `json:"expected_content_xpath"`
	TitleXPath   *string `json:"expected_title_xpath"`
}

// TestBlogForeverExpected compares, on the 95 pages of the original
// project's content extractor tests, the text its expected XPaths select
// with what our rules extract — learned without the page itself (held out),
// whereas the original learned from it. Success is Dice ≥ 0.8 against the
// feed entry's content (title: Dice ≥ 0.9 against the entry title). Ours are
// learned from the half of the blog's entries (split by date) that does not
// hold the page. Ours must succeed at least as often.
func TestBlogForeverExpected(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus")
	}
	data, err := os.ReadFile(filepath.Join(corpusDir, "blogforever-testdata-expected.json"))
	if err != nil {
		t.Skipf("expected XPaths not found: %v", err)
	}
	var doc struct {
		Unit struct {
			Cases []bfCase `json:"cases"`
		} `json:"content_extractor_unit_tests"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	blogs := map[string]corpusBlog{}
	halves := map[string][2][]learn.Pair{}
	rules := map[string][2]*learn.Rules{}
	for _, b := range corpusBlogs(t) {
		blogs[b.Name] = b
		if pairs := b.pairs(t); len(pairs) >= 2 {
			old, recent := split(pairs)
			halves[b.Name] = [2][]learn.Pair{old, recent}
			rules[b.Name] = [2]*learn.Rules{mustLearn(t, recent), mustLearn(t, old)}
		}
	}
	var ours, theirs, oursTitle, theirsTitle, titles, n int
	for _, c := range doc.Unit.Cases {
		name := strings.SplitN(c.Page, "/", 2)[0]
		test, half, ok := find(blogs[name], halves[name], filepath.Join(corpusDir, c.Page))
		if !ok {
			continue
		}
		n++
		truth := textsim.HTMLText(test.Target.Content)
		x, _ := rules[name][half].Extract(test.Page)
		theirText := xpathText(t, test.Page.HTML, c.ContentXPath)
		ours += b2i(textsim.Dice(x.ContentText, truth) >= 0.8)
		theirs += b2i(textsim.Dice(theirText, truth) >= 0.8)
		if c.TitleXPath != nil {
			titles++
			oursTitle += b2i(textsim.Dice(x.Title, test.Target.Title) >= 0.9)
			theirsTitle += b2i(textsim.Dice(xpathText(t, test.Page.HTML, *c.TitleXPath), test.Target.Title) >= 0.9)
		}
	}
	t.Logf("article: ours %d/%d, BlogForever's expected XPaths %d/%d", ours, n, theirs, n)
	t.Logf("title: ours %d/%d, BlogForever's expected XPaths %d/%d", oursTitle, titles, theirsTitle, titles)
	if n < 80 {
		t.Errorf("only %d of the 95 pages paired with a feed entry", n)
	}
	if ours < theirs || oursTitle < theirsTitle {
		t.Errorf("ours extract worse than the original's expected XPaths")
	}
}

// find returns the pair whose page is the file path and which half of
// the blog's pairs holds it.
func find(b corpusBlog, halves [2][]learn.Pair, path string) (learn.Pair, int, bool) {
	for h, pairs := range halves {
		for _, p := range pairs {
			if filepath.Clean(b.sitePath(p.Page.URL)) == filepath.Clean(path) {
				return p, h, true
			}
		}
	}
	return learn.Pair{}, 0, false
}

// mustLearn learns rules or fails the test.
func mustLearn(t *testing.T, pairs []learn.Pair) *learn.Rules {
	r, err := learn.Learn(pairs, learn.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// xpathText returns the visible text (scripts and styles left out, as for
// ours) of the first node an XPath selects.
func xpathText(t *testing.T, page []byte, x string) string {
	doc, err := htmlquery.Parse(strings.NewReader(string(page)))
	if err != nil {
		t.Fatal(err)
	}
	n, err := htmlquery.Query(doc, x)
	if err != nil || n == nil {
		return ""
	}
	return textsim.HTMLText(htmlquery.OutputHTML(n, true))
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
