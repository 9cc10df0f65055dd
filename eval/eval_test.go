package main

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusDir is the shared corpus, relative to this package.
const corpusDir = "../../shared/corpus"

// runMain runs the command with args plus output files in a temporary
// folder and returns the decoded JSON report, the Markdown and the SVG.
func runMain(t *testing.T, args ...string) (map[string]any, string, string) {
	t.Helper()
	dir := t.TempDir()
	js, md, svg := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.md"), filepath.Join(dir, "r.svg")
	args = append(args, "-json", js, "-md", md, "-plot", svg)
	if err := Main(context.Background(), args, io.Discard); err != nil {
		t.Fatalf("Main %v: %v", args, err)
	}
	var r map[string]any
	if err := json.Unmarshal(readFile(t, js), &r); err != nil {
		t.Fatalf("report json: %v", err)
	}
	plot := ""
	if _, err := os.Stat(svg); err == nil {
		plot = string(readFile(t, svg))
	}
	return r, string(readFile(t, md)), plot
}

// readFile reads a file or fails the test.
func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// obj returns m[key] as an object, failing the test when it is not one.
func obj(t *testing.T, m map[string]any, key string) map[string]any {
	t.Helper()
	v, ok := m[key].(map[string]any)
	if !ok {
		t.Fatalf("report: %q is %T, want an object (in %v)", key, m[key], keysOf(m))
	}
	return v
}

// number returns m[key] as a number, failing the test when it is not one.
func number(t *testing.T, m map[string]any, key string) float64 {
	t.Helper()
	v, ok := m[key].(float64)
	if !ok {
		t.Fatalf("report: %q is %T, want a number (in %v)", key, m[key], keysOf(m))
	}
	return v
}

// keysOf lists an object's keys, for messages.
func keysOf(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// checkSystem asserts the shape of one system's scores.
func checkSystem(t *testing.T, name string, s map[string]any, mode string) {
	t.Helper()
	art := obj(t, s, "article")
	for _, k := range []string{"n", "ok", "success", "ok_05", "token_f1"} {
		number(t, art, k)
	}
	for _, f := range []string{"title", "author", "date"} {
		fj := obj(t, s, f)
		for _, k := range []string{"n", "ok", "success"} {
			number(t, fj, k)
		}
	}
	number(t, s, "ms_per_post")
	if name != systemOurs {
		return
	}
	c := obj(t, s, "comments")
	for _, k := range []string{"precision", "recall", "n"} {
		number(t, c, k)
	}
	author := obj(t, s, "author")
	for _, k := range []string{"on_page", "ok_on_page", "inferred", "inferred_ok", "ok_on_page_inferred"} {
		number(t, author, k)
	}
	if mode == modeExtract {
		for _, k := range []string{"learn_ms_per_page", "ms_per_post_amortised", "ms_per_post_with_learning"} {
			number(t, s, k)
		}
		return
	}
	d := obj(t, s, "discovery")
	for _, k := range []string{"n", "found", "recall", "held_out", "found_all", "recall_all"} {
		number(t, d, k)
	}
	if number(t, d, "held_out") != number(t, d, "n")+number(t, d, "unreachable") ||
		number(t, d, "found_all") != number(t, d, "found")+number(t, d, "found_unreachable") {
		t.Errorf("discovery over all held-out posts does not add up: %v", d)
	}
	for _, k := range []string{"wall_ms", "pages", "peak_rss_kb"} {
		number(t, s, k)
	}
}

// checkReport asserts the report's shape and returns blogharvest's overall
// scores.
func checkReport(t *testing.T, r map[string]any, mode string, systems []string) map[string]any {
	t.Helper()
	if r["mode"] != mode {
		t.Fatalf("mode = %v, want %s", r["mode"], mode)
	}
	sys := obj(t, r, "systems")
	for _, name := range systems {
		checkSystem(t, name, obj(t, sys, name), mode)
	}
	groups := obj(t, r, "groups")
	for g := range groups {
		gs := obj(t, obj(t, groups, g), "systems")
		for _, name := range systems {
			checkSystem(t, name, obj(t, gs, name), mode)
		}
	}
	if len(groups) == 0 {
		t.Errorf("report: no groups")
	}
	blogs, ok := r["blogs"].([]any)
	if !ok || len(blogs) == 0 {
		t.Fatalf("report: blogs = %v", r["blogs"])
	}
	for _, b := range blogs {
		bm := b.(map[string]any)
		if _, ok := bm["name"].(string); !ok {
			t.Fatalf("blog without a name: %v", bm)
		}
		bs := obj(t, bm, "systems")
		if bm["skipped"] == nil {
			checkSystem(t, systemOurs, obj(t, bs, systemOurs), mode)
		}
	}
	return obj(t, sys, systemOurs)
}

// rate returns the success rate of field in a system's scores.
func rate(t *testing.T, s map[string]any, field string) float64 {
	t.Helper()
	return number(t, obj(t, s, field), "success")
}

// checkPlot asserts the SVG is well-formed XML with one curve per system.
func checkPlot(t *testing.T, svg string, systems int) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(svg))
	lines := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("plot is not XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "polyline" {
			lines++
		}
	}
	if lines != systems {
		t.Errorf("plot has %d curves, want %d", lines, systems)
	}
}

