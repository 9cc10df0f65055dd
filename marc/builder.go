package marc

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
)

// builder collects the data fields of one record. Values that are empty are
// dropped, and a field left without values is not written, so an absent
// attribute never produces an empty field.
type builder struct {
	data []DataField
	// subs is the slab the fields' subfields are carved from, each
	// field's cut with its own capacity (no append reaches the next):
	// growing a slice per field by appending, and again to put the label
	// first, was a tenth of the allocations of writing a bag (aip's
	// BenchmarkWriteEntry, -memprofile).
	subs []Subfield
	// scratch holds the subfields write gathers for one field, before
	// add copies the kept ones into subs.
	scratch []Subfield
}

// subfieldSlab is the number of subfields a builder's slab holds, at
// least: an Entry's record has some forty.
const subfieldSlab = 64

// sf is shorthand for a subfield.
func sf(code byte, value string) Subfield { return Subfield{Code: code, Value: value} }

// add appends a field with tag and indicators holding the non-empty
// subfields of sfs, line breaks and tabs replaced by spaces (oneLine). A non-empty label is written first as $3, naming the
// attribute, when the tag is shared by several attributes of the record.
func (b *builder) add(tag string, ind1, ind2 byte, label string, sfs ...Subfield) {
	n := 0
	for _, s := range sfs {
		if s.Value != "" {
			n++
		}
	}
	if n == 0 {
		return
	}
	if label != "" {
		n++
	}
	if cap(b.subs)-len(b.subs) < n {
		b.subs = make([]Subfield, 0, max(subfieldSlab, n))
	}
	at := len(b.subs)
	if label != "" {
		b.subs = append(b.subs, sf('3', label))
	}
	for _, s := range sfs {
		if s.Value != "" {
			b.subs = append(b.subs, sf(s.Code, oneLine(s.Value)))
		}
	}
	kept := b.subs[at:len(b.subs):len(b.subs)]
	b.data = append(b.data, DataField{Tag: tag, Ind1: ind1, Ind2: ind2, Subfields: kept})
}

// record returns the record with leader, control fields and the collected
// data fields sorted by tag; fields with the same tag keep their order.
func (b *builder) record(leader string, o Options, f008 string) *Record {
	r := &Record{Leader: leader}
	if id := strings.TrimPrefix(o.ID, "urn:uuid:"); id != "" {
		r.Control = append(r.Control, ControlField{"001", id})
	}
	if o.OrgCode != "" {
		r.Control = append(r.Control, ControlField{"003", o.OrgCode})
	}
	if !o.Updated.IsZero() {
		r.Control = append(r.Control, ControlField{"005", Stamp(o.Updated)})
	}
	r.Control = append(r.Control, ControlField{"008", f008})
	slices.SortStableFunc(b.data, func(x, y DataField) int { return cmp.Compare(x.Tag, y.Tag) })
	r.Data = b.data
	return r
}

// Stamp formats t as the 005 field wants it: yyyymmddhhmmss.f in UTC.
func Stamp(t time.Time) string {
	return t.UTC().Format("20060102150405.0")
}

// date formats t as ISO 8601 with its own time zone, or "" when t is zero.
func date(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Format(time.RFC3339)
}

// number formats n, or "" when n is zero and the attribute was not
// harvested (its name is absent from the provenance).
func number(n int, p blogharvest.Provenance, attr string) string {
	if _, ok := p[attr]; n == 0 && !ok {
		return ""
	}
	return strconv.Itoa(n)
}

// boolean formats v as "true" or "false", or "" when v is false and the
// attribute was not harvested.
func boolean(v bool, p blogharvest.Provenance, attr string) string {
	if _, ok := p[attr]; !v && !ok {
		return ""
	}
	return strconv.FormatBool(v)
}

// status formats an HTTP status code, or "" for zero (not fetched).
func status(code int) string {
	if code == 0 {
		return ""
	}
	return strconv.Itoa(code)
}

// coord formats a coordinate in decimal degrees, shortest exact form.
func coord(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
