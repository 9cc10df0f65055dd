package aip_test

import (
	"context"
	"path"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
)

// TestEntryIndexKeptTrue: the Writer's index of entry folders (built at
// the first entry write under its lock, here after the blog's bag took
// the lock, while the blog has no entry yet) learns each folder it writes:
// the same post captured again undated, then dated in another year, then
// under a new address naming the old among its aliases, stays one
// folder. Without the index's additions the later captures would find no
// folder of the post and open a second one. Check stays clean.
func TestEntryIndexKeptTrue(t *testing.T) {
	forEachBackend(t, func(t *testing.T, a *testArchive) {
		ctx := context.Background()
		if _, err := a.W.WriteBlog(ctx, fixtureBlog()); err != nil {
			t.Fatal(err)
		}
		e := fixtureEntry()
		r1, err := a.W.WriteEntry(ctx, e)
		if err != nil || !r1.Written {
			t.Fatalf("first capture: %+v, %v", r1, err)
		}
		undated := fixtureEntry()
		undated.Created, undated.Modified = time.Time{}, time.Time{}
		moved := fixtureEntry()
		moved.Created = time.Date(2023, 12, 31, 23, 30, 0, 0, time.UTC)
		renamed := fixtureEntry()
		renamed.Aliases = []string{renamed.URL}
		renamed.URL += "-moved"
		folder := path.Dir(a.name(r1.Dir))
		for i, c := range []struct {
			name  string
			entry *blogharvest.Entry
		}{{"undated", undated}, {"another year", moved}, {"new address", renamed}} {
			r, err := a.W.WriteEntry(ctx, c.entry)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if !r.Written || path.Dir(a.name(r.Dir)) != folder || r.Version != i+2 {
				t.Errorf("%s: %+v; want version %d in %s", c.name, r, i+2, folder)
			}
		}
		for _, err := range a.check() {
			t.Error(err)
		}
	})
}
