package learn_test

import (
	"testing"

	"github.com/blogharvest/blogharvest/harvest/learn"
)

// FuzzExtract feeds hostile HTML to Extract, with and without learned rules
// and to Learn, on bytes and on the parsed page: nothing may panic.
func FuzzExtract(f *testing.F) {
	pairs, page := casePairs(f, "wordpress")
	rules, err := learn.Learn(pairs, learn.Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(page.HTML)
	for _, s := range []string{
		"", "<", "<div class='entry-content'", "<!-- <div class=\"entry-content\"> -->",
		"<script>'<div class=\"entry-content\">'</script><div class=\"entry-content\"><p>x",
		"<table><div class=entry-content><td>a</div></table>", "<svg><div class=entry-content>x</div></svg>",
		"<div class=\"entry-content\"><div><div></div>", "\xff\xfe<h2 class=entry-title>\x00</h2>",
		`<script type="application/ld+json">{"@graph":[[[[[[[[{}]]]]]]]]}</script>`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p := learn.Page{URL: "https://blog.example/x/", HTML: b}
		_, _ = rules.Extract(p)
		_, _ = learn.ExtractWithoutRules(p)
		_, _ = learn.Learn([]learn.Pair{{Page: p, Target: pairs[0].Target}}, learn.Options{})
		if parsed, err := learn.ParsePage(p.URL, b, ""); err == nil {
			_, _ = rules.Extract(parsed)
		}
	})
}
