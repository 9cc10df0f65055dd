package mets

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// tricky are texts that test escaping, invalid characters and the
// indentation's whitespace rules.
var tricky = []string{
	"", " ", "  \n\t ", "plain", `A <b> & "c" 'd' > e`, "tab\there\nnew\r\nline",
	"ctrl\x01\x08\x1f", "bad utf-8 \xff\xfe end", "\uFFFD literal", "\uFFFE\uFFFF", "ünïcødé – €",
	"\U0001F600 astral", "]]> ?> -- <!--", "\ud7ff\ue000",
}

// equivDoc returns a document with every part of the model, its texts
// taken from pick.
func equivDoc(pick func() string, dmd []DmdSec) *Document {
	when := time.Date(2024, 3, 1, 12, 30, 0, 0, time.FixedZone("CET", 3600))
	return &Document{
		ObjID: "urn:uuid:6ba7b810-9dad-51d1-80b4-00c04fd430c8", Type: "Entry", Label: pick(), Profile: pick(), Created: when,
		Agents: []Agent{
			{Role: "CREATOR", Type: "OTHER", OtherType: "SOFTWARE", Name: pick()},
			{Role: "CUSTODIAN", Type: "ORGANIZATION", Name: pick(), Notes: []string{pick(), pick()}},
		},
		AltRecordIDs: []AltRecordID{{Type: "VERSION-INDEPENDENT", Value: pick()}},
		DmdSecs:      dmd,
		AmdSecs: []AmdSec{
			{ID: "amd-page", Objects: []Object{{ID: "obj-page", Identifier: Identifier{Type: "UUID", Value: pick()},
				SHA256: "e3b0", Size: 12, FormatName: pick(), FormatVersion: pick(), PUID: pick(), FormatNote: pick(),
				OriginalName: pick(), Properties: []Property{{Type: pick(), Value: pick()}}}},
				Events: []Event{{ID: "ev-capture", Type: EventCapture, Date: when, Outcome: pick(), OutcomeDetail: pick(), Detail: pick(),
					Objects: []string{"obj-page"}, Agents: []AgentLink{{ID: "ag-software", Role: pick()}}}}},
			{ID: "amd-package",
				Objects: []Object{{ID: "obj-entity", Entity: true, Identifier: Identifier{Type: "URI", Value: pick()},
					Relationships: []Relationship{{Type: RelStructural, SubType: RelIsPartOf, Related: Identifier{Type: "URI", Value: pick()}}}}},
				Rights: []Rights{
					{ID: "rights-1", Basis: "copyright", CopyrightStatus: pick(), Jurisdiction: pick(), Terms: pick(), Note: pick(), Objects: []string{"obj-entity"}},
					{ID: "rights-2", Basis: "license", LicenseURI: pick(), Terms: pick(), Note: pick()},
					{ID: "rights-3", Basis: "statute", Terms: pick(), Note: pick()},
				},
				Events: []Event{{ID: "ev-other", Type: pick(), Date: when}},
				Agents: []PremisAgent{{ID: "ag-software", Name: pick(), Type: pick(), Version: pick(), Note: pick()}}},
		},
		FileGroups: []FileGroup{{Use: "original", Files: []File{
			{ID: "file-page", MimeType: pick(), Size: 12, Created: when, Checksum: pick(), AdmIDs: []string{"amd-page"}, Href: "objects/page/index.html"},
			{ID: "file-log", MimeType: "text/plain", Size: 1, LocType: "OTHER", AdmIDs: []string{"amd-page"}, Href: "logs/a%20b/capture.log"},
		}}},
		StructMap: Div{ID: "div-entry", Type: "Entry", Label: pick(), DmdIDs: dmdIDs(dmd), AdmIDs: []string{"amd-package"},
			Fptrs: []string{"file-page"}, Children: []Div{{ID: "div-c", Type: "comment", Label: pick(), Fptrs: []string{"file-log"}}}},
	}
}

func dmdIDs(dmd []DmdSec) []string {
	var ids []string
	for _, d := range dmd {
		ids = append(ids, d.ID)
	}
	return ids
}

// randElement returns a random element tree of the given depth, mixed
// content and whitespace-only text among it.
func randElement(r *rand.Rand, depth int) *Element {
	e := &Element{Name: []string{"record", "marc:datafield", "subfield", "a:b:c"}[r.IntN(4)]}
	for range r.IntN(3) {
		e.Attrs = append(e.Attrs, Attr{Name: []string{"tag", "code", "xmlns", "xmlns:x", "tag"}[r.IntN(5)], Value: tricky[r.IntN(len(tricky))]})
	}
	if r.IntN(2) == 0 {
		e.Text = tricky[r.IntN(len(tricky))]
	}
	if depth > 0 {
		for range r.IntN(4) {
			e.Children = append(e.Children, randElement(r, depth-1))
		}
	}
	return e
}

