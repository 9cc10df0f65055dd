package aip_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
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