var allSystems = []string{systemOurs, systemTrafilatura, systemReadability, systemDistiller}

// TestExtractFixtures runs extract mode on the project's fixture blogs.
func TestExtractFixtures(t *testing.T) {
	r, md, svg := runMain(t, "-fixtures", "-mode", "extract")
	ours := checkReport(t, r, modeExtract, allSystems)
	t.Log("\n" + md)
	checkPlot(t, svg, len(allSystems)+1)
	if got := rate(t, ours, "article"); got < 0.9 {
		t.Errorf("blogharvest article success on the fixtures = %.3f, want ≥ 0.9", got)
	}
	if got := rate(t, ours, "title"); got < 0.9 {
		t.Errorf("blogharvest title success on the fixtures = %.3f, want ≥ 0.9", got)
	}
}

// TestExtractCorpus runs extract mode on the shared corpus.
func TestExtractCorpus(t *testing.T) {
	skipCorpus(t)
	r, md, svg := runMain(t, "-corpus", corpusDir, "-mode", "extract")
	ours := checkReport(t, r, modeExtract, allSystems)
	t.Log("\n" + md)
	checkPlot(t, svg, len(allSystems)+1)
	if got := rate(t, ours, "article"); got < 0.9 {
		t.Errorf("blogharvest article success on the corpus = %.3f, want ≥ 0.9", got)
	}
}

// TestCrawlFixtures runs crawl mode on the fixture blogs.
func TestCrawlFixtures(t *testing.T) {
	r, md, _ := runMain(t, "-fixtures", "-mode", "crawl")
	ours := checkReport(t, r, modeCrawl, []string{systemOurs})
	t.Log("\n" + md)
	if got := number(t, obj(t, ours, "discovery"), "recall"); got < 0.9 {
		t.Errorf("discovery recall on the fixtures = %.3f, want ≥ 0.9", got)
	}
}

// TestCrawlCorpus runs crawl mode on the shared corpus.
func TestCrawlCorpus(t *testing.T) {
	skipCorpus(t)
	r, md, _ := runMain(t, "-corpus", corpusDir, "-mode", "crawl")
	ours := checkReport(t, r, modeCrawl, []string{systemOurs})
	t.Log("\n" + md)
	if got := number(t, obj(t, ours, "discovery"), "recall"); got < 0.8 {
		t.Errorf("discovery recall on the corpus = %.3f, want ≥ 0.8", got)
	}
}

// skipCorpus skips in -short mode and when the shared corpus is absent.
func skipCorpus(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("corpus evaluation skipped in -short mode")
	}
	if _, err := os.Stat(filepath.Join(corpusDir, "README.md")); err != nil {
		t.Skipf("corpus not found at %s", corpusDir)
	}
}
