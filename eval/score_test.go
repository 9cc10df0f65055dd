package main

import (
	"strings"
	"testing"
	"time"
)

// TestScore checks the scoring rules on hand-made cases.
func TestScore(t *testing.T) {
	day := time.Date(2024, 3, 1, 23, 30, 0, 0, time.UTC)
	tr := truth{Title: "A walk in the park", Author: "Ann Author", Date: day, FullText: true,
		Text: "We walked in the park for an hour and saw three herons by the pond.", CommentTruth: true,
		Comments: []string{"Lovely herons!", "We went there too, last spring, and it rained."}}
	s := newScore()
	s.add(result{Title: "A walk in the park", Author: "By Ann Author", Date: day.Add(30 * time.Minute).In(time.FixedZone("+1", 3600)),
		Text: tr.Text, HasComments: true, Comments: []string{"Lovely herons!", "Spam spam spam"}}, tr)
	s.add(result{Title: "Home", Author: "Bob", Date: day.AddDate(0, 0, 2), Text: "Menu Home About"}, tr)
	j := s.json()
	check := func(name string, got, want int) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %d, want %d", name, got, want)
		}
	}
	check("article ok", j.Article.OK, 1)
	check("article n", j.Article.N, 2)
	check("title ok", j.Title.OK, 1)
	check("author ok", j.Author.OK, 1)
	check("date ok", j.Date.OK, 1)
	check("comments matched", j.Comments.Matched, 1)
	check("comments truth", j.Comments.N, 2)
	if j.Comments.Precision != 0.5 || j.Comments.Recall != 0.5 {
		t.Errorf("comments P/R = %v/%v, want 0.5/0.5", j.Comments.Precision, j.Comments.Recall)
	}
}

// TestTicks checks the plot's axis ticks cover the range in ≤ 9 steps.
func TestTicks(t *testing.T) {
	for _, max := range []float64{0.37, 1, 7, 13, 348, 9999, 123456} {
		ts := ticks(max)
		if ts[0] != 0 || ts[len(ts)-1] < max || len(ts) > 10 {
			t.Errorf("ticks(%v) = %v", max, ts)
		}
	}
}

// TestShowsAuthor checks what counts as an author shown on the page: the
// name's words in the visible text, not in metadata, scripts or
// attributes, and not inside longer words.
func TestShowsAuthor(t *testing.T) {
	for _, c := range []struct {
		page, author string
		want         bool
	}{
		{`<p class="byline">Posted by <a href="/u/ann">Ann  Author</a></p>`, "Ann Author", true},
		{`<p>by ANN AUTHOR, staff writer</p>`, "ann author", true},
		{`<p>Ann</p><p>Author</p>`, "Ann Author", true}, // consecutive words of the text, across elements
		{`<head><meta name="author" content="Ann Author"></head><body><p>Hello</p></body>`, "Ann Author", false},
		{`<script type="application/ld+json">{"author":{"name":"Ann Author"}}</script><p>Hello</p>`, "Ann Author", false},
		{`<a title="Ann Author" href="/">Home</a>`, "Ann Author", false},
		{`<p>Annual report by the Authority</p>`, "Ann Author", false},
		{`<p>Written by Ann</p>`, "ann@example.org (Ann)", false}, // the address is the name RSS gives before "("
		{`<p>mail ann@example.org</p>`, "ann@example.org (Ann)", true},
		{`<p>Hello</p>`, "", false},
	} {
		if got := showsAuthor([]byte(c.page), c.author); got != c.want {
			t.Errorf("showsAuthor(%q, %q) = %v, want %v", c.page, c.author, got, c.want)
		}
	}
}

