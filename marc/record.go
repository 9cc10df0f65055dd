package marc

import "time"

// Record is one MARC 21 bibliographic record: a 24-character leader, the
// control fields (00X) and the data fields, each list in tag order.
type Record struct {
	Leader  string
	Control []ControlField
	Data    []DataField
}

// ControlField is a control field (tags 001–009): a tag and an unstructured
// value without indicators or subfields.
type ControlField struct {
	Tag   string
	Value string
}

// DataField is a variable data field (tags 010–999): two indicators and one
// or more subfields. An indicator is a digit, a lowercase letter or a space
// (the blank that MARC documentation writes as '#').
type DataField struct {
	Tag       string
	Ind1      byte
	Ind2      byte
	Subfields []Subfield
}

// Subfield is one coded element of a data field, such as $a.
type Subfield struct {
	Code  byte
	Value string
}

// Options carries what a crosswalk needs besides the record itself. Every
// field is optional; a zero value means "absent" and no MARC field is
// written for it (Lint then reports a missing 001).
type Options struct {
	// ID is the stable identifier written to 001: a bare UUID or the
	// archive's own key for the record. Callers pass it without the
	// "urn:uuid:" prefix; a leading "urn:uuid:" is removed.
	ID string
	// Updated is the date and time of the latest transaction, written to
	// 005 in UTC as yyyymmddhhmmss.f. It is also the fallback for 008/00-05
	// when the record has no capture date.
	Updated time.Time
	// Language is a BCP 47 tag (such as "en" or "pt-BR") used for
	// 008/35-37 of an Entry or Comment, which carry no language of their
	// own; callers pass the blog's language. FromBlog uses Blog.Language
	// and ignores this field. Empty or unknown gives "und".
	Language string
	// ParentID is the 001 of the record this one belongs to: the Blog
	// record for an Entry (760 $w) and the Entry record for a Comment
	// (773 $w of is_child_of_post).
	ParentID string
	// ParentCommentID is the 001 of the record of the comment a Comment
	// answers (773 $w of is_child_of_comment). FromBlog and FromEntry
	// ignore it.
	ParentCommentID string
	// OrgCode is the cataloguing organisation's MARC code (MARC Code List
	// for Organizations, such as "DLC" or "UkOxU"): written to 003
	// (control number identifier) and to 040 $a (original cataloguing
	// agency) and $c (transcribing agency) with $b eng. Empty writes
	// neither 003 nor 040: 040 $a holds a code, never free text.
	OrgCode string
}

// ControlValue returns the value of the first control field with tag, and
// whether there is one.
func (r *Record) ControlValue(tag string) (string, bool) {
	for _, f := range r.Control {
		if f.Tag == tag {
			return f.Value, true
		}
	}
	return "", false
}

// Fields returns the data fields with tag, in record order.
func (r *Record) Fields(tag string) []DataField {
	var out []DataField
	for _, f := range r.Data {
		if f.Tag == tag {
			out = append(out, f)
		}
	}
	return out
}

// Values returns the values of every subfield code in f, in order.
func (f DataField) Values(code byte) []string {
	var out []string
	for _, s := range f.Subfields {
		if s.Code == code {
			out = append(out, s.Value)
		}
	}
	return out
}

// Value returns the value of the first subfield code in f, or "".
func (f DataField) Value(code byte) string {
	for _, s := range f.Subfields {
		if s.Code == code {
			return s.Value
		}
	}
	return ""
}
