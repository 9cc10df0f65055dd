package feed

import (
	"bytes"
	"io"
	"math"
	"unicode/utf8"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/internal/lazyregexp"
)

// xmlDeclEncoding finds the encoding pseudo-attribute of an XML declaration.
var xmlDeclEncoding = lazyregexp.New(`^(\s*<\?xml[^>]*?encoding\s*=\s*["'])([^"']*)(["'])`)

// toUTF8 decodes an XML feed to UTF-8, rewrites its declaration to say so
// and removes the characters XML 1.0 does not allow (a parser would stop
// at them), raw or as character references. Wrong declarations are
// survived: a document declared as a single-byte charset that is (mostly)
// UTF-8 is taken as UTF-8, and bytes that are not valid UTF-8 in a UTF-8
// document are read one by one as windows-1252, the rest kept as UTF-8.
func toUTF8(body []byte) (out []byte, cs string) {
	out, cs, _ = toLegalUTF8(body)
	return out, cs
}

// toLegalUTF8 is toUTF8 that also counts the characters it removed.
func toLegalUTF8(body []byte) (out []byte, cs string, removed int) {
	body = trimBOM(body)
	text, cs, err := fetch.DecodeText(body, "")
	if cs != "utf-8" && !bytes.HasPrefix(body, []byte{0xfe, 0xff}) && !bytes.HasPrefix(body, []byte{0xff, 0xfe}) &&
		fetch.LooksUTF8(body) {
		text, _ = blogharvest.RepairUTF8(body)
		cs, err = "utf-8", nil
	}
	if err != nil {
		text, _ = blogharvest.RepairUTF8(body)
	}
	text = trimBOM(text) // a UTF-16 BOM decodes to a UTF-8 one
	out, removed = xmlLegal(declareUTF8(text))
	return out, cs, removed
}

// declareUTF8 returns text with the encoding of its XML declaration, if
// any, set to UTF-8; text itself when there is nothing to change. A
// declaration of "utf-8" in any case is left as it is: encoding/xml, which
// gofeed and scan read with, takes it as UTF-8 (strings.EqualFold), so
// the copy of the whole feed changed nothing the parsers see.
func declareUTF8(text []byte) []byte {
	m := xmlDeclEncoding.FindSubmatchIndex(text)
	if m == nil || bytes.EqualFold(text[m[4]:m[5]], []byte("UTF-8")) {
		return text
	}
	out := make([]byte, 0, len(text)+5)
	out = append(append(out, text[:m[4]]...), "UTF-8"...)
	return append(out, text[m[5]:]...)
}

// xmlLegal returns the UTF-8 text without the characters XML 1.0 does not
// allow, raw or as numeric character references, and how many it removed;
// text itself when it has none.
func xmlLegal(text []byte) ([]byte, int) {
	removed := 0
	if !isXMLText(text) {
		s, _ := blogharvest.XMLText(string(text))
		removed = utf8.RuneCount(text) - utf8.RuneCountInString(s)
		text = []byte(s)
	}
	text, refs := dropIllegalRefs(text)
	return text, removed + refs
}

// isXMLText reports whether text is valid UTF-8 made of characters XML 1.0
// allows only.
func isXMLText(text []byte) bool {
	for i := 0; i < len(text); {
		if c := text[i]; c >= 0x20 && c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(text[i:])
		if r == utf8.RuneError && size == 1 || !blogharvest.IsXMLChar(r) {
			return false
		}
		i += size
	}
	return true
}

// dropIllegalRefs removes the numeric character references of text
// ("&#1;", "&#x1F;") to characters XML 1.0 does not allow and says how
// many; it returns text itself when there are none.
func dropIllegalRefs(text []byte) ([]byte, int) {
	var out []byte // what is kept, up to last
	removed, last := 0, 0
	for i := 0; ; {
		k := bytes.Index(text[i:], []byte("&#"))
		if k < 0 {
			break
		}
		i += k
		v, n := charRefAt(text[i:])
		if n == 0 {
			i++
			continue
		}
		if v > math.MaxInt32 || !blogharvest.IsXMLChar(rune(v)) {
			out = append(out, text[last:i]...)
			last = i + n
			removed++
		}
		i += n
	}
	if removed == 0 {
		return text, 0
	}
	return append(out, text[last:]...), removed
}

// charRefAt reads the numeric character reference at the start of b:
// "&#" then 1 to 10 decimal digits, or "x" or "X" and 1 to 8 hex digits,
// then ";". It returns the value and the reference's length, 0 when b
// does not start with one.
func charRefAt(b []byte) (v int64, n int) {
	i, base, most := 2, int64(10), 10
	if len(b) > i && (b[i] == 'x' || b[i] == 'X') {
		i, base, most = 3, 16, 8
	}
	start := i
	for ; i < len(b) && i-start < most; i++ {
		d, ok := digitValue(b[i], base)
		if !ok {
			break
		}
		v = v*base + d
	}
	if i == start || i >= len(b) || b[i] != ';' {
		return 0, 0
	}
	return v, i + 1
}

// digitValue is the value of the digit c in base 10 or 16.
func digitValue(c byte, base int64) (int64, bool) {
	switch {
	case c >= '0' && c <= '9':
		return int64(c - '0'), true
	case base == 16 && c >= 'a' && c <= 'f':
		return int64(c-'a') + 10, true
	case base == 16 && c >= 'A' && c <= 'F':
		return int64(c-'A') + 10, true
	}
	return 0, false
}

// passThrough is a CharsetReader for documents already in UTF-8 (or only
// sniffed), whatever they declare.
func passThrough(_ string, r io.Reader) (io.Reader, error) { return r, nil }
