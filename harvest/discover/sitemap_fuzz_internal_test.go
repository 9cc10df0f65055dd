package discover

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/blogharvest/blogharvest"
)

// FuzzParseSitemap checks that parseSitemap never panics and fails only
// with permanent errors on any body, and that a <loc> of any text written
// in a sitemap (plain or gzipped) is read back exactly, trimmed.
func FuzzParseSitemap(f *testing.F) {
	f.Add([]byte(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://b.example/p/</loc><lastmod>2024-01-02</lastmod></url></urlset>`), "https://b.example/a?x=1&y=<2>")
	f.Add([]byte(`<sitemapindex><sitemap><loc> https://b.example/s1.xml </loc></sitemap><sitemap></sitemap></sitemapindex>`), " \t")
	f.Add([]byte("\x1f\x8b\x08\x00"), "")
	f.Add([]byte(`<urlset><url><loc><b>x</b>y</loc><lastmod>2024-13-45T99:00Z</lastmod></url><loc>z</loc></urlset>`), "\r\n")
	f.Fuzz(func(t *testing.T, body []byte, loc string) {
		if _, err := parseSitemap(body); err != nil && blogharvest.IsTransient(err) {
			t.Fatalf("transient error %v", err)
		}
		if !utf8.ValidString(loc) || strings.IndexFunc(loc, func(r rune) bool { return !xmlChar(r) }) >= 0 {
			return
		}
		var esc bytes.Buffer
		xml.EscapeText(&esc, []byte(loc))
		doc := []byte(`<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>` +
			esc.String() + `</loc><lastmod>2024-05-06</lastmod></url></urlset>`)
		var gz bytes.Buffer
		zw := gzip.NewWriter(&gz)
		zw.Write(doc)
		zw.Close()
		for _, b := range [][]byte{doc, gz.Bytes()} {
			sm, err := parseSitemap(b)
			if err != nil || len(sm.URLs) != 1 || sm.URLs[0].Loc != strings.TrimSpace(loc) || sm.URLs[0].LastMod.IsZero() {
				t.Fatalf("loc %q: parsed %+v, %v", loc, sm, err)
			}
		}
	})
}

// xmlChar reports whether r may appear in an XML 1.0 document.
func xmlChar(r rune) bool {
	return r == '\t' || r == '\n' || r == '\r' || r >= 0x20 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}
