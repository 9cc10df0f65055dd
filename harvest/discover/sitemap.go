package discover

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

// URL is one <url> of a sitemap, as the stage hands it to URLs.Queue.
type URL struct {
	Loc     string    // as written, trimmed
	LastMod time.Time // zero when absent or unparsable
}

// sitemap is one parsed sitemap file: a urlset, or an index of sitemaps.
type sitemap struct {
	URLs     []URL
	Children []string // <sitemap><loc> of a sitemap index
}

// maxSitemapBytes bounds a decompressed sitemap (the protocol allows 50
// MB): a longer one is read up to it, the rest left out.
const maxSitemapBytes = 50 << 20

// parseSitemap parses a sitemap or sitemap index, gzip-compressed or not,
// into lists (tests; the crawl streams with scanSitemap). A sitemap over
// maxSitemapBytes fails with ErrTooLarge.
func parseSitemap(body []byte) (*sitemap, error) {
	sm := &sitemap{}
	cut, err := scanSitemap(body, maxSitemapBytes, func(u URL) { sm.URLs = append(sm.URLs, u) },
		func(loc string) { sm.Children = append(sm.Children, loc) })
	if err == nil && cut {
		err = blogharvest.Permanent(fmt.Errorf("gunzip sitemap: %w", blogharvest.ErrTooLarge))
	}
	if err != nil {
		return nil, err
	}
	return sm, nil
}

// scanSitemap reads a sitemap or sitemap index, gzip-compressed or not, as
// a stream: each <url> is handed to onURL when it ends, each child
// sitemap's <loc> to onChild; nothing of the document is held. At most
// limit decompressed bytes are read: cut says the document was longer
// (what came before is handed over). A document that is no sitemap fails
// with a permanent error, possibly after some of it was handed over.
func scanSitemap(body []byte, limit int64, onURL func(URL), onChild func(string)) (cut bool, err error) {
	var r io.Reader = bytes.NewReader(body)
	if len(body) >= 2 && body[0] == 0x1f && body[1] == 0x8b {
		zr, err := gzip.NewReader(r)
		if err != nil {
			return false, blogharvest.Permanent(fmt.Errorf("gunzip sitemap: %w", err))
		}
		r = bufio.NewReader(zr)
	}
	lr := &limitedReader{r: r, left: limit}
	d := xml.NewDecoder(lr)
	d.Strict = false
	p := &sitemapParser{d: d, onURL: onURL, onChild: onChild}
	for {
		tok, err := d.Token()
		if lr.over {
			p.flush()
			return true, nil
		}
		if errors.Is(err, io.EOF) {
			p.flush()
			return false, nil
		}
		if err != nil {
			return false, blogharvest.Permanent(fmt.Errorf("parse sitemap: %w", err))
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if err := p.start(t); err != nil {
				return false, err
			}
		case xml.EndElement:
			if t.Name.Local == "url" {
				p.flush()
			}
		}
	}
}

// limitedReader reads at most left bytes of r, then reports over.
type limitedReader struct {
	r    io.Reader
	left int64
	over bool
}

func (l *limitedReader) Read(b []byte) (int, error) {
	if l.left <= 0 {
		l.over = true
		return 0, io.EOF
	}
	if int64(len(b)) > l.left {
		b = b[:l.left]
	}
	n, err := l.r.Read(b)
	l.left -= int64(n)
	return n, err
}

// sitemapParser holds the state of scanSitemap.
type sitemapParser struct {
	d       *xml.Decoder
	onURL   func(URL)
	onChild func(string)
	root    string
	cur     *URL // the <url> being read; nil outside one
	inIndex bool
}

// flush hands the <url> being read over.
func (p *sitemapParser) flush() {
	if p.cur != nil {
		p.onURL(*p.cur)
		p.cur = nil
	}
}

// start handles one start element.
func (p *sitemapParser) start(se xml.StartElement) error {
	if p.root == "" {
		p.root = se.Name.Local
		if p.root != "urlset" && p.root != "sitemapindex" {
			return blogharvest.Permanent(fmt.Errorf("parse sitemap: root element <%s> is not urlset or sitemapindex", p.root))
		}
	}
	switch se.Name.Local {
	case "url":
		p.flush()
		p.cur, p.inIndex = &URL{}, false
	case "sitemap":
		p.flush()
		p.inIndex = true
	case "loc":
		loc := strings.TrimSpace(readText(p.d))
		if p.inIndex {
			p.onChild(loc)
			p.inIndex = false
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
