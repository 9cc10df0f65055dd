package aip_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/aip"
)

// TestOneEntryOneFolder: a post archived dated, then captured again
// without a date (a page that shows none, read without its feed item),
// then dated in another year (a zone moving it across New Year), is one
// entry: each capture is a version in the folder it has, never a second
// folder (issue 36, cause 3). Check stays clean.
func TestOneEntryOneFolder(t *testing.T) {
	forEachBackend(t, func(t *testing.T, a *testArchive) {
		ctx := context.Background()
		e := fixtureEntry()
		r1, err := a.W.WriteEntry(ctx, e)
		if err != nil {
			t.Fatal(err)
		}
		undated := fixtureEntry()
		undated.Created, undated.Modified = time.Time{}, time.Time{}
		r2, err := a.W.WriteEntry(ctx, undated)
		if err != nil {
			t.Fatal(err)
		}
		moved := fixtureEntry()
		moved.Created = time.Date(2023, 12, 31, 23, 30, 0, 0, time.UTC)
		r3, err := a.W.WriteEntry(ctx, moved)
		if err != nil {
			t.Fatal(err)
		}
		folder := path.Dir(a.name(r1.Dir))
		for i, r := range []aip.Result{r2, r3} {
			if !r.Written || path.Dir(a.name(r.Dir)) != folder || r.Version != i+2 {
				t.Errorf("capture %d: %+v; want version %d in %s", i+2, r, i+2, folder)
			}
		}
		for _, err := range a.check() {
			t.Error(err)
		}
	})
}

// TestCheckReportsTwoBagsOfOneIdentifier: an archive where one entry's
// versions sit in two folders (entries/2024/<key>/v1 and
// entries/undated/<key>/v1, as the writer made them before it looked for
// the entry's folder), both bags claiming one Internal-Sender-Identifier,
// is not ok: Check names both.
func TestCheckReportsTwoBagsOfOneIdentifier(t *testing.T) {
	w := newWriter(t)
	defer w.Close()
	r, err := w.WriteEntry(context.Background(), fixtureEntry())
	if err != nil {
		t.Fatal(err)
	}
	if errs := aip.Check(w.Root); len(errs) > 0 {
		t.Fatalf("clean archive: %v", errs)
	}
	entry := filepath.Dir(r.Dir)
	twin := filepath.Join(filepath.Dir(filepath.Dir(entry)), aip.Undated, filepath.Base(entry))
	if err := os.MkdirAll(twin, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("cp", "-a", r.Dir, twin).CombinedOutput(); err != nil {
		t.Fatalf("cp: %v %s", err, out)
	}
	var dup *aip.DuplicateError
	n := 0
	for _, err := range aip.Check(w.Root) {
		if errors.As(err, &dup) {
			n++
			if len(dup.Paths) != 2 {
				t.Errorf("%v: want the two claims", err)
			}
			continue
		}
		t.Errorf("unexpected problem: %v", err)
	}
	if n == 0 {
		t.Errorf("Check found no bags claiming one identifier in %s and %s", entry, twin)
	}
}
