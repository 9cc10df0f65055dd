package report

import (
	"reflect"
	"strings"
	"testing"
)

const slimRecord = `<record xmlns="http://www.loc.gov/MARC21/slim"><leader>00000naa a22000007n 4500</leader>` +
	`<controlfield tag="001">b/e</controlfield><datafield tag="100" ind1=" " ind2=" "><subfield code="a">Ann</subfield></datafield>` +
	`<datafield tag="520" ind1=" " ind2=" "><subfield code="3">full_content</subfield><subfield code="a">&lt;p&gt;One </subfield></datafield>` +
	`<datafield tag="520" ind1=" " ind2=" "><subfield code="3">full_content</subfield><subfield code="a">two&lt;/p&gt;</subfield><subfield code="b">text/html</subfield></datafield>` +
	`<datafield tag="520" ind1=" " ind2=" "><subfield code="3">uri</subfield><subfield code="u">http://x/p</subfield></datafield>` +
	`<datafield tag="980" ind1=" " ind2=" "><subfield code="a">BLOGPOST</subfield><subfield code="b">post</subfield></datafield></record>`

// TestMARCRecordsLayouts reads the records of a METS document whether the
// record declares the MARC namespace itself or inherits it from the root
// under a prefix, and joins a full_content split over repeated 520s.
func TestMARCRecordsLayouts(t *testing.T) {
	own := `<mets xmlns="http://www.loc.gov/METS/"><dmdSec><mdWrap><xmlData>` + slimRecord + `</xmlData></mdWrap></dmdSec></mets>`
	prefixed := `<mets:mets xmlns:mets="http://www.loc.gov/METS/" xmlns:marc="http://www.loc.gov/MARC21/slim"><mets:dmdSec><mets:mdWrap><mets:xmlData>` +
		strings.NewReplacer(`<record xmlns="http://www.loc.gov/MARC21/slim">`, `<marc:record>`, "</record>", "</marc:record>",
			"<leader", "<marc:leader", "</leader", "</marc:leader", "<controlfield", "<marc:controlfield", "</controlfield", "</marc:controlfield",
			"<datafield", "<marc:datafield", "</datafield", "</marc:datafield", "<subfield", "<marc:subfield", "</subfield", "</marc:subfield").Replace(slimRecord) +
		`</mets:xmlData></mets:mdWrap></mets:dmdSec></mets:mets>`
	a, err := MARCRecords([]byte(own))
	if err != nil || len(a) != 1 {
		t.Fatalf("own namespace: %v %v", a, err)
	}
	b, err := MARCRecords([]byte(prefixed))
	if err != nil || !reflect.DeepEqual(a, b) {
		t.Fatalf("prefixed: %v %v, want %v", b, err, a)
	}
	if _, err := MARCRecords([]byte(own[:len(own)-40])); err == nil {
		t.Error("a record cut short: no error")
	}
}

// TestPlainText turns article HTML into paragraphs of plain text.
func TestPlainText(t *testing.T) {
	for in, want := range map[string]string{
		"<p>One  <em>two</em>\nthree</p><ul><li>a</li><li>b</li></ul>":  "One two three\n\na\n\nb",
		"<p>x<br>y</p><script>var z</script><noscript><img></noscript>": "x\ny",
		"<h3>T</h3>&amp; more": "T\n\n& more",
	} {
		if got := PlainText(in, "text/html"); got != want {
			t.Errorf("PlainText(%q) = %q, want %q", in, got, want)
		}
	}
	if got := PlainText("  a\n\n\n b ", "text/plain"); got != "a\n\nb" {
		t.Errorf("plain: %q", got)
	}
}
