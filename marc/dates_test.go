package marc_test

import (
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/marc"
)

// fieldValue returns subfield code of the first field tag, or "".
func fieldValue(r *marc.Record, tag string, code byte) string {
	for _, f := range r.Data {
		if f.Tag == tag {
			if v := f.Value(code); v != "" {
				return v
			}
		}
	}
	return ""
}

// TestCrosswalkDatePrecision checks that dates keep the precision their
// source gave (issue 16): a day-only creation date is 269 $c 2023-10-07,
// not a midnight in a made-up zone; the modified date goes to 260 $m.
func TestCrosswalkDatePrecision(t *testing.T) {
	day := time.Date(2023, 10, 7, 0, 0, 0, 0, time.UTC)
	edit := time.Date(2024, 10, 29, 23, 42, 0, 0, time.UTC)
	e := &blogharvest.Entry{Kind: blogharvest.KindPost, Title: "t", Created: day, Modified: edit,
		CreatedPrecision: blogharvest.PrecisionDay, ModifiedPrecision: blogharvest.PrecisionMinute}
	r := marc.FromEntry(e, marc.Options{})
	if got := fieldValue(r, "269", 'c'); got != "2023-10-07" {
		t.Errorf("269 $c = %q, want 2023-10-07", got)
	}
	if got := fieldValue(r, "260", 'm'); got != "2024-10-29T23:42Z" {
		t.Errorf("260 $m = %q, want 2024-10-29T23:42Z", got)
	}
	roundTrip(t, r)
	c := &blogharvest.Comment{Author: "Ann", Content: "x", Added: edit, AddedPrecision: blogharvest.PrecisionLocalMinute}
	if got := fieldValue(marc.FromComment(c, e, marc.Options{}), "269", 'c'); got != "2024-10-29T23:42" {
		t.Errorf("comment 269 $c = %q, want 2024-10-29T23:42", got)
	}
	e.CreatedPrecision = ""
	if got := fieldValue(marc.FromEntry(e, marc.Options{}), "269", 'c'); got != "2023-10-07T00:00:00Z" {
		t.Errorf("full precision 269 $c = %q", got)
	}
}
