package marc

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/blogharvest/blogharvest"
)

// Namespace is the MARCXML (MARC 21 slim) namespace.
const Namespace = "http://www.loc.gov/MARC21/slim"

// MarshalMARCXML encodes r as one MARCXML <record> element in the MARC 21
// slim namespace, without an XML declaration, indented by two spaces and
// ending in a newline. The output depends only on r. Text is escaped, and
// characters that XML 1.0 cannot carry (C0 controls other than tab, newline
// and carriage return, U+FFFE, U+FFFF and bytes that are not UTF-8) are
// removed; carriage returns are written as &#xD; so they survive parsing.
// It returns an error for a nil record or for an indicator or subfield
// code that is not a printable ASCII character.
func (r *Record) MarshalMARCXML() ([]byte, error) {
	if r == nil {
		return nil, errors.New("marshal marcxml: nil record")
	}
	var b bytes.Buffer
	b.WriteString(`<record xmlns="` + Namespace + `">` + "\n  <leader>")
	escape(&b, r.Leader, false)
	b.WriteString("</leader>\n")
	for _, f := range r.Control {
		b.WriteString(`  <controlfield tag="`)
		escape(&b, f.Tag, true)
		b.WriteString(`">`)
		escape(&b, f.Value, false)
		b.WriteString("</controlfield>\n")
	}
	for _, f := range r.Data {
		if err := writeDataField(&b, f); err != nil {
			return nil, fmt.Errorf("marshal marcxml: %w", err)
		}
	}
	b.WriteString("</record>\n")
	return b.Bytes(), nil
}

// writeDataField writes one <datafield> with its subfields.
func writeDataField(b *bytes.Buffer, f DataField) error {
	if err := checkDataField(f); err != nil {
		return err
	}
	b.WriteString(`  <datafield tag="`)
	escape(b, f.Tag, true)
	b.WriteString(`" ind1="`)
	escape(b, string(f.Ind1), true)
	b.WriteString(`" ind2="`)
	escape(b, string(f.Ind2), true)
	b.WriteString("\">\n")
	for _, s := range f.Subfields {
		b.WriteString(`    <subfield code="`)
		escape(b, string(s.Code), true)
		b.WriteString(`">`)
		escape(b, s.Value, false)
		b.WriteString("</subfield>\n")
	}
	b.WriteString("  </datafield>\n")
	return nil
}

// CheckXML returns the error MarshalMARCXML would return for r, without
// encoding it: a nil record, or an indicator or subfield code that is not
// a printable ASCII character.
func (r *Record) CheckXML() error {
	if r == nil {
		return errors.New("marshal marcxml: nil record")
	}
	for _, f := range r.Data {
		if err := checkDataField(f); err != nil {
			return fmt.Errorf("marshal marcxml: %w", err)
		}
	}
	return nil
}

// checkDataField checks that f's indicators and subfield codes are
// printable ASCII characters.
func checkDataField(f DataField) error {
	if !printable(f.Ind1) || !printable(f.Ind2) {
		return fmt.Errorf("field %q: indicators %q and %q must be printable ASCII", f.Tag, f.Ind1, f.Ind2)
	}
	for _, s := range f.Subfields {
		if !printable(s.Code) {
			return fmt.Errorf("field %q: subfield code %q must be printable ASCII", f.Tag, s.Code)
		}
	}
	return nil
}

func printable(c byte) bool { return c >= 0x20 && c < 0x7f }

// escape writes s to b escaped for XML character data, or for a
// double-quoted attribute value when attr is set, leaving out the
// characters XML 1.0 cannot carry (see XMLSafe).
func escape(b *bytes.Buffer, s string, attr bool) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		switch {
		case !legalXMLChar(r, n):
		case r == '&':
			b.WriteString("&amp;")
		case r == '<':
			b.WriteString("&lt;")
		case r == '>':
			b.WriteString("&gt;")
		case r == '"' && attr:
			b.WriteString("&quot;")
		case r == '\r':
			b.WriteString("&#xD;")
		case r == '\n' && attr:
			b.WriteString("&#xA;")
		case r == '\t' && attr:
			b.WriteString("&#x9;")
		default:
			b.WriteString(s[i-n : i])
		}
	}
}

