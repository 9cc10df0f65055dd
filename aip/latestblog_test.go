package aip_test

import (
	"context"
	"io/fs"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
)

// TestLatestBlogState: a Blog record's state file (blogharvest.RoleState)
// is written to data/objects/state/ and LatestBlog returns it apart from
// the learned rules, neither taken for the other; the package passes
// Check. LatestBlog reads a folder (the S3 archive: read back through the
// Store).
func TestLatestBlogState(t *testing.T) {
	forEachBackend(t, testLatestBlogState)
}

func testLatestBlogState(t *testing.T, a *testArchive) {
	w, b := a.W, fixtureBlog()
	rules, state := `{"content":"div.entry"}`, `{"threads":{"https://garden.example.org/p/":[{"URL":"https://c.example/api?p=1"}]}}`
	b.Files = append(b.Files, file("", blogharvest.RoleLog, "application/json", rules, 0),
		file("", blogharvest.RoleState, "application/json", state, 0))
	r, err := w.WriteBlog(context.Background(), b)
	if err != nil {
		t.Fatal(err)
	}
	if got := a.glob(r.Dir, "data/objects/state/*"); len(got) != 1 {
		t.Errorf("state files %v, want one", got)
	} else if data, _ := fs.ReadFile(a.St, got[0]); string(data) != state {
		t.Errorf("state file %q, want %q", data, state)
	}
	if a.backend == "local" {
		ab, err := aip.LatestBlog(a.root, b.ID)
		if err != nil || ab == nil {
			t.Fatalf("LatestBlog: %v, %v", ab, err)
		}
		if string(ab.Rules) != rules || string(ab.State) != state {
			t.Errorf("rules %q, state %q; want %q and %q", ab.Rules, ab.State, rules, state)
		}
	}
	if probs := a.check(); len(probs) > 0 {
		t.Errorf("check: %v", probs)
	}
}
