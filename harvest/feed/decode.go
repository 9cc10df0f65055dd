package feed

import (
	"bytes"
	"io"
	"regexp"
	"unicode/utf8"

	"github.com/blogharvest/blogharvest/harvest/fetch"
	"golang.org/x/net/html/charset"
	"golang.org/x/text/transform"
)

// xmlDeclEncoding finds the encoding pseudo-attribute of an XML declaration.
var xmlDeclEncoding = regexp.MustCompile(`^(\s*<\?xml[^>]*?encoding\s*=\s*["'])([^"']*)(["'])`)

// toUTF8 decodes an XML feed to UTF-8 and rewrites its declaration to say
// so. Wrong declarations are survived: a document declared as a single-byte
// charset that is valid UTF-8 is taken as UTF-8, and one declared (or
// defaulting to) UTF-8 that is not valid UTF-8 is taken as windows-1252.
func toUTF8(body []byte) (out []byte, cs string) {
	body = trimBOM(body)
	text, cs, err := fetch.DecodeText(body, "")
	switch {
	case cs != "utf-8" && !bytes.HasPrefix(body, []byte{0xfe, 0xff}) && !bytes.HasPrefix(body, []byte{0xff, 0xfe}) &&
		hasHighBit(body) && utf8.Valid(body):
		text, cs = body, "utf-8"
	case cs == "utf-8" && !utf8.Valid(body):
		text, _, err = transform.Bytes(charsetDecoder("windows-1252"), body)
		cs = "windows-1252"
	}
	if err != nil {
		text = bytes.ToValidUTF8(body, []byte("\uFFFD"))
	}
	text = trimBOM(text) // a UTF-16 BOM decodes to a UTF-8 one
	return xmlDeclEncoding.ReplaceAll(text, []byte("${1}UTF-8${3}")), cs
}

func charsetDecoder(name string) transform.Transformer {
	e, _ := charset.Lookup(name)
	return e.NewDecoder()
}

func hasHighBit(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return true
		}
	}
	return false
}

// passThrough is a CharsetReader for documents already in UTF-8 (or only
// sniffed), whatever they declare.
func passThrough(_ string, r io.Reader) (io.Reader, error) { return r, nil }
