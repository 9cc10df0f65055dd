package discover

import (
	"bytes"
	"compress/gzip"
	"testing"
	"time"
)

const testSitemap = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc> http://b.ex/2013/08/28/first/ </loc><lastmod>2013-08-28T10:44:08+00:00</lastmod></url>
<url><loc>http://b.ex/about/</loc><lastmod>2013-01-02</lastmod></url>
<url><loc>http://b.ex/x/</loc></url>
</urlset>`

func TestParseSitemap(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(testSitemap))
	zw.Close()
	for name, body := range map[string][]byte{"plain": []byte(testSitemap), "gzip": gz.Bytes()} {
		sm, err := parseSitemap(body)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(sm.URLs) != 3 || sm.URLs[0].Loc != "http://b.ex/2013/08/28/first/" {
			t.Fatalf("%s: urls %+v", name, sm.URLs)
		}
		want := time.Date(2013, 8, 28, 10, 44, 8, 0, time.UTC)
		if !sm.URLs[0].LastMod.Equal(want) || sm.URLs[1].LastMod.IsZero() || !sm.URLs[2].LastMod.IsZero() {
			t.Errorf("%s: lastmods %v %v %v", name, sm.URLs[0].LastMod, sm.URLs[1].LastMod, sm.URLs[2].LastMod)
		}
	}
	idx := `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>http://b.ex/wp-sitemap-posts-post-1.xml</loc></sitemap><sitemap><loc>http://b.ex/wp-sitemap-posts-page-1.xml</loc></sitemap></sitemapindex>`
	sm, err := parseSitemap([]byte(idx))
	if err != nil || len(sm.Children) != 2 || !isPageSitemap(sm.Children[1]) || isPageSitemap(sm.Children[0]) || !isPostSitemap(sm.Children[0]) {
		t.Errorf("index: %+v, %v", sm, err)
	}
	if _, err := parseSitemap([]byte("<html><body>no</body></html>")); err == nil {
		t.Error("HTML accepted as a sitemap")
	}
}

func TestSitemapBomb(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(bytes.Repeat([]byte(" "), 2<<20))
	zw.Close()
	if _, err := gunzipIf(gz.Bytes(), 1<<20); err == nil {
		t.Error("a 2 MB expansion passed a 1 MB limit")
	}
}
