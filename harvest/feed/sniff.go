package feed

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
)

// Sniff reports whether body is a feed, whatever it was served as: an XML
// document whose root is <rss>, <feed> (Atom) or <rdf:RDF>, or a JSON Feed.
func Sniff(body []byte) bool {
	if isJSONFeed(body) {
		return true
	}
	switch rootElement(body) {
	case "rss", "feed", "RDF":
		return true
	}
	return false
}

// rootElement returns the local name of the first element of an XML
// document, looking no further than 64 tokens.
func rootElement(body []byte) string {
	if bytes.HasPrefix(body, []byte{0xfe, 0xff}) || bytes.HasPrefix(body, []byte{0xff, 0xfe}) {
		body, _ = toUTF8(body)
	}
	d := xml.NewDecoder(bytes.NewReader(trimBOM(body)))
	d.Strict = false
	d.CharsetReader = passThrough
	for range 64 {
		tok, err := d.RawToken()
		if err != nil {
			return ""
		}
		if se, ok := tok.(xml.StartElement); ok {
			return se.Name.Local
		}
	}
	return ""
}

// isJSONFeed reports whether body is a JSON object with a jsonfeed.org
// version.
func isJSONFeed(body []byte) bool {
	b := bytes.TrimSpace(trimBOM(body))
	if len(b) == 0 || b[0] != '{' {
		return false
	}
	var v struct {
		Version string `json:"version"`
	}
	return json.Unmarshal(b, &v) == nil && strings.Contains(v.Version, "jsonfeed.org")
}

func trimBOM(b []byte) []byte { return bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) }
