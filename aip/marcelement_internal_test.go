package aip

import (
	"bytes"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/marc"
	"github.com/blogharvest/blogharvest/mets"
)

// TestMARCElementIsItsXML shows that a dmdSec written from marcElement's
// tree is byte for byte the dmdSec written from the record's MARCXML
// parsed back, for records whose values need escaping or lose characters
// XML cannot carry: markup, quotes, ampersands, CR, LF and tab in text and
// attributes, C0 controls, bytes that are not UTF-8, white space alone,
// empty values.
func TestMARCElementIsItsXML(t *testing.T) {
	odd := []string{"", " ", "  \n ", "a & b < c > d", `"quoted" 'single'`, "line\r\nbreak\ttab", "bell\x07 and \x00 nul",
		"bad \xff\xfe utf-8", "\ufffe\uffff", "Ren\u00e9e O'Brien", "]]> <![CDATA[x]]>", "&amp; already"}
	rec := &marc.Record{Leader: "00000nab a2200000 i 4500"}
	for i, v := range odd {
		rec.Control = append(rec.Control, marc.ControlField{Tag: "00" + string(rune('1'+i%9)), Value: v})
		rec.Data = append(rec.Data, marc.DataField{Tag: "500", Ind1: ' ', Ind2: '"', Subfields: []marc.Subfield{
			{Code: 'a', Value: v}, {Code: '&', Value: "x" + v}}})
	}
	rec.Data = append(rec.Data, marc.DataField{Tag: "245", Ind1: '1', Ind2: '0', Subfields: []marc.Subfield{{Code: 'a', Value: "Title"}}})
	xml, err := rec.MarshalMARCXML()
	if err != nil {
		t.Fatal(err)
	}
	doc := func(sec mets.DmdSec) []byte {
		d := &mets.Document{
			ObjID: "urn:uuid:6ba7b810-9dad-51d1-80b4-00c04fd430c8", Type: "Entry", Created: time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC),
			Agents:    []mets.Agent{{Role: "CREATOR", Type: "OTHER", OtherType: "SOFTWARE", Name: "blogharvest"}},
			DmdSecs:   []mets.DmdSec{sec},
			StructMap: mets.Div{Type: "Entry", DmdIDs: []string{sec.ID}},
		}
		out, err := d.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	fromXML := doc(mets.DmdSec{ID: "dmd-1", MDType: "MARC", XML: xml})
	fromTree := doc(mets.DmdSec{ID: "dmd-1", MDType: "MARC", XML: xml, Element: marcElement(rec)})
	if !bytes.Equal(fromXML, fromTree) {
		t.Errorf("from the tree:\n%s\nfrom the XML:\n%s", fromTree, fromXML)
	}
	if !bytes.Contains(fromTree, []byte("a &amp; b &lt; c &gt; d")) {
		t.Errorf("escaped text missing:\n%s", fromTree)
	}
}
