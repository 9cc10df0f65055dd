package learn_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/learn"
)

func TestDebugRules(t *testing.T) {
	want := os.Getenv("BLOG")
	if want == "" {
		t.Skip()
	}
	for _, b := range corpusBlogs(t) {
		if b.Name != want {
			continue
		}
		pairs := b.pairs(t)
		old, _ := split(pairs)
		r, err := learn.Learn(old, learn.Options{})
		if err != nil {
			t.Fatal(err)
		}
		js, _ := json.MarshalIndent(r, "", " ")
		t.Logf("%s", js)
		for _, p := range old[:2] {
			t.Logf("target title %q author %q date %v", p.Target.Title, p.Target.Author, p.Target.Date)
		}
	}
}

func TestDebugDates(t *testing.T) {
	want := os.Getenv("BLOG")
	if want == "" {
		t.Skip()
	}
	for _, b := range corpusBlogs(t) {
		if b.Name != want {
			continue
		}
		pairs := b.pairs(t)
		old, recent := split(pairs)
		r, _ := learn.Learn(old, learn.Options{})
		for _, p := range recent {
			x, _ := r.Extract(p.Page)
			t.Logf("%v | %v | %v %q | %q", p.Target.Date, x.Date, learn.SameDay(x.Date, p.Target.Date), x.Author, p.Target.Author)
		}
	}
}