// parsedXML are dmdSec XML texts that exercise the parsed path:
// indentation to strip, a lone whitespace leaf, mixed content, CDATA,
// comments, processing instructions, namespaces, entities, and names
// encoding/xml gives no prefix though they hold a colon (":a", ":", "t:"),
// which etree writes as they are and keeps apart from "a".
var parsedXML = []string{
	`<record xmlns="http://www.loc.gov/MARC21/slim">
  <leader>00000naa a22000007n 4500</leader>
  <controlfield tag="001">entry-1</controlfield>
  <datafield tag="245" ind1="0" ind2="0"><subfield code="a">A &lt;b&gt; &amp; "c" – ünïcødé</subfield></datafield>
  <datafield tag="520" ind1=" " ind2=" "><subfield code="a"> leading and trailing space </subfield></datafield>
</record>`,
	`<r><a>   </a><b>
</b><c> x <d/> y </c><!-- a comment --><?pi some ?data?><e><![CDATA[raw <x> ]]]]><![CDATA[> ]]></e>  <f/>  </r>`,
	`<x:r xmlns:x="urn:x" x:a="1" b='2 &apos; &quot;'><x:s>t&#x9;&#xA;u</x:s>text<y/>tail</x:r>`,
	`<only>   </only>`,
	`<e><![CDATA[ ]]></e>`,
	`<r :a="1" a="2" :="3" x:="4" x:a="5"><:s :a="6"/><:/><t: a:="7"/></r>`,
}

// TestMarshalIsEtrees holds Marshal's output to the bytes the etree
// writer it replaced gives (etreeref_internal_test.go) for every text of
// tricky in every place, random element trees with mixed content, and
// parsed XML with every kind of token.
func TestMarshalIsEtrees(t *testing.T) {
	compare := func(name string, d *Document) {
		t.Helper()
		got, err := d.Marshal()
		want, werr := d.marshalEtree()
		if (err != nil) != (werr != nil) {
			t.Fatalf("%s: errors differ: %v, etree %v", name, err, werr)
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got, want) {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			lo := max(0, i-120)
			t.Fatalf("%s: differs from etree's at byte %d:\n got  %q\n want %q", name, i, got[lo:min(len(got), i+80)], want[lo:min(len(want), i+80)])
		}
	}
	for i, s := range tricky {
		d := equivDoc(func() string { return s }, []DmdSec{{ID: "dmd-1", MDType: "MARC", Element: &Element{Name: "record", Text: s,
			Attrs: []Attr{{Name: "xmlns", Value: NSMARC}}, Children: []*Element{{Name: "leader", Text: s}, {Name: "empty"}}}}})
		compare("tricky "+strings.Repeat("#", i), d)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		pick := func() string { return tricky[r.IntN(len(tricky))] }
		var dmd []DmdSec
		for j := range 1 + r.IntN(3) {
			dmd = append(dmd, DmdSec{ID: "dmd-" + strings.Repeat("x", j+1), MDType: "OTHER", OtherMDType: pick(), Label: pick(), Element: randElement(r, 3)})
		}
		compare("random "+strings.Repeat("#", i%10), equivDoc(pick, dmd))
	}
	for i, x := range parsedXML {
		d := equivDoc(func() string { return "v" }, []DmdSec{{ID: "dmd-1", MDType: "MARC", XML: []byte(x)}})
		compare("parsed "+strings.Repeat("#", i), d)
	}
	// Names given with colons, split at the first as etree's CreateElement
	// and CreateAttr split them: ":a:b" is the local name "a:b" and no
	// prefix, apart from "a:b"; ":x" is "x"; ":" is "".
	names := &Element{Name: ":a:b", Attrs: []Attr{{":a:b", "1"}, {"a:b", "2"}, {":a:b", "3"}, {":x", "4"}, {"x", "5"}, {":", "6"}, {"", "7"}},
		Children: []*Element{{Name: ":"}, {Name: "a:"}, {Name: ":x", Text: " "}}}
	compare("names", equivDoc(func() string { return "v" }, []DmdSec{{ID: "dmd-1", MDType: "MARC", Element: names}}))
}

// BenchmarkMarshal writes a document of an entry with 40 comments.
func BenchmarkMarshal(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	var dmd []DmdSec
	for i := range 40 {
		dmd = append(dmd, DmdSec{ID: "dmd-" + strings.Repeat("c", i+1), MDType: "MARC", Element: randElement(r, 3)})
	}
	d := equivDoc(func() string { return "a text of some length & more" }, dmd)
	for _, name := range []string{"tree", "etree"} {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var err error
				if name == "tree" {
					_, err = d.Marshal()
				} else {
					_, err = d.marshalEtree()
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
