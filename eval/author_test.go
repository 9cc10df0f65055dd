package main

import (
	"fmt"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/learn"
)

// authorPage makes post i's page with byline as the byline's HTML ("" for
// a page that names nobody).
func authorPage(i int, byline string) learn.Page {
	html := fmt.Sprintf(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>Post number %d – Tiny</title></head><body>
<nav><a href="/">Tiny</a></nav><article class="post"><h1 class="entry-title">Post number %d</h1>%s
<time class="published" datetime="2024-01-%02dT10:00:00+00:00">January %d, 2024</time>
<div class="entry-content">%s</div></article><footer>Tiny runs on nothing at all.</footer></body></html>`,
		i, i, byline, i, i, tinyBody(i))
	return learn.Page{URL: fmt.Sprintf("https://tiny.example/2024/01/%02d/post-%d/", i, i), HTML: []byte(html), Lang: "en"}
}

// TestInferredAuthor learns rules from four entries that all name Ann
// Author and checks which extracted authors count as inferred from the
// feed: the one given to a page that names nobody, not the one read from
// a byline, with or without a learned author rule.
func TestInferredAuthor(t *testing.T) {
	learnFrom := func(byline string) *learn.Rules {
		var pairs []learn.Pair
		for i := 1; i <= 4; i++ {
			pairs = append(pairs, learn.Pair{Page: authorPage(i, byline), Target: learn.Target{Title: fmt.Sprintf("Post number %d", i),
				Author: "Ann Author", Content: tinyBody(i), FullText: true}})
		}
		rules, err := learn.Learn(pairs, learn.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if rules.SoleAuthor != "Ann Author" {
			t.Fatalf("SoleAuthor = %q, want Ann Author", rules.SoleAuthor)
		}
		return rules
	}
	withRule := learnFrom(`<span class="byline">Ann Author</span>`)
	noRule := learnFrom("")
	for _, c := range []struct {
		name   string
		rules  *learn.Rules
		byline string
		want   bool
	}{
		{"rule finds the byline", withRule, `<span class="byline">Ann Author</span>`, false},
		{"rule, page names nobody", withRule, "", true},
		{"no rule, page names nobody", noRule, "", true},
		{"no rule, fallback reads the byline", noRule, `<p class="author">By Ann Author</p>`, false},
	} {
		p := authorPage(9, c.byline)
		ex, err := c.rules.Extract(p)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if ex.Author != "Ann Author" {
			t.Fatalf("%s: author %q (%s), want Ann Author", c.name, ex.Author, ex.Methods[learn.FieldAuthor])
		}
		if c.rules == noRule && ex.Methods[learn.FieldAuthor] != "heuristic" {
			t.Fatalf("%s: method %s, want heuristic (the case tells inference from a fallback)", c.name, ex.Methods[learn.FieldAuthor])
		}
		if got := inferredAuthor(c.rules, p, ex.Author, string(ex.Methods[learn.FieldAuthor])); got != c.want {
			t.Errorf("%s: inferred = %v (method %s), want %v", c.name, got, ex.Methods[learn.FieldAuthor], c.want)
		}
		if got := showsAuthor(p.HTML, "Ann Author"); got != (c.byline != "") {
			t.Errorf("%s: shown = %v", c.name, got)
		}
	}
	if inferredAuthor(nil, authorPage(9, ""), "Ann Author", "heuristic") {
		t.Error("inferred without rules")
	}
}
