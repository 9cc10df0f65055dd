package aip

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
)

// TestSpilledMETS writes one entry of 300 comments twice, its METS kept
// in memory and written through a temporary file (spillAbove 0): the two
// bags' METS documents are the same bytes, both check clean, and the
// temporary file is gone once the bag is written.
func TestSpilledMETS(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	now := func() time.Time { return time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC) }
	entry := func() *blogharvest.Entry {
		const u = "https://garden.example.org/2024/03/thread/"
		e := &blogharvest.Entry{BlogID: "garden", Kind: blogharvest.KindPost, URL: u, Title: "Thread",
			Content: "<p>A post.</p>", ContentFormat: "text/html", Created: time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC),
			ChildOf: "https://garden.example.org/"}
		for i := 1; i <= 300; i++ {
			c := blogharvest.Comment{ID: fmt.Sprintf("c%d", i), URL: fmt.Sprintf("%s#c%d", u, i), Author: "Ana",
				Content: fmt.Sprintf("Comment %d.", i), ContentFormat: "text/plain", PostURL: u}
			if i%5 == 0 {
				c.ParentID = fmt.Sprintf("c%d", i-1)
			}
			e.Comments = append(e.Comments, c)
		}
		return e
	}
	var mets [2][]byte
	for i, limit := range []int{spillAbove, 0} {
		old := spillAbove
		spillAbove = limit
		w := &Writer{Root: filepath.Join(t.TempDir(), "archive"), Now: now, ValidateEvery: 1}
		res, err := w.WriteEntry(context.Background(), entry())
		spillAbove = old
		w.Close()
		if err != nil {
			t.Fatal(err)
		}
		if errs := Check(res.Dir); len(errs) > 0 {
			t.Errorf("spill above %d: %v", limit, errs)
		}
		if mets[i], err = os.ReadFile(filepath.Join(res.Dir, "data", metsName)); err != nil {
			t.Fatal(err)
		}
	}
	if !bytes.Equal(mets[0], mets[1]) || len(mets[0]) == 0 {
		t.Errorf("METS through a file (%d bytes) is not the METS in memory (%d bytes)", len(mets[1]), len(mets[0]))
	}
	if left, _ := filepath.Glob(filepath.Join(tmp, "blogharvest-mets-*")); len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
