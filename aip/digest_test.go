package aip_test

import (
	"context"
	"testing"

	"github.com/blogharvest/blogharvest/aip"
)

// digestV1Root is an archive of the fixtures written before the content
// digest was made of named fields (scheme 1: a JSON of the whole record),
// kept as written then.
const digestV1Root = "testdata/digest-v1"

// TestDigestV1ArchiveUpdates updates an archive written under the scheme-1
// content digest with the same fixtures: no record gets a new version. A
// changed entry still does, and its new version carries a scheme-2 digest
// that the next identical capture matches.
func TestDigestV1ArchiveUpdates(t *testing.T) {
	forEachBackend(t, testDigestV1ArchiveUpdates)
}

func testDigestV1ArchiveUpdates(t *testing.T, a *testArchive) {
	a.importArchive(t, digestV1Root)
	w, ctx := a.W, context.Background()
	w.OrgCode, w.ValidateEvery = "XxEL", 0
	entry, err := w.WriteEntry(ctx, fixtureEntry())
	if err != nil {
		t.Fatal(err)
	}
	blog, err := w.WriteBlog(ctx, fixtureBlog())
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []aip.Result{entry, blog} {
		if r.Written || r.Version != 1 {
			t.Errorf("%s: written %v, version %d; want the scheme-1 v1 kept (0 new versions)", r.Dir, r.Written, r.Version)
		}
	}
	changed := fixtureEntry()
	changed.Title += " (revised)"
	for i := 1; i <= 2; i++ {
		r, err := w.WriteEntry(ctx, changed)
		if err != nil {
			t.Fatal(err)
		}
		if r.Version != 2 || r.Written != (i == 1) {
			t.Errorf("changed entry, write %d: version %d written %v; want version 2, written only the first time", i, r.Version, r.Written)
		}
	}
	for _, err := range a.check() {
		t.Errorf("Check: %v", err)
	}
}
