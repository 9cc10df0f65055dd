package aip_test

import (
	"context"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/aip"
)

// TestBlogState: the state an archive keeps beside the bags of a blog is
// the last one written (the older one removed), none before the first,
// not another blog's; an archive holding it and a Blog AIP passes Check,
// over both backends.
func TestBlogState(t *testing.T) {
	forEachBackend(t, testBlogState)
}

func testBlogState(t *testing.T, a *testArchive) {
	ctx := context.Background()
	b := fixtureBlog()
	if got, err := aip.LatestBlogState(ctx, a.St, b.ID); got != nil || err != nil {
		t.Fatalf("no state written: %q, %v; want none", got, err)
	}
	if _, err := a.W.WriteBlog(ctx, b); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 12, 6, 11, 0, 0, 0, time.UTC)
	for i, s := range []string{`{"threads":{"a":[]}}`, `{"threads":{"b":[]}}`} {
		if err := aip.PutBlogState(ctx, a.St, b.ID, at.Add(time.Duration(i)*time.Minute), []byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	if err := aip.PutBlogState(ctx, a.St, "other-blog", at.Add(time.Hour), []byte(`{"threads":{"c":[]}}`)); err != nil {
		t.Fatal(err)
	}
	got, err := aip.LatestBlogState(ctx, a.St, b.ID)
	if err != nil || string(got) != `{"threads":{"b":[]}}` {
		t.Errorf("latest state %q, %v; want the second", got, err)
	}
	names, err := a.St.ListRecords(ctx, aip.StateDir+"/"+b.ID, "")
	if err != nil || len(names) != 1 {
		t.Errorf("state objects %q, %v; want the newest only", names, err)
	}
	if err := aip.PutBlogState(ctx, a.St, "../x", at, []byte(`{}`)); err == nil {
		t.Error("a state written for the blog id ../x")
	}
	if probs := a.check(); len(probs) > 0 {
		t.Errorf("check: %v", probs)
	}
}