// TestScoreAuthorSplit checks the author's two figures: success on pages
// that show the author, and the authors inferred from the feed counted
// apart (right or wrong, shown or not).
func TestScoreAuthorSplit(t *testing.T) {
	shown := truth{Author: "Ann Author", AuthorOnPage: true}
	hidden := truth{Author: "Ann Author"}
	s := newScore()
	s.add(result{Author: "Ann Author", InfersAuthor: true}, shown)                         // read from the page
	s.add(result{Author: "Bob", InfersAuthor: true}, shown)                                // wrong
	s.add(result{Author: "Ann Author", InfersAuthor: true, AuthorInferred: true}, shown)   // inferred, page shows it
	s.add(result{Author: "Ann Author", InfersAuthor: true, AuthorInferred: true}, hidden)  // inferred, page names nobody
	s.add(result{Author: "Bob", InfersAuthor: true, AuthorInferred: true}, hidden)         // inferred, wrong
	s.add(result{Author: "Ann Author", InfersAuthor: true, AuthorInferred: true}, truth{}) // no truth: not scored
	a := s.json().Author
	check := func(name string, got *int, want int) {
		t.Helper()
		if got == nil || *got != want {
			t.Errorf("author %s = %v, want %d", name, got, want)
		}
	}
	if a.N != 5 || a.OK != 3 {
		t.Errorf("author, all = %d/%d, want 3/5", a.OK, a.N)
	}
	check("on_page", a.OnPage, 3)
	check("ok_on_page", a.OKOnPage, 2)
	check("inferred", a.Inferred, 3)
	check("inferred_ok", a.InferredOK, 2)
	check("ok_on_page_inferred", a.OKOnPageInferred, 1)
	if a.SuccessOnPage == nil || *a.SuccessOnPage != round(2.0/3) {
		t.Errorf("success_on_page = %v, want %v", a.SuccessOnPage, round(2.0/3))
	}
	if got := authorShown(a); got != "66.7 % (2/3) (1 from feed)" {
		t.Errorf("author shown cell = %q", got)
	}
	if got := authorAll(a); got != "60.0 % (3/5) [3 from feed, 2 right]" {
		t.Errorf("author, all cell = %q", got)
	}
	// A system that never infers reports no inferred counts.
	b := newScore()
	b.add(result{Author: "Ann Author"}, shown)
	if j := b.json().Author; j.Inferred != nil {
		t.Errorf("baseline inferred = %v, want none", *j.Inferred)
	}
	// Merging keeps the counts.
	m := newScore()
	m.merge(s)
	m.merge(s)
	if j := m.json().Author; *j.Inferred != 6 || *j.InferredOK != 4 || *j.OKOnPageInferred != 2 {
		t.Errorf("merged inferred = %d/%d/%d, want 6/4/2", *j.Inferred, *j.InferredOK, *j.OKOnPageInferred)
	}
}

// TestLearningCost checks the per-post costs with learning counted and
// the ratios the speed table gives.
func TestLearningCost(t *testing.T) {
	s := newScore()
	s.learned, s.learn, s.learnPages = true, 16*time.Millisecond, 10 // 1.6 ms per training page
	s.posts, s.extract = 10, 5*time.Millisecond                      // 0.5 ms per post
	j := s.json()
	if j.MSPerPostAmortised == nil || *j.MSPerPostAmortised != round((15*1.6+1000*0.5)/1000) {
		t.Errorf("amortised = %v, want %v", j.MSPerPostAmortised, round((15*1.6+1000*0.5)/1000))
	}
	if j.MSPerPostWithLearning == nil || *j.MSPerPostWithLearning != 2.1 {
		t.Errorf("with learning = %v, want 2.1", j.MSPerPostWithLearning)
	}
	base := newScore()
	base.posts, base.extract = 10, 84*time.Millisecond // 8.4 ms per post
	var b strings.Builder
	speed(&b, map[string]systemJSON{systemOurs: j, systemTrafilatura: base.json()}, []string{systemOurs, systemTrafilatura})
	for _, want := range []string{"| blogharvest | 0.50 | 0.00 | 1.60 | 0.52 | 2.10 | – | – | – |",
		"| go-trafilatura | 8.40 | 0.00 | – | – | – | 16.8× | 16.0× | 4.0× |",
		"16.8× faster on extraction alone, 16.0× with a 15-item feed learned once and 1000 posts extracted, 4.0× with learning"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("speed table lacks %q:\n%s", want, b.String())
		}
	}
	if base.json().MSPerPostAmortised != nil {
		t.Error("a baseline has an amortised learning cost")
	}
}
