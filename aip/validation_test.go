package aip_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/schemas"
)

// TestSampledValidation breaks every METS document the Writer builds (an
// element the METS schema does not allow in metsHdr) and writes six
// entries with ValidateEvery 3: the first and the fourth are validated and
// refused, permanently, with nothing published; the others are not
// validated when written, and Check finds them invalid. With ValidateEvery
// 1 every write is refused.
func TestSampledValidation(t *testing.T) {
	aip.SetMETSHook(func(doc []byte) []byte {
		return bytes.Replace(doc, []byte("<mets:agent "), []byte("<mets:bogus/><mets:agent "), 1)
	})
	defer aip.SetMETSHook(nil)
	for _, every := range []int{3, 1} {
		t.Run(fmt.Sprint("every ", every), func(t *testing.T) {
			forEachBackend(t, func(t *testing.T, a *testArchive) { sampledValidation(t, a, every) })
		})
	}
}

// sampledValidation writes the six entries with ValidateEvery every.
func sampledValidation(t *testing.T, a *testArchive, every int) {
	a.W.ValidateEvery = every
	for i := range 6 {
		e := fixtureEntry()
		e.URL = fmt.Sprintf("%ssampled-%d/", e.URL, i)
		r, err := a.W.WriteEntry(context.Background(), e)
		if i%every == 0 { // validated
			if err == nil || blogharvest.IsTransient(err) || r.Written {
				t.Errorf("every %d, write %d: %+v, %v; want a permanent error and nothing written", every, i, r, err)
			}
			continue
		}
		if err != nil || !r.Written {
			t.Fatalf("every %d, write %d: %+v, %v", every, i, r, err)
		}
		var se *aip.SchemaError
		if errs := a.checkBag(r.Dir); !errors.As(errors.Join(errs...), &se) {
			t.Errorf("every %d, write %d: Check found %v, want a schema error", every, i, errs)
		}
	}
}

// TestInputChecksCatchWhatSchemasWould is the proof validation.go's
// argument rests on: with no schema validation when writing
// (ValidateEvery 0, the default), each fault that input can bring into a
// METS document is refused by the checks every package gets — the write
// fails permanently and nothing is published — and the schemas refuse the
// same fault put into a document the Writer built.
func TestInputChecksCatchWhatSchemasWould(t *testing.T) {
	var valid []byte
	aip.SetMETSHook(func(doc []byte) []byte {
		valid = bytes.Clone(doc)
		return doc
	})
	w := newWriter(t)
	w.ValidateEvery = 0
	if _, err := w.WriteEntry(context.Background(), fixtureEntry()); err != nil {
		aip.SetMETSHook(nil)
		t.Fatal(err)
	}
	aip.SetMETSHook(nil)
	if p := schemas.Validate(valid); len(p) > 0 {
		t.Fatalf("the fixture's METS is invalid: %v", p)
	}
	ids := regexp.MustCompile(` ID="(dmd-comment-[0-9a-f]+)"`).FindAllSubmatch(valid, -1)
	if len(ids) < 2 {
		t.Fatalf("the fixture's METS has %d comment dmdSecs, want 2 or more", len(ids))
	}
	cases := []struct {
		name  string
		input func(e *blogharvest.Entry)
		doc   func(doc []byte) []byte
	}{
		{"control character in the title",
			func(e *blogharvest.Entry) { e.Title += "\x01" },
			func(doc []byte) []byte {
				return bytes.ReplaceAll(doc, []byte("Notes on the green kettle"), []byte("Notes on the green kettle\x01"))
			}},
		{"invalid UTF-8 in a comment",
			func(e *blogharvest.Entry) { e.Comments[0].Content = "Lovely \xff kettle." },
			func(doc []byte) []byte {
				return bytes.ReplaceAll(doc, []byte("Lovely kettle."), []byte("Lovely \xff kettle."))
			}},
		{"two comments with one id (one dmdSec ID twice)",
			func(e *blogharvest.Entry) { e.Comments[2].ID = e.Comments[0].ID },
			func(doc []byte) []byte {
				return bytes.Replace(doc, ids[1][0], ids[0][0], 1)
			}},
		{"a parent that is not among the comments (a reference to no ID)",
			func(e *blogharvest.Entry) { e.Comments[1].ParentID = "comment-9" },
			func(doc []byte) []byte {
				return bytes.Replace(doc, []byte(`DMDID="`+string(ids[1][1])+`"`), []byte(`DMDID="dmd-comment-000000000000"`), 1)
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := c.doc(valid)
			if bytes.Equal(doc, valid) {
				t.Fatal("the fault was not put into the document")
			}
			if p := schemas.Validate(doc); len(p) == 0 {
				t.Errorf("the schemas accept the document with the fault")
			}
			w := newWriter(t)
			w.ValidateEvery = 0
			e := fixtureEntry()
			c.input(e)
			r, err := w.WriteEntry(context.Background(), e)
			if err == nil || blogharvest.IsTransient(err) || r.Written {
				t.Fatalf("write: %+v, %v; want a permanent error and nothing written", r, err)
			}
			if _, err := os.Stat(filepath.Join(w.Root, e.BlogID)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the blog's folder after the refused write: %v, want none", err)
			}
			t.Logf("refused: %v", err)
		})
	}
}
