package marc

import (
	"strings"

	"github.com/blogharvest/blogharvest"
)

// The crosswalk is one table per record type (blogTable, entryTable,
// commentTable in crosswalk.go): each row a MARC data field with the
// subfields it holds and, for each subfield, the attribute of DESIGN §6 it
// carries. The writer (FromBlog, FromEntry, FromComment) and the reader
// (Attributes) both walk the same rows, so a subfield cannot be written
// without being read back, nor read from a place it is not written to.

// ctx is what a row reads besides its record: the options, the MARC
// language of the record's title (nonFiling) and, for a comment, its
// entry (never nil).
type ctx struct {
	o    Options
	lang string
	e    *blogharvest.Entry
}

// A field is one row of a crosswalk table: a data field with tag and
// indicators and its subfields, in the order written. Fields with the same
// tag are written in table order; the record sorts fields by tag.
type field[T any] struct {
	tag        string
	ind1, ind2 byte
	// ind computes the indicators from the record; nil means ind1, ind2.
	ind func(*T, *ctx) (byte, byte)
	// label, when set, opens the field as $3: the attribute's name, where
	// several attributes share the tag. Attributes tells fields apart by it.
	label string
	// when, if set, says whether the record has the field at all.
	when func(*T, *ctx) bool
	// each writes one field per value of the field's one subfield (653).
	each bool
	// byInd reads the field back by its first indicator too: fields of
	// one tag without $3 that only the indicator tells apart (653).
	byInd bool
	// split writes the $a over as many fields as ISO 2709 needs, the $b
	// in the first (full_content, see builder.content); Attributes joins
	// the parts again.
	split bool
	subs  []sub[T]
}

// A sub is one subfield of a field: its code, the attribute it carries
// ("" for a value that is no attribute: a constant, a relationship, the
// parent record's 001, a repeated permalink) and its values (one subfield
// each; empty ones are not written).
type sub[T any] struct {
	code byte
	attr string
	get  func(*T, *ctx) []string
}

// one is a sub with a single value.
func one[T any](code byte, attr string, get func(*T, *ctx) string) sub[T] {
	return sub[T]{code: code, attr: attr, get: func(x *T, c *ctx) []string { return []string{get(x, c)} }}
}

// lit is a sub holding a constant that is no attribute.
func lit[T any](code byte, v string) sub[T] {
	return sub[T]{code: code, get: func(*T, *ctx) []string { return []string{v} }}
}

// labelled is a field of its own for one attribute of a shared tag: $3
// attr, then the value in code.
func labelled[T any](tag, attr string, code byte, get func(*T, *ctx) string) field[T] {
	return field[T]{tag: tag, ind1: ' ', ind2: ' ', label: attr, subs: []sub[T]{one(code, attr, get)}}
}

// plain is a field with blank indicators holding one attribute in code.
func plain[T any](tag, attr string, code byte, get func(*T, *ctx) string) field[T] {
	return field[T]{tag: tag, ind1: ' ', ind2: ' ', subs: []sub[T]{one(code, attr, get)}}
}

// write appends the fields of table for x to b.
func write[T any](b *builder, table []field[T], x *T, c *ctx) {
	if b.data == nil {
		b.data = make([]DataField, 0, len(table)) // about a field a row: grown from nothing, it was copied five times
	}
	for _, f := range table {
		if f.when != nil && !f.when(x, c) {
			continue
		}
		i1, i2 := f.ind1, f.ind2
		if f.ind != nil {
			i1, i2 = f.ind(x, c)
		}
		sfs := b.scratch[:0] // add copies what it keeps: the scratch is reused field after field
		for _, s := range f.subs {
			for _, v := range s.get(x, c) {
				sfs = append(sfs, sf(s.code, v))
			}
		}
		b.scratch = sfs
		switch {
		case f.split:
			b.content(f.tag, f.label, value(sfs, 'a'), value(sfs, 'b'))
		case f.each:
			for _, s := range sfs {
				b.add(f.tag, i1, i2, f.label, s)
			}
		default:
			b.add(f.tag, i1, i2, f.label, sfs...)
		}
	}
}

// value returns the first subfield with code among sfs, or "".
func value(sfs []Subfield, code byte) string {
	for _, s := range sfs {
		if s.Code == code {
			return s.Value
		}
	}
	return ""
}

// reader is a table turned round: the attribute of each place a subfield
// can hold one (readKey), and the attributes whose values are joined.
type reader struct {
	attrs  map[string]string
	joined map[string]bool
}

// readKey names the place of a subfield: tag, $3 label, first indicator
// (only for fields read back by it, else 0) and code.
func readKey(tag, label string, ind byte, code byte) string {
	return tag + "\x00" + label + "\x00" + string([]byte{ind, code})
}

// readerOf turns table round.
func readerOf[T any](table []field[T]) reader {
	r := reader{attrs: map[string]string{}, joined: map[string]bool{}}
	for _, f := range table {
		var ind byte
		if f.byInd {
			ind = f.ind1
		}
		for _, s := range f.subs {
			if s.attr == "" {
				continue
			}
			r.attrs[readKey(f.tag, f.label, ind, s.code)] = s.attr
			if f.split && s.code == 'a' {
				r.joined[s.attr] = true
			}
		}
	}
	return r
}

// read returns the attributes of the data fields of rec.
func (r reader) read(rec *Record) map[string][]string {
	out := make(map[string][]string)
	for _, f := range rec.Data {
		label := f.Value('3')
		for _, s := range f.Subfields {
			attr := r.attrs[readKey(f.Tag, label, 0, s.Code)]
			if attr == "" {
				attr = r.attrs[readKey(f.Tag, label, f.Ind1, s.Code)]
			}
			if attr != "" && s.Code != '3' && !devised(attr, s.Value) {
				out[attr] = append(out[attr], s.Value)
			}
		}
	}
	for attr := range r.joined {
		if parts := out[attr]; len(parts) > 1 {
			out[attr] = []string{strings.Join(parts, "")}
		}
	}
	return out
}
