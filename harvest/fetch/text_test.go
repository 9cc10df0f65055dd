package fetch_test

import (
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
		{"xml default", "text/xml", "<a>h\xc3\xa9\xff</a>", "<a>hé\uFFFD</a>", "utf-8"},
		{"sniffed utf-8", "", "<p>h\xc3\xa9</p>", "<p>hé</p>", "utf-8"},
	} {
		got, cs, err := fetch.DecodeText([]byte(tc.body), tc.ct)
		if err != nil || string(got) != tc.want || cs != tc.charset {
			t.Errorf("%s: %q %q %v, want %q %q", tc.name, got, cs, err, tc.want, tc.charset)
		}
	}
}
