package feed

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/blogharvest/blogharvest"
)

// refPattern is the numeric character reference as xmlLegal reads them.
var refPattern = regexp.MustCompile(`&#(?:[xX]([0-9a-fA-F]{1,8})|([0-9]{1,10}));`)

// xmlLegalByRegexp is xmlLegal written with a regular expression, as the
// reference of TestXMLLegalMatchesRegexp.
func xmlLegalByRegexp(text []byte) ([]byte, int) {
	removed := 0
	if s, changed := blogharvest.XMLText(string(text)); changed {
		removed = utf8.RuneCount(text) - utf8.RuneCountInString(s)
		text = []byte(s)
	}
	return refPattern.ReplaceAllFunc(text, func(ref []byte) []byte {
		m := refPattern.FindSubmatch(ref)
		base, digits := 16, m[1]
		if digits == nil {
			base, digits = 10, m[2]
		}
		n, err := strconv.ParseInt(string(digits), base, 32)
		if err != nil || !blogharvest.IsXMLChar(rune(n)) {
			removed++
			return nil
		}
		return ref
	}), removed
}

func TestXMLLegalMatchesRegexp(t *testing.T) {
	for _, s := range []string{
		"", "plain", "&#65;&#x41;&#X41;&#1;&#x1;&#0;&#x0C;", "&#&#1;", "&#;&#x;&#xg;&#65", "&#12345678901;&#1234567890;",
		"&#2147483647;&#2147483648;&#xFFFFFFFF;&#x7FFFFFFF;&#x110000;&#x10FFFF;&#xD800;&#xFFFE;&#123456789012;",
		"&#x123456789;&#x12345678;&#9;&#10;&#13;&#31;&#32;", "a\x01b\xffc&#1;", "&&##1;;&#x&#1;", "日本&#x65e5;語\x00",
		"&#0000000065;&#00000000065;&#x00000041;&#x000000041;",
	} {
		got, gn := xmlLegal([]byte(s))
		want, wn := xmlLegalByRegexp([]byte(s))
		if !bytes.Equal(got, want) || gn != wn {
			t.Errorf("xmlLegal(%q) = %q, %d; want %q, %d", s, got, gn, want, wn)
		}
	}
}

func FuzzXMLLegal(f *testing.F) {
	f.Add([]byte("&#65;&#x1;&#&#1;\x01"))
	f.Fuzz(func(t *testing.T, b []byte) {
		got, gn := xmlLegal(bytes.Clone(b))
		want, wn := xmlLegalByRegexp(bytes.Clone(b))
		if !bytes.Equal(got, want) || gn != wn {
			t.Errorf("xmlLegal(%q) = %q, %d; want %q, %d", b, got, gn, want, wn)
		}
	})
}

func TestDeclareUTF8(t *testing.T) {
	for _, s := range []string{"", "<rss/>", `<?xml version="1.0" encoding="utf-8"?><rss/>`, `<?xml version="1.0" encoding="UTF-8"?>`, `<?xml version="1.0" encoding="Utf-8"?><feed/>`,
		` <?xml version='1.0' encoding='ISO-8859-1' ?><a/>`, `<?xml version="1.0"?><a encoding="x"/>`, `<?xml encoding="">`} {
		want := xmlDeclEncoding.ReplaceAll([]byte(s), []byte("${1}UTF-8${3}"))
		if m := xmlDeclEncoding.FindSubmatch([]byte(s)); m != nil && strings.EqualFold(string(m[2]), "utf-8") {
			want = []byte(s) // UTF-8 to encoding/xml already, in any case
		}
		if got := declareUTF8([]byte(s)); !bytes.Equal(got, want) {
			t.Errorf("declareUTF8(%q) = %q, want %q", s, got, want)
		}
	}
}
