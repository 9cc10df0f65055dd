package marc_test

import (
	"testing"

	"github.com/blogharvest/blogharvest/marc"
)

// BenchmarkEntryMARCXML measures the crosswalk and encoding of a full entry.
func BenchmarkEntryMARCXML(b *testing.B) {
	e := fullEntry()
	o := fullOptions("e")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := marc.FromEntry(e, o).MarshalMARCXML(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseMARCXML measures parsing a full entry's MARCXML.
func BenchmarkParseMARCXML(b *testing.B) {
	data, err := marc.FromEntry(fullEntry(), fullOptions("e")).MarshalMARCXML()
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := marc.ParseMARCXML(data); err != nil {
			b.Fatal(err)
		}
	}
}
