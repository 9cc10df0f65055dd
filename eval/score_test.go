package main

import (
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
