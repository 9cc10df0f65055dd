package report_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/report"
)

// TestCollectMethods writes entries with known field provenance through
// aip.Writer and checks that Collect counts, per field and method, exactly
// the latest versions' records: an older version's methods and a bag
// without fields.tsv count nowhere, comments apart from entries.
func TestCollectMethods(t *testing.T) {
	root := t.TempDir()
	w := &aip.Writer{Root: root, Software: "blogharvest test"}
	defer w.Close()
	entry := func(n int, prov blogharvest.Provenance, comments ...blogharvest.Provenance) *blogharvest.Entry {
		e := &blogharvest.Entry{BlogID: "b", Kind: blogharvest.KindPost, URL: fmt.Sprintf("https://b.example/p%d", n),
			Title: fmt.Sprintf("Post %d", n), Content: "<p>words</p>", ContentFormat: "text/html",
			Created: time.Date(2024, 1, n, 0, 0, 0, 0, time.UTC), Provenance: prov}
		for i, p := range comments {
			e.Comments = append(e.Comments, blogharvest.Comment{ID: fmt.Sprint("c", i), Content: "hi",
				ContentFormat: "text/plain", PostURL: e.URL, Provenance: p})
		}
		return e
	}
	rule, feed, structured, heuristic := blogharvest.MethodRule, blogharvest.MethodFeed, blogharvest.MethodStructured, blogharvest.MethodHeuristic
	writes := []*blogharvest.Entry{
		entry(1, blogharvest.Provenance{"title": rule, "full_content": rule}),
		entry(2, blogharvest.Provenance{"title": structured, "full_content": heuristic, "author": feed},
			blogharvest.Provenance{"full_content": feed}, blogharvest.Provenance{"full_content": heuristic, "author": heuristic}),
		entry(3, blogharvest.Provenance{"title": feed}),
		entry(4, nil), // no fields.tsv
	}
	v2 := entry(3, blogharvest.Provenance{"title": heuristic, "full_content": heuristic}) // only v2 counts
	v2.Content = "<p>other words</p>"
	for _, e := range append(writes, v2) {
		if _, err := w.WriteEntry(context.Background(), e); err != nil {
			t.Fatal(err)
		}
	}
	target, err := report.ResolveIn(&aip.Local{Root: root}, "b")
	if err != nil {
		t.Fatal(err)
	}
	s, err := report.Collect(context.Background(), target, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := report.Methods{Records: 3, Counts: map[string]map[string]int{
		"title":        {"rule": 1, "structured": 1, "heuristic": 1},
		"full_content": {"rule": 1, "heuristic": 2},
		"author":       {"feed": 1},
	}}
	if !reflect.DeepEqual(s.Methods, want) {
		t.Errorf("entry methods %+v, want %+v", s.Methods, want)
	}
	wantC := report.Methods{Records: 2, Counts: map[string]map[string]int{
		"full_content": {"feed": 1, "heuristic": 1}, "author": {"heuristic": 1}}}
	if !reflect.DeepEqual(s.CommentMethods, wantC) {
		t.Errorf("comment methods %+v, want %+v", s.CommentMethods, wantC)
	}
	if cols := s.Methods.Columns(); !reflect.DeepEqual(cols, []string{"feed", "rule", "structured", "heuristic"}) {
		t.Errorf("columns %v", cols)
	}
	rows := s.Methods.Rows()
	wantRows := []report.MethodRow{{"author", []int{1, 0, 0, 0}, 2}, {"full_content", []int{0, 1, 0, 2}, 0},
		{"title", []int{0, 1, 1, 1}, 0}}
	if !reflect.DeepEqual(rows, wantRows) {
		t.Errorf("rows %+v, want %+v", rows, wantRows)
	}
}
