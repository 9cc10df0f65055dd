package feed

import (
	"bytes"
	"io"
	"regexp"
	"strconv"
	"unicode/utf8"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// xmlDeclEncoding finds the encoding pseudo-attribute of an XML declaration.
var xmlDeclEncoding = regexp.MustCompile(`^(\s*<\?xml[^>]*?encoding\s*=\s*["'])([^"']*)(["'])`)

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
	text = xmlDeclEncoding.ReplaceAll(text, []byte("${1}UTF-8${3}"))
	out, removed = xmlLegal(text)
	return out, cs, removed
}

// charRef matches a numeric character reference.
var charRef = regexp.MustCompile(`&#(?:[xX]([0-9a-fA-F]{1,8})|([0-9]{1,10}));`)

// xmlLegal returns the UTF-8 text without the characters XML 1.0 does not
// allow, raw or as numeric character references, and how many it removed.
func xmlLegal(text []byte) ([]byte, int) {
	removed := 0
	if s, changed := blogharvest.XMLText(string(text)); changed {
		removed = utf8.RuneCount(text) - utf8.RuneCountInString(s)
		text = []byte(s)
	}
	if !bytes.Contains(text, []byte("&#")) {
		return text, removed
	}
	return charRef.ReplaceAllFunc(text, func(ref []byte) []byte {
		m := charRef.FindSubmatch(ref)
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

// passThrough is a CharsetReader for documents already in UTF-8 (or only
// sniffed), whatever they declare.
func passThrough(_ string, r io.Reader) (io.Reader, error) { return r, nil }
