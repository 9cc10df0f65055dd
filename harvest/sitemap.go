package harvest

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
)

// sitemapURL is one <url> of a sitemap.
type sitemapURL struct {
	Loc     string
	LastMod time.Time // zero when absent or unparsable
}

// sitemap is one parsed sitemap file: a urlset, or an index of sitemaps.
type sitemap struct {
	URLs     []sitemapURL
	Children []string // <sitemap><loc> of a sitemap index
}

// maxSitemapBytes bounds a decompressed sitemap (the protocol allows 50 MB).
const maxSitemapBytes = 50 << 20

// parseSitemap parses a sitemap or sitemap index, gzip-compressed or not.
func parseSitemap(body []byte) (*sitemap, error) {
	body, err := gunzipIf(body, maxSitemapBytes)
	if err != nil {
		return nil, err
	}
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = false
	p := &sitemapParser{d: d, sm: &sitemap{}}
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return p.sm, nil
		}
		if err != nil {
			return nil, blogharvest.Permanent(fmt.Errorf("parse sitemap: %w", err))
		}
		if se, ok := tok.(xml.StartElement); ok {
			if err := p.start(se); err != nil {
				return nil, err
			}
		}
	}
}

// sitemapParser holds the state of parseSitemap.
type sitemapParser struct {
	d       *xml.Decoder
	sm      *sitemap
	root    string
	cur     *sitemapURL // the <url> being read; nil inside <sitemap>
	inIndex bool
}

// start handles one start element.
func (p *sitemapParser) start(se xml.StartElement) error {
	if p.root == "" {
		p.root = se.Name.Local
		if p.root != "urlset" && p.root != "sitemapindex" {
			return blogharvest.Permanent(fmt.Errorf("parse sitemap: root element <%s> is not urlset or sitemapindex", p.root))
		}
	}
	sm := p.sm
	switch se.Name.Local {
	case "url":
		sm.URLs = append(sm.URLs, sitemapURL{})
		p.cur, p.inIndex = &sm.URLs[len(sm.URLs)-1], false
	case "sitemap":
		sm.Children = append(sm.Children, "")
		p.cur, p.inIndex = nil, true
	case "loc":
		loc := strings.TrimSpace(readText(p.d))
		if p.inIndex && len(sm.Children) > 0 {
			sm.Children[len(sm.Children)-1] = loc
		} else if p.cur != nil {
			p.cur.Loc = loc
		}
	case "lastmod":
		if p.cur != nil {
			p.cur.LastMod = parseLastMod(readText(p.d))
		}
	}
	return nil
}

// readText returns the character data up to the end of the current element.
func readText(d *xml.Decoder) string {
	var b strings.Builder
	depth := 1
	for depth > 0 {
		tok, err := d.Token()
		if err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.CharData:
			b.Write(t)
		case xml.StartElement:
			depth++
		case xml.EndElement:
			depth--
		}
	}
	return b.String()
}

// lastModLayouts are the W3C datetime forms sitemaps use.
var lastModLayouts = []string{time.RFC3339, "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05", "2006-01-02", "2006-01", "2006"}

// parseLastMod parses a sitemap <lastmod>; it returns zero when it cannot.
func parseLastMod(s string) time.Time {
	s = strings.TrimSpace(s)
	for _, l := range lastModLayouts {
		if t, err := time.Parse(l, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// gunzipIf decompresses body when it starts with the gzip magic, reading
// at most limit bytes of output (a decompression bomb gets ErrTooLarge).
func gunzipIf(body []byte, limit int64) ([]byte, error) {
	if len(body) < 2 || body[0] != 0x1f || body[1] != 0x8b {
		return body, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		return nil, blogharvest.Permanent(fmt.Errorf("gunzip sitemap: %w", err))
	}
	out, err := io.ReadAll(io.LimitReader(bufio.NewReader(zr), limit+1))
	if err != nil {
		return nil, blogharvest.Permanent(fmt.Errorf("gunzip sitemap: %w", err))
	}
	if int64(len(out)) > limit {
		return nil, blogharvest.Permanent(fmt.Errorf("gunzip sitemap: %w", blogharvest.ErrTooLarge))
	}
	return out, nil
}

// isPageSitemap reports whether a sitemap URL lists a platform's standalone
// pages (WordPress core wp-sitemap-posts-page-N.xml, Yoast page-sitemap.xml).
func isPageSitemap(loc string) bool {
	l := strings.ToLower(loc)
	return strings.Contains(l, "wp-sitemap-posts-page") || strings.Contains(l, "/page-sitemap")
}

// isPostSitemap reports whether a sitemap URL lists a platform's posts.
func isPostSitemap(loc string) bool {
	l := strings.ToLower(loc)
	return strings.Contains(l, "wp-sitemap-posts-post") || strings.Contains(l, "/post-sitemap")
}
