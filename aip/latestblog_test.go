package aip_test

import (
	"context"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
)

// TestLatestBlogState: a Blog record's state file (blogharvest.RoleState)
// is written to data/objects/state/ and LatestBlog returns it apart from
// the learned rules, neither taken for the other; the package passes
// Check.
func TestLatestBlogState(t *testing.T) {
	w := newWriter(t)
	b := fixtureBlog()
	rules, state := `{"content":"div.entry"}`, `{"threads":{"https://garden.example.org/p/":[{"URL":"https://c.example/api?p=1"}]}}`
	b.Files = append(b.Files, file("", blogharvest.RoleLog, "application/json", rules, 0),
		file("", blogharvest.RoleState, "application/json", state, 0))
	if _, err := w.WriteBlog(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	ab, err := aip.LatestBlog(&aip.Local{Root: w.Root}, b.ID)
	if err != nil || ab == nil {
		t.Fatalf("LatestBlog: %v, %v", ab, err)
	}
	if string(ab.Rules) != rules || string(ab.State) != state {
		t.Errorf("rules %q, state %q; want %q and %q", ab.Rules, ab.State, rules, state)
	}
	if probs := aip.Check(w.Root); len(probs) > 0 {
		t.Errorf("check: %v", probs)
	}
}
