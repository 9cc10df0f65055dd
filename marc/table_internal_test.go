package marc

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
)

// notAttributes are the places (tag and code) of the subfields the tables
// write that hold no attribute: constants, the organisation's code, the
// publication date and permalink again, the record type, the
// relationship, the parent's title and 001 in a linking field. A row that
// writes any other subfield must name the attribute Attributes reads back
// from it (TestEveryRowRoundTrips).
var notAttributes = []string{
	"024 2", "040 a", "040 b", "040 c", "041 2", "264 c",
	"336 a", "336 b", "336 2", "337 a", "337 b", "337 2", "338 a", "338 b", "338 2", "347 a", "347 b", "347 2",
	"760 t", "760 4", "760 w", "773 t", "773 4", "773 w", "856 u", "980 a",
}

// TestEveryRowRoundTrips writes records whose every field is set (by
// reflection, so a field added to blogharvest's records is set too), with
// and without an author, and reads them back: each subfield a row of the
// Blog, Entry and Comment tables writes with an attribute comes back from
// Attributes under that attribute, as written; nothing else comes back;
// every such row is exercised; and every other subfield of the records is
// one of notAttributes. It fails when a row is written and not read back
// (or read from elsewhere), and when a field is written outside the tables.
func TestEveryRowRoundTrips(t *testing.T) {
	o := filled[Options](t)
	seen := map[string]bool{}
	for _, noAuthor := range []bool{false, true} {
		b, e, c := filled[blog](t), filled[entry](t), filled[comment](t)
		if noAuthor {
			e.Author, c.Author = "", ""
		}
		roundTrip(t, "blog", blogTable, b, FromBlog(b, *o), &ctx{o: *o, lang: LanguageCode(b.Language)}, seen)
		roundTrip(t, "entry", entryTable, e, FromEntry(e, *o), &ctx{o: *o, lang: LanguageCode(o.Language)}, seen)
		roundTrip(t, "comment", commentTable, c, FromComment(c, e, *o), &ctx{o: *o, lang: LanguageCode(o.Language), e: e}, seen)
		for name, ok := range seen {
			if !ok && noAuthor {
				t.Errorf("%s: no record exercised this row", name)
			}
		}
	}
}

// roundTrip checks rec, written from x by table, as TestEveryRowRoundTrips
// says; seen records which rows wrote something.
func roundTrip[T any](t *testing.T, kind string, table []field[T], x *T, rec *Record, c *ctx, seen map[string]bool) {
	t.Helper()
	want := map[string][]string{}
	for _, f := range table {
		for _, s := range f.subs {
			if s.attr == "" {
				continue
			}
			name := kind + " " + f.tag + " " + f.label + " $" + string(s.code) + " " + s.attr
			seen[name] = seen[name] || false
			if f.when != nil && !f.when(x, c) {
				continue
			}
			for _, v := range s.get(x, c) {
				if v = oneLine(v); v != "" {
					want[s.attr] = append(want[s.attr], v)
					seen[name] = true
				}
			}
		}
	}
	got := Attributes(rec)
	for attr, w := range want {
		if !reflect.DeepEqual(got[attr], w) {
			t.Errorf("%s: attribute %s written as %q, read back as %q", kind, attr, w, got[attr])
		}
	}
	for attr, g := range got {
		if _, ok := want[attr]; !ok {
			t.Errorf("%s: attribute %s read back (%q) but no row wrote it", kind, attr, g)
		}
	}
	rd := readerOf(table)
	for _, f := range rec.Data {
		for _, s := range f.Subfields {
			if s.Code == '3' || rd.attrs[readKey(f.Tag, f.Value('3'), 0, s.Code)] != "" || rd.attrs[readKey(f.Tag, f.Value('3'), f.Ind1, s.Code)] != "" {
				continue
			}
			if !slices.Contains(notAttributes, f.Tag+" "+string(s.Code)) {
				t.Errorf("%s: %s $%c %q is written but read back as no attribute", kind, f.Tag, s.Code, s.Value)
			}
		}
	}
}

// filled returns a T whose every exported field of a kind the crosswalk
// reads is set: strings to their field's name, numbers to 7, booleans to
// true, times to a fixed instant, string slices to two values, a *Geo to
// a point. Nested records (comments, files) and maps stay empty.
func filled[T any](t *testing.T) *T {
	t.Helper()
	x := new(T)
	v := reflect.ValueOf(x).Elem()
	at := time.Date(2024, 3, 4, 18, 5, 0, 0, time.FixedZone("", 3*3600))
	for i := 0; i < v.NumField(); i++ {
		f, sf := v.Field(i), v.Type().Field(i)
		if !sf.IsExported() {
			continue
		}
		switch {
		case f.Type() == reflect.TypeOf(time.Time{}):
			f.Set(reflect.ValueOf(at.Add(time.Duration(i) * time.Hour)))
		case f.Type() == reflect.TypeOf(&blogharvest.Geo{}):
			f.Set(reflect.ValueOf(&blogharvest.Geo{Latitude: 37.04, Longitude: 22.11}))
		case f.Type() == reflect.TypeOf(blogharvest.Precision("")):
			// the zero value: to the second
		case f.Kind() == reflect.String:
			f.SetString("v-" + sf.Name)
		case f.Kind() == reflect.Int:
			f.SetInt(7)
		case f.Kind() == reflect.Bool:
			f.SetBool(true)
		case f.Type() == reflect.TypeOf([]string(nil)):
			f.Set(reflect.ValueOf([]string{"v-" + sf.Name + "-1", "v-" + sf.Name + "-2"}))
		}
	}
	return x
}