// XMLSafe returns s without the characters XML 1.0 cannot carry: bytes that
// are not UTF-8, C0 control characters other than tab, newline and carriage
// return, and U+FFFE and U+FFFF. MarshalMARCXML applies it to every value.
func XMLSafe(s string) string {
	if isXMLSafe(s) {
		return s
	}
	var b bytes.Buffer
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if legalXMLChar(r, n) {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

func isXMLSafe(s string) bool {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !legalXMLChar(r, n) {
			return false
		}
		i += n
	}
	return true
}

// legalXMLChar reports whether r, decoded from n bytes, is a Char of XML 1.0.
func legalXMLChar(r rune, n int) bool {
	return (r != utf8.RuneError || n > 1) && blogharvest.IsXMLChar(r)
}

// xmlRecord is the shape ParseMARCXML decodes.
type xmlRecord struct {
	XMLName xml.Name `xml:"http://www.loc.gov/MARC21/slim record"`
	Leader  string   `xml:"leader"`
	Control []struct {
		Tag   string `xml:"tag,attr"`
		Value string `xml:",chardata"`
	} `xml:"controlfield"`
	Data []struct {
		Tag       string `xml:"tag,attr"`
		Ind1      string `xml:"ind1,attr"`
		Ind2      string `xml:"ind2,attr"`
		Subfields []struct {
			Code  string `xml:"code,attr"`
			Value string `xml:",chardata"`
		} `xml:"subfield"`
	} `xml:"datafield"`
}

// ParseMARCXML decodes one MARCXML <record> in the MARC 21 slim namespace,
// the inverse of MarshalMARCXML. It returns an error for malformed XML,
// another root element, or an indicator or subfield code that is not one
// character.
func ParseMARCXML(data []byte) (*Record, error) {
	var x xmlRecord
	if err := xml.Unmarshal(data, &x); err != nil {
		return nil, fmt.Errorf("parse marcxml: %w", err)
	}
	return x.record()
}

// ParseCollection decodes a MARCXML <collection> of records in the MARC 21
// slim namespace (what yaz-marcdump -o marcxml writes), or a single
// <record>, returning the records in document order. Errors are as for
// ParseMARCXML.
func ParseCollection(data []byte) ([]*Record, error) {
	var c struct {
		XMLName xml.Name    `xml:"http://www.loc.gov/MARC21/slim collection"`
		Records []xmlRecord `xml:"http://www.loc.gov/MARC21/slim record"`
	}
	if err := xml.Unmarshal(data, &c); err != nil {
		r, rerr := ParseMARCXML(data)
		if rerr != nil {
			return nil, fmt.Errorf("parse marcxml collection: %w", err)
		}
		return []*Record{r}, nil
	}
	out := make([]*Record, 0, len(c.Records))
	for i := range c.Records {
		r, err := c.Records[i].record()
		if err != nil {
			return nil, fmt.Errorf("record %d: %w", i+1, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// record converts a decoded record to a Record.
func (x *xmlRecord) record() (*Record, error) {
	r := &Record{Leader: x.Leader}
	for _, c := range x.Control {
		r.Control = append(r.Control, ControlField{Tag: c.Tag, Value: c.Value})
	}
	for _, d := range x.Data {
		if len(d.Ind1) != 1 || len(d.Ind2) != 1 {
			return nil, fmt.Errorf("parse marcxml: field %q: indicators %q and %q must be one character", d.Tag, d.Ind1, d.Ind2)
		}
		f := DataField{Tag: d.Tag, Ind1: d.Ind1[0], Ind2: d.Ind2[0]}
		for _, s := range d.Subfields {
			if len(s.Code) != 1 {
				return nil, fmt.Errorf("parse marcxml: field %q: subfield code %q must be one character", d.Tag, s.Code)
			}
			f.Subfields = append(f.Subfields, Subfield{Code: s.Code[0], Value: s.Value})
		}
		r.Data = append(r.Data, f)
	}
	return r, nil
}
