package learn_test

import (
	"bytes"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest/learn"
	"golang.org/x/net/html"
)

// cpuTime returns the CPU time (user + system) the process has used.
func cpuTime() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// reportCPU reports CPU ns per op next to wall time: on a shared machine
// the wall time includes waiting for a core.
func reportCPU(b *testing.B, start int64) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// corpusPairs returns the pairs of one corpus blog, skipping when absent.
func corpusPairs(b *testing.B, name string) []learn.Pair {
	for _, cb := range corpusBlogs(b) {
		if cb.Name == name {
			return cb.pairs(b)
		}
	}
	b.Skipf("blog %s not in corpus", name)
	return nil
}

// BenchmarkLearn15 learns from 15 feed entries of lahso (pages of 55–70 KB,
// with comments), parsing included.
func BenchmarkLearn15(b *testing.B) {
	pairs := corpusPairs(b, "lahso")
	if len(pairs) > 15 {
		pairs = pairs[:15]
	}
	size := 0
	for _, p := range pairs {
		size += len(p.Page.HTML)
	}
	b.ReportMetric(float64(size)/float64(len(pairs))/1024, "KB/page")
	b.ResetTimer()
	start := cpuTime()
	for b.Loop() {
		if _, err := learn.Learn(pairs, learn.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

// BenchmarkLearn15Quantum learns from the 15 quantumdiaries entries.
func BenchmarkLearn15Quantum(b *testing.B) {
	pairs := corpusPairs(b, "bft-quantumdiaries")
	start := cpuTime()
	for b.Loop() {
		if _, err := learn.Learn(pairs, learn.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

// BenchmarkExtract applies learned rules to the newest page of corpus
// blogs (learned from all their entries), and to a synthetic 100 KB page,
// through Extract.
func BenchmarkExtract(b *testing.B) {
	for _, name := range []string{"bft-digital-examples", "bft-korben", "bft-quantumdiaries", "lahso"} {
		pairs := corpusPairs(b, name)
		rules, err := learn.Learn(pairs, learn.Options{})
		if err != nil {
			b.Fatal(err)
		}
		benchExtract(b, name, rules, pairs[len(pairs)-1].Page)
	}
	page, content := syntheticPage(100 * 1024)
	rules, err := learn.Learn([]learn.Pair{{Page: learn.Page{URL: "https://x.example/a/", HTML: page},
		Target: syntheticTarget(content)}}, learn.Options{})
	if err != nil {
		b.Fatal(err)
	}
	benchExtract(b, "synthetic", rules, learn.Page{URL: "https://x.example/a/", HTML: page})
}

// benchExtract runs Extract on one page.
func benchExtract(b *testing.B, name string, rules *learn.Rules, page learn.Page) {
	b.Run(name, func(b *testing.B) {
		start := cpuTime()
		for b.Loop() {
			_, _ = rules.Extract(page)
		}
		reportCPU(b, start)
		b.ReportMetric(float64(len(page.HTML))/1024, "KB")
	})
}

// syntheticTarget is the feed entry of a synthetic page.
func syntheticTarget(content string) learn.Target {
	return learn.Target{Title: "A walk by the river", Author: "Ann Writer", Content: content, FullText: true,
		Date: time.Date(2024, 3, 3, 10, 0, 0, 0, time.UTC)}
}

// syntheticPage returns a blog page of about size bytes: an article of many
// paragraphs inside a template with navigation and a sidebar.
func syntheticPage(size int) ([]byte, string) {
	var art strings.Builder
	for i := 0; art.Len() < size*2/3; i++ {
		fmt.Fprintf(&art, "<p>Paragraph %d tells of <em>walk %d</em> along the river, where herons %d and reeds meet the tide.</p>\n", i, i*7, i%13)
	}
	var side strings.Builder
	for i := 0; side.Len() < size/3; i++ {
		fmt.Fprintf(&side, "<li><a href=\"/p/%d/\">Older post number %d</a></li>\n", i, i)
	}
	page := "<html><head><title>A walk</title></head><body><div id=\"nav\"><a href=\"/\">Home</a></div>" +
		"<div class=\"post\"><h1 class=\"title\">A walk by the river</h1><div class=\"meta\"><span class=\"byline\">Ann Writer</span>" +
		" <span class=\"published\">March 3, 2024</span></div><div class=\"entry-content\">" + art.String() +
		"</div></div><ul id=\"sidebar\">" + side.String() + "</ul></body></html>"
	return []byte(page), art.String()
}

// BenchmarkLearnScaling shows how learning from one page grows with the
// page's size: ns/op divided by size should stay flat (linear, or n log n).
func BenchmarkLearnScaling(b *testing.B) {
	for _, kb := range []int{10, 50, 100, 500, 1000, 2000} {
		page, content := syntheticPage(kb * 1024)
		pairs := []learn.Pair{{Page: learn.Page{URL: "https://x.example/a/", HTML: page},
			Target: syntheticTarget(content)}}
		b.Run(fmt.Sprintf("%dKB", kb), func(b *testing.B) {
			b.SetBytes(int64(len(page)))
			start := cpuTime()
			for b.Loop() {
				if _, err := learn.Learn(pairs, learn.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, start)
		})
	}
}

// corpusCase is one held-out page with the rules learned from the other
// half of its blog, as the eval pairs them.
type corpusCase struct {
	name  string
	rules *learn.Rules
	page  learn.Page
}

// corpusCases learns on each half of every corpus blog and pairs the
// rules with the pages of the other half.
func corpusCases(b testing.TB) []corpusCase {
	var out []corpusCase
	for _, cb := range corpusBlogs(b) {
		pairs := cb.pairs(b)
		if len(pairs) < 2 {
			continue
		}
		old, recent := split(pairs)
		for _, h := range [][2][]learn.Pair{{old, recent}, {recent, old}} {
			rules, err := learn.Learn(h[0], learn.Options{})
			if err != nil {
				rules = nil
			}
			for _, p := range h[1] {
				out = append(out, corpusCase{cb.Name, rules, p.Page})
			}
		}
	}
	return out
}

// BenchmarkExtractCorpus extracts every held-out corpus page with the
// rules learned from the other half of its blog, as the eval does; ns/op
// is per page.
func BenchmarkExtractCorpus(b *testing.B) {
	cases := corpusCases(b)
	start := cpuTime()
	for b.Loop() {
		for _, c := range cases {
			_, _ = c.rules.Extract(c.page)
		}
	}
	reportCPU(b, start)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(cases))/1e6, "ms/page")
}

// BenchmarkParsedPage measures, per held-out corpus page, html.Parse
// alone, Extract on bytes (parse included) and Extract on a page parsed
// once by ParsePage, as the crawler hands it over. Run with -benchmem;
// ns/op and allocs/op are per page.
func BenchmarkParsedPage(b *testing.B) {
	cases := corpusCases(b)
	parsed := make([]learn.Page, len(cases))
	for i, c := range cases {
		p, err := learn.ParsePage(c.page.URL, c.page.HTML, c.page.Lang)
		if err != nil {
			b.Fatal(err)
		}
		parsed[i] = p
	}
	run := func(name string, f func(i int)) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			start := cpuTime()
			n := 0
			for b.Loop() {
				f(n % len(cases))
				n++
			}
			reportCPU(b, start)
		})
	}
	run("parse", func(i int) { _, _ = html.Parse(bytes.NewReader(cases[i].page.HTML)) })
	run("extract-bytes", func(i int) { _, _ = cases[i].rules.Extract(cases[i].page) })
	run("extract-parsed", func(i int) { _, _ = cases[i].rules.Extract(parsed[i]) })
}
