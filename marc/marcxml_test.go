package marc_test

import (
	"bytes"
	"encoding/xml"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/blogharvest/blogharvest/marc"

	"github.com/blogharvest/blogharvest/internal/toolskip"
)

const hostile = "a\x00b\x01c\x1fd\te\nf\rg\r\nh]]>i&j<k>l\"m'n\xffo\xc3p\uFFFEq\uFFFFr\uFFFDs😀t\u2028u"

// xmlChar reports whether r is a Char of XML 1.0 (production [2]); written
// here independently of the package.
func xmlChar(r rune) bool {
	return r == 0x9 || r == 0xA || r == 0xD || r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// clean drops from s every byte sequence that is not an XML 1.0 Char.
func clean(s string) string {
	var b strings.Builder
	for i, r := range s {
		if _, n := utf8.DecodeRuneInString(s[i:]); r == utf8.RuneError && n == 1 {
			continue
		}
		if xmlChar(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func hostileRecord(leader, tag, value string, ind1, ind2, code byte) *marc.Record {
	return &marc.Record{
		Leader:  leader,
		Control: []marc.ControlField{{Tag: "001", Value: value}},
		Data: []marc.DataField{{Tag: tag, Ind1: ind1, Ind2: ind2, Subfields: []marc.Subfield{
			{Code: code, Value: value}, {Code: 'b', Value: ""},
		}}},
	}
}

func TestMarshalHostile(t *testing.T) {
	r := hostileRecord(marc.LeaderBlog, "520", hostile, ' ', '"', 'a')
	b, err := r.MarshalMARCXML()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("]]>")) || bytes.ContainsAny(b, "\x00\x01\x1f\r") || !utf8.Valid(b) {
		t.Errorf("unsafe output: %q", b)
	}
	wellFormed(t, b)
	back, err := marc.ParseMARCXML(b)
	if err != nil {
		t.Fatal(err)
	}
	want := "abcd\te\nf\rg\r\nh]]>i&j<k>l\"m'nopqr\uFFFDs😀t\u2028u"
	if got := back.Data[0].Subfields[0].Value; got != want {
		t.Errorf("value after round trip = %q, want %q", got, want)
	}
	if got := back.Control[0].Value; got != want {
		t.Errorf("control value after round trip = %q, want %q", got, want)
	}
	if back.Data[0].Ind2 != '"' {
		t.Errorf("ind2 = %q, want '\"'", back.Data[0].Ind2)
	}
	if got := marc.XMLSafe(hostile); got != want {
		t.Errorf("XMLSafe = %q, want %q", got, want)
	}
}

// TestMarshalHostileSchema checks that escaped hostile text still validates.
func TestMarshalHostileSchema(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		toolskip.Missing(t, "xmllint", err)
	}
	if _, err := os.Stat(schemaPath); err != nil {
		t.Skipf("schema not available: %v", err)
	}
	r := hostileRecord(marc.LeaderBlog, "520", hostile, ' ', ' ', 'a')
	r.Data[0].Subfields = r.Data[0].Subfields[:1]
	b, err := r.MarshalMARCXML()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "hostile.xml")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(xmllint, "--noout", "--nonet", "--schema", schemaPath, path).CombinedOutput(); err != nil {
		t.Errorf("xmllint: %v\n%s\n%s", err, out, b)
	}
}

func TestMarshalErrors(t *testing.T) {
	var nilRec *marc.Record
	if _, err := nilRec.MarshalMARCXML(); err == nil {
		t.Error("nil record: no error")
	}
	if err := nilRec.CheckXML(); err == nil {
		t.Error("nil record: CheckXML: no error")
	}
	if err := hostileRecord(marc.LeaderBlog, "520", "v", ' ', ' ', 'a').CheckXML(); err != nil {
		t.Errorf("a sound record: CheckXML: %v", err)
	}
	for _, r := range []*marc.Record{
		hostileRecord(marc.LeaderBlog, "520", "v", 0, ' ', 'a'),
		hostileRecord(marc.LeaderBlog, "520", "v", ' ', 0xff, 'a'),
		hostileRecord(marc.LeaderBlog, "520", "v", ' ', ' ', '\n'),
	} {
		b, err := r.MarshalMARCXML()
		if err == nil || !strings.HasPrefix(err.Error(), "marshal marcxml: ") {
			t.Errorf("%+v: got %q, %v; want an error", r.Data[0], b, err)
		}
		if cerr := r.CheckXML(); cerr == nil || err == nil || cerr.Error() != err.Error() {
			t.Errorf("%+v: CheckXML says %v, MarshalMARCXML %v", r.Data[0], cerr, err)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for name, doc := range map[string]string{
		"malformed":      `<record xmlns="http://www.loc.gov/MARC21/slim"><leader>`,
		"no namespace":   `<record><leader>x</leader></record>`,
		"other root":     `<collection xmlns="http://www.loc.gov/MARC21/slim"/>`,
		"long indicator": `<record xmlns="http://www.loc.gov/MARC21/slim"><datafield tag="245" ind1="10" ind2=" "/></record>`,
		"no indicator":   `<record xmlns="http://www.loc.gov/MARC21/slim"><datafield tag="245" ind2=" "/></record>`,
		"long code":      `<record xmlns="http://www.loc.gov/MARC21/slim"><datafield tag="245" ind1=" " ind2=" "><subfield code="ab">x</subfield></datafield></record>`,
		"illegal char":   "<record xmlns=\"http://www.loc.gov/MARC21/slim\"><leader>\x01</leader></record>",
		"empty":          ``,
	} {
		if r, err := marc.ParseMARCXML([]byte(doc)); err == nil {
			t.Errorf("%s: got %+v, want an error", name, r)
		} else if !strings.HasPrefix(err.Error(), "parse marcxml: ") {
			t.Errorf("%s: error %q lacks context", name, err)
		}
	}
}

// TestParsePrefixed checks that a record with a namespace prefix parses.
func TestParsePrefixed(t *testing.T) {
	doc := `<marc:record xmlns:marc="http://www.loc.gov/MARC21/slim"><marc:leader>L</marc:leader>` +
		`<marc:controlfield tag="001">id</marc:controlfield><marc:datafield tag="245" ind1="0" ind2="0">` +
		`<marc:subfield code="a">T</marc:subfield></marc:datafield></marc:record>`
	r, err := marc.ParseMARCXML([]byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	want := &marc.Record{Leader: "L", Control: []marc.ControlField{{Tag: "001", Value: "id"}},
		Data: []marc.DataField{{Tag: "245", Ind1: '0', Ind2: '0', Subfields: []marc.Subfield{{Code: 'a', Value: "T"}}}}}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("got %+v, want %+v", r, want)
	}
}

// wellFormed fails t unless b is one well-formed XML element with no
// declaration.
func wellFormed(t *testing.T, b []byte) {
	t.Helper()
	if bytes.HasPrefix(b, []byte("<?xml")) {
		t.Error("output has an XML declaration")
	}
	d := xml.NewDecoder(bytes.NewReader(b))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("not well-formed: %v\n%s", err, b)
		}
	}
}

// FuzzRoundTrip checks that any record MarshalMARCXML accepts comes back
// from ParseMARCXML unchanged but for the characters XML cannot carry.
func FuzzRoundTrip(f *testing.F) {
	f.Add(marc.LeaderBlog, "245", "plain", byte(' '), byte('0'), byte('a'))
	f.Add("", "", hostile, byte('1'), byte(' '), byte('3'))
	f.Add("]]>", "<&>", "<![CDATA[x]]>", byte('"'), byte('\''), byte('&'))
	f.Add("\r\n", "\t", "\xed\xa0\x80 surrogate", byte('a'), byte('z'), byte('0'))
	f.Fuzz(func(t *testing.T, leader, tag, value string, ind1, ind2, code byte) {
		r := hostileRecord(leader, tag, value, ind1, ind2, code)
		b, err := r.MarshalMARCXML()
		printable := func(c byte) bool { return c >= 0x20 && c <= 0x7e }
		if !printable(ind1) || !printable(ind2) || !printable(code) {
			if err == nil {
				t.Fatalf("accepted indicator %q %q or code %q", ind1, ind2, code)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		back, err := marc.ParseMARCXML(b)
		if err != nil {
			t.Fatalf("%v\n%s", err, b)
		}
		want := hostileRecord(clean(leader), clean(tag), clean(value), ind1, ind2, code)
		if !reflect.DeepEqual(back, want) {
			t.Fatalf("round trip:\n got %+v\nwant %+v\n%s", back, want, b)
		}
		again, err := back.MarshalMARCXML()
		if err != nil || !bytes.Equal(again, b) {
			t.Fatalf("second marshal differs (%v):\n%s\n%s", err, again, b)
		}
	})
}
