package fetch_test

import (
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/harvest/fetch"
)

func TestDecodeText(t *testing.T) {
	for _, tc := range []struct {
		name, ct, body, want, charset string
	}{
		{"header", "text/html; charset=ISO-8859-1", "caf\xe9", "café", "windows-1252"},
		{"xml decl", "application/rss+xml", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>\xe9</a>", "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><a>é</a>", "windows-1252"},
		{"meta", "text/html", "<meta charset=\"koi8-r\"><p>\xf0\xd2\xc9\xd7\xc5\xd4</p>", "<meta charset=\"koi8-r\"><p>Привет</p>", "koi8-r"},
		{"bom", "", "\xef\xbb\xbfhé", "hé", "utf-8"},
		{"xml default", "text/xml", "<a>h\xc3\xa9\xff</a>", "<a>héÿ</a>", "utf-8"},
		// A UTF-8 document with stray Latin-1 bytes is repaired byte by
		// byte, never re-decoded as a whole.
		{"declared utf-8, stray bytes", "text/html; charset=utf-8", "caf\xc3\xa9 \xe9t\xe9 \x93\xe6\x97\xa5\x94",
			"café été “日”", "utf-8"},
		{"sniffed utf-8 late, stray byte", "text/html", strings.Repeat("a", 2000) + "Z\xc3\xbcrich caf\xc3\xa9 na\xefve",
			strings.Repeat("a", 2000) + "Zürich café naïve", "utf-8"},
		{"windows-1252 stays", "text/html", "<p>caf\xe9 na\xefve \x93q\x94</p>", "<p>café naïve “q”</p>", "windows-1252"},
		{"sniffed utf-8", "", "<p>h\xc3\xa9</p>", "<p>hé</p>", "utf-8"},
	} {
		got, cs, err := fetch.DecodeText([]byte(tc.body), tc.ct)
		if err != nil || string(got) != tc.want || cs != tc.charset {
			t.Errorf("%s: %q %q %v, want %q %q", tc.name, got, cs, err, tc.want, tc.charset)
		}
	}
}
