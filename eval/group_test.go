package main

import (
	"strings"
	"testing"
	"time"
)

// scoredRun returns a blog's run with posts posts, ok of them with the
// right article.
func scoredRun(name string, fixture bool, posts, ok int) *blogRun {
	br := newBlogRun(name, []string{systemOurs})
	br.fixture = fixture
	for i := 0; i < posts; i++ {
		text := "the heron stood by the pond all morning long"
		got := text
		if i >= ok {
			got = "menu home about contact"
		}
		br.scores[systemOurs].add(result{Text: got}, truth{Text: text, FullText: true})
	}
	return br
}

// TestGroupsApart checks that the real corpus and the fixture blogs are
// summed apart in the JSON and the Markdown, with no mixed headline row.
func TestGroupsApart(t *testing.T) {
	ev := &evaluation{mode: modeExtract, systems: []string{systemOurs}, timeline: newTimeline(), started: time.Now()}
	ev.blogs = []*blogRun{scoredRun("fixture/a", true, 10, 10), scoredRun("fixture/b", true, 10, 10),
		scoredRun("real", false, 4, 3)}
	r := buildReport(ev, "corpus")
	if got := r.Groups[groupCorpus]; got.Blogs != 1 || got.Systems[systemOurs].Article.OK != 3 || got.Systems[systemOurs].Article.N != 4 {
		t.Errorf("corpus group = %+v, want 1 blog, article 3/4", got)
	}
	if got := r.Groups[groupFixtures]; got.Blogs != 2 || got.Systems[systemOurs].Article.OK != 20 {
		t.Errorf("fixtures group = %+v, want 2 blogs, article 20/20", got)
	}
	if got := r.Systems[systemOurs].Article; got.OK != 23 || got.N != 24 {
		t.Errorf("all systems article = %d/%d, want 23/24", got.OK, got.N)
	}
	var b strings.Builder
	if err := writeMarkdown(&b, r, ev.systems); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{"## Real corpus (1 blog)", "## Fixture blogs (2 blogs: the project's own test blogs, not real ones)",
		"| blogharvest | 4 | 75.0 % (3/4) |", "| blogharvest | 20 | 100.0 % (20/20) |"} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
	if strings.Contains(md, "(23/24)") {
		t.Errorf("markdown mixes corpus and fixtures:\n%s", md)
	}
	// Only the corpus: no fixture table.
	ev.blogs = ev.blogs[2:]
	r = buildReport(ev, "corpus")
	if _, ok := r.Groups[groupFixtures]; ok {
		t.Error("fixtures group without fixture blogs")
	}
}

// TestDiscoveryAll checks discovery over every held-out post and over the
// reachable ones, per blog and summed.
func TestDiscoveryAll(t *testing.T) {
	cc := &crawlCase{held: map[string]*heldPost{
		"a": {reachable: true, found: true}, "b": {reachable: true, found: true}, "c": {reachable: true},
		"d": {}, "e": {found: true},
	}, archive: map[string]bool{"a": true, "b": true, "c": true, "x": false}, archived: map[string]bool{"a": true, "x": true}}
	d := cc.discovery()
	if d.HeldOut != 5 || d.FoundAll != 3 || d.RecallAll != 0.6 || d.N != 3 || d.Found != 2 || d.Recall != round(2.0/3) ||
		d.Unreachable != 2 || d.FoundUnreachable != 1 {
		t.Errorf("discovery = %+v", d)
	}
	a := cc.archiveDiscovery()
	if a.Matched != 4 || a.FoundAll != 2 || a.RecallAll != 0.5 || a.N != 3 || a.Found != 1 {
		t.Errorf("archive = %+v", a)
	}
	br := newBlogRun("real", []string{systemOurs})
	br.crawl = &crawlStats{discovery: d, archive: a}
	sum := crawlTotals([]*blogRun{br, br}, systemJSON{})
	if s := sum.Discovery; s.HeldOut != 10 || s.FoundAll != 6 || s.RecallAll != 0.6 || s.N != 6 || s.Found != 4 {
		t.Errorf("summed discovery = %+v", s)
	}
	if s := sum.Archive; s.Matched != 8 || s.FoundAll != 4 || s.RecallAll != 0.5 || s.N != 6 || s.Found != 2 {
		t.Errorf("summed archive = %+v", s)
	}
	cells := crawlCells(sum)
	if cells[0] != "60.0 % (6/10)" || cells[1] != "66.7 % (4/6)" || cells[2] != "50.0 % (4/8)" || cells[3] != "33.3 % (2/6)" {
		t.Errorf("crawl cells = %q", cells[:4])
	}
}
