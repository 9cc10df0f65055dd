package marc

import (
	"strings"
	"unicode/utf8"
)

// MaxFieldBytes is the longest variable field ISO 2709 can carry: its
// directory gives a field's length in four digits. MaxRecordBytes is the
// longest record (five digits in leader/00-04).
const (
	MaxFieldBytes  = 9999
	MaxRecordBytes = 99999
)

// FieldLen returns the length of f in ISO 2709: two indicators, each
// subfield with its delimiter and code, and the field terminator.
func FieldLen(f DataField) int {
	n := 2 + 1
	for _, s := range f.Subfields {
		n += 2 + len(s.Value)
	}
	return n
}

// RecordLen returns the length of r in ISO 2709: leader, a 12-byte
// directory entry per field, the directory's terminator, the fields and the
// record terminator.
func RecordLen(r *Record) int {
	n := 24 + 1 + 1
	for _, f := range r.Control {
		n += 12 + len(f.Value) + 1
	}
	for _, f := range r.Data {
		n += 12 + FieldLen(f)
	}
	return n
}

// oneLine returns s with each line break (CR LF, CR or LF) and tab replaced
// by a space: MARC subfields carry no control characters.
func oneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n\t") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", " ")
	return lineBreaks.Replace(s)
}

// lineBreaks replaces each line break and tab with a space (oneLine):
// built once, where a Replacer was built for every value that held one.
var lineBreaks = strings.NewReplacer("\r", " ", "\n", " ", "\t", " ")

// preTags are the HTML elements whose line breaks are content.
var preTags = []string{"pre", "listing", "textarea"}

// htmlOneLine returns the HTML s without raw line breaks or tabs: inside
// <pre>, <listing> and <textarea> each line break (CR LF, CR or LF) becomes
// the character reference &#10; and a tab &#9;, which an HTML parser reads
// back as the same characters; elsewhere each becomes a space, which HTML
// renders alike (the article cleaner has removed script and style, where
// it would not).
func htmlOneLine(s string) string {
	if !strings.ContainsAny(s, "\r\n\t") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/16)
	depth := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '<':
			depth += preTagDelta(s[i:])
			b.WriteByte(c)
		case c == '\r' || c == '\n':
			if c == '\r' && i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
			if depth > 0 {
				b.WriteString("&#10;")
			} else {
				b.WriteByte(' ')
			}
		case c == '\t' && depth > 0:
			b.WriteString("&#9;")
		case c == '\t':
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// preTagDelta returns +1 when s starts with a start tag of a preTags
// element, -1 for its end tag, else 0.
func preTagDelta(s string) int {
	delta := 1
	rest := s[1:]
	if strings.HasPrefix(rest, "/") {
		delta, rest = -1, rest[1:]
	}
	for _, t := range preTags {
		if len(rest) > len(t) && strings.EqualFold(rest[:len(t)], t) && strings.ContainsRune(" \t\r\n/>", rune(rest[len(t)])) {
			return delta
		}
	}
	return 0
}

// chunks splits s into parts of at most max bytes whose concatenation is s.
// It cuts before a '<' that does not follow whitespace where it can, else
// between two characters that are not spaces, else at any UTF-8 boundary, so
// a part neither starts nor ends with a blank that a MARC tool might trim.
func chunks(s string, max int) []string {
	var out []string
	for len(s) > max {
		cut := cutPoint(s, max)
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return append(out, s)
}

// cutPoint returns where chunks cuts s, at most max bytes in and past the
// first half of max.
func cutPoint(s string, max int) int {
	min := max / 2
	for i := max; i > min; i-- {
		if s[i] == '<' && !isBlank(s[i-1]) {
			return i
		}
	}
	for i := max; i > min; i-- {
		if utf8.RuneStart(s[i]) && !isBlank(s[i]) && !isBlank(s[i-1]) {
			return i
		}
	}
	for i := max; i > 0; i-- {
		if utf8.RuneStart(s[i]) {
			return i
		}
	}
	return max
}

func isBlank(c byte) bool { return c == ' ' }
