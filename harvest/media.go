package harvest

import (
	"context"
	"fmt"
	"io"
	"mime"
	"net/netip"
	"net/url"
	"path"
	"strconv"
	"strings"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/htmlnode"
	xnethtml "github.com/blogharvest/blogharvest/internal/xnet/html"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Media limits used when Options leaves them zero.
const (
	DefaultMaxMediaBytes    = 20 << 20
	DefaultMaxMediaPerEntry = 50
)

// docExt lists extensions of linked documents captured as media.
var docExt = map[string]bool{
	"pdf": true, "doc": true, "docx": true, "odt": true, "rtf": true, "xls": true, "xlsx": true,
	"ods": true, "ppt": true, "pptx": true, "odp": true, "epub": true, "zip": true, "csv": true,
	"mp3": true, "m4a": true, "ogg": true, "oga": true, "wav": true, "flac": true,
	"mp4": true, "m4v": true, "webm": true, "ogv": true, "mov": true,
	"jpg": true, "jpeg": true, "png": true, "gif": true, "webp": true, "svg": true, "avif": true,
}

// mediaTypeAllowed reports whether a captured body of media type mt may be
// kept as media: images, audio, video and common document formats.
func mediaTypeAllowed(mt string) bool {
	mt, _, _ = mime.ParseMediaType(mt)
	switch {
	case strings.HasPrefix(mt, "image/"), strings.HasPrefix(mt, "audio/"), strings.HasPrefix(mt, "video/"):
		return true
	case mt == "application/pdf", mt == "application/msword", mt == "application/rtf",
		mt == "application/zip", mt == "application/epub+zip", mt == "text/csv", mt == "application/ogg",
		strings.HasPrefix(mt, "application/vnd.openxmlformats-officedocument."),
		strings.HasPrefix(mt, "application/vnd.oasis.opendocument."),
		strings.HasPrefix(mt, "application/vnd.ms-"):
		return true
	}
	return false
}

// mediaURLs returns the absolute URLs of the images (src, srcset, lazy
// data-src), audio, video and linked documents in an article's HTML, in
// document order, without duplicates.
func mediaURLs(content string, base *url.URL) []string {
	var out []string
	seen := map[string]bool{}
	add := func(ref string) {
		if s := normalizedMediaRef(ref, base); s != "" && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	if scanMedia(content, add) {
		return out
	}
	out, seen = nil, map[string]bool{}
	doc, err := xnethtml.Parse(strings.NewReader(content))
	if err != nil {
		return nil
	}
	eachElement(doc, func(n *html.Node) { mediaOf(n, add) })
	return out
}

// scanMedia passes the media URLs of content's elements to add, in
// document order, reading its tokens without building a tree, and reports
// whether it could: where the parser's tree may differ from the tag
// sequence in what mediaOf reads (markup inside <noscript> that
// eachElement parses, a template, a frameset, an element a table would
// move before itself, foreign content the parser reads otherwise than
// scanForeign does) it stops and returns false, and the caller parses the
// content instead. An article is read for its media once per entry; the
// parse it spares was one tree of the whole article more (the largest
// pages' feed items built trees of 13 MB). Inline SVG and MathML are read
// as the parser reads them (scanForeign): an article with an SVG icon
// (Hugo's PaperMod puts one in every post) was parsed whole again.
func scanMedia(content string, add func(string)) bool {
	z := xnethtml.NewTokenizer(strings.NewReader(content))
	var tables []atom.Atom // the open table elements, innermost last
	var foreign []string   // the open SVG or MathML elements (their tag names), outermost first; empty in HTML
	n := &html.Node{Type: html.ElementNode}
	for {
		z.AllowCDATA(len(foreign) > 0) // as the parser: CDATA sections in foreign content only
		tt := z.Next()
		if len(foreign) > 0 {
			if tt == xnethtml.ErrorToken {
				return z.Err() == io.EOF
			}
			var ok bool
			if foreign, ok = scanForeign(z, tt, foreign, n, add); !ok {
				return false
			}
			continue
		}
		switch tt {
		case xnethtml.ErrorToken:
			return z.Err() == io.EOF
		case xnethtml.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			if tableElement(a) {
				for i := len(tables) - 1; i >= 0; i-- {
					if tables[i] == a {
						tables = tables[:i]
						break
					}
				}
			}
			continue
		case xnethtml.StartTagToken, xnethtml.SelfClosingTagToken:
		default:
			continue
		}
		name, hasAttr := z.TagName()
		a := atom.Lookup(name)
		switch a {
		case atom.Noscript, atom.Template, atom.Frameset, atom.Frame:
			return false
		case atom.Image:
			a = atom.Img // the parser's reading of <image> outside foreign content
		}
		if tableElement(a) {
			if tt == xnethtml.StartTagToken && a != atom.Col {
				tables = append(tables, a)
			}
			continue
		}
		if len(tables) > 0 {
			switch tables[len(tables)-1] {
			case atom.Td, atom.Th, atom.Caption:
			default:
				return false // foster-parented before the table: out of document order
			}
		}
		if (a == atom.Svg || a == atom.Math) && tt == xnethtml.StartTagToken {
			foreign = append(foreign, a.String()) // a self-closing one is closed at once
		}
		if !mediaElement(a) {
			continue // mediaOf reads nothing else: its attributes are not copied
		}
		n.DataAtom, n.Attr = a, n.Attr[:0]
		for hasAttr {
			var key, val []byte
			key, val, hasAttr = z.TagAttr()
			n.Attr = append(n.Attr, html.Attribute{Key: atom.String(key), Val: string(val)})
		}
		mediaOf(n, add)
	}
}

// mediaElement reports whether mediaOf reads an element of this atom (an
// HTML element's; <image> read as <img>): scanMedia copies the attributes
// of these only, where it copied every start tag's (Token), most of them a
// paragraph's, a span's or a div's class.
func mediaElement(a atom.Atom) bool {
	switch a {
	case atom.Img, atom.Source, atom.Audio, atom.Video, atom.Track, atom.Embed, atom.A:
		return true
	}
	return false
}

// scanForeign reads token tt of z inside SVG or MathML (foreign, the open
// foreign elements, not empty) as x/net/html's parseForeignContent does,
// passing the media URLs of a start tag's element to add through n, and
// returns the open foreign elements after it. It reports false where the
// parser would leave foreign content or read markup as HTML, where the
// tag sequence and the tree part: a start tag that breaks out of foreign
// content (<p>, <img>, <div>, …, any <font>), one inside an integration
// point (an SVG <title>, <desc> or <foreignObject>, a MathML <mi>, <mo>,
// <mn>, <ms>, <mtext> or <annotation-xml>), an end tag no open foreign
// element has, a <noscript> (whose text eachElement would parse).
// Elements inside foreign content are foreign, whatever their name (an
// SVG <image> is no <img>), and no raw text follows their start tags
// (NextIsNotRawText, as the parser: an SVG <style> or <title> holds
// markup).
func scanForeign(z *xnethtml.Tokenizer, tt xnethtml.TokenType, foreign []string, n *html.Node, add func(string)) ([]string, bool) {
	switch tt {
	case xnethtml.StartTagToken, xnethtml.SelfClosingTagToken:
		switch foreign[len(foreign)-1] {
		case "title", "desc", "foreignobject", "mi", "mo", "mn", "ms", "mtext", "annotation-xml":
			return foreign, false
		}
		t := z.Token()
		if foreignBreakout(t.Data) || t.DataAtom == atom.Font || t.DataAtom == atom.Noscript {
			return foreign, false
		}
		z.NextIsNotRawText()
		n.DataAtom, n.Attr = t.DataAtom, t.Attr
		mediaOf(n, add)
		if tt == xnethtml.StartTagToken {
			foreign = append(foreign, t.Data)
		}
	case xnethtml.EndTagToken:
		name, _ := z.TagName()
		for i := len(foreign) - 1; i >= 0; i-- {
			if foreign[i] == string(name) {
				return foreign[:i], true
			}
		}
		return foreign, false
	}
	return foreign, true
}

// foreignBreakout reports whether a start tag of this name ends foreign
// content (x/net/html's breakout table, HTML's "any other start tag" rule
// of foreign content).
func foreignBreakout(name string) bool {
	switch name {
	case "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed",
		"h1", "h2", "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr",
		"ol", "p", "pre", "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u",
		"ul", "var":
		return true
	}
	return false
}

// tableElement reports whether a is an element of a table's structure.
func tableElement(a atom.Atom) bool {
	switch a {
	case atom.Table, atom.Caption, atom.Colgroup, atom.Col, atom.Tbody, atom.Thead, atom.Tfoot, atom.Tr, atom.Td, atom.Th:
		return true
	}
	return false
}

// normalizedMediaRef returns the absolute http(s) URL, without fragment,
// that ref names against base, or "".
func normalizedMediaRef(ref string, base *url.URL) string {
	if ref = blogharvest.NormalizeURL(ref); ref == "" || strings.HasPrefix(ref, "data:") {
		return ""
	}
	u, err := base.Parse(ref)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return ""
	}
	u.Fragment = ""
	return u.String()
}

// mediaOf passes the media URLs one element names to add.
func mediaOf(n *html.Node, add func(string)) {
	switch n.DataAtom {
	case atom.Img:
		add(firstNonEmpty(htmlnode.Attr(n, "data-orig-file"), htmlnode.Attr(n, "data-src"), htmlnode.Attr(n, "data-lazy-src"), htmlnode.Attr(n, "src")))
		add(largestSrcset(firstNonEmpty(htmlnode.Attr(n, "data-srcset"), htmlnode.Attr(n, "srcset"))))
	case atom.Source:
		add(htmlnode.Attr(n, "src"))
		add(largestSrcset(htmlnode.Attr(n, "srcset")))
	case atom.Audio, atom.Video, atom.Track, atom.Embed:
		add(htmlnode.Attr(n, "src"))
		add(htmlnode.Attr(n, "poster"))
	case atom.A:
		if href := htmlnode.Attr(n, "href"); isDocLink(href) {
			add(href)
		}
	}
}

// isDocLink reports whether href names a document or media file by its
// extension.
func isDocLink(href string) bool {
	u, err := url.Parse(href)
	if err != nil {
		return false
	}
	ext := strings.TrimPrefix(strings.ToLower(path.Ext(u.Path)), ".")
	return docExt[ext]
}

// largestSrcset returns the candidate of a srcset with the largest width
// or density descriptor, or "".
func largestSrcset(srcset string) string {
	best, bestSize := "", -1.0
	for _, cand := range strings.Split(srcset, ",") {
		f := strings.Fields(cand)
		if len(f) == 0 {
			continue
		}
		size := 1.0
		if len(f) > 1 {
			if v, err := strconv.ParseFloat(strings.TrimRight(f[1], "wx"), 64); err == nil {
				size = v
			}
		}
		if size > bestSize {
			best, bestSize = f[0], size
		}
	}
	return best
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

// captureMedia fetches the media of e's content within the limits and
// appends them to e.Files; every failure becomes one of e.Problems.
func (w *pageWorker) captureMedia(ctx context.Context, e *blogharvest.Entry) {
	base, err := url.Parse(e.URL)
	if err != nil || e.Content == "" {
		return
	}
	urls := mediaURLs(e.Content, base)
	if len(urls) > w.fetch.cfg.media.maxPerEntry {
		e.Problems = append(e.Problems, fmt.Sprintf("media: %d files, only the first %d captured", len(urls), w.fetch.cfg.media.maxPerEntry))
		urls = urls[:w.fetch.cfg.media.maxPerEntry]
	}
	archived := w.fetch.archivedMedia(e)
	for _, u := range urls {
		if ctx.Err() != nil {
			return
		}
		if f, ok := archived[u]; ok {
			e.Files = append(e.Files, f)
			continue
		}
		if !w.mediaHostAllowed(u) {
			e.Problems = append(e.Problems, fmt.Sprintf("media %s: on another host; not fetched (media hosts %q)", u, w.mediaHosts()))
			continue
		}
		f, err := w.fetch.fetchMedia(ctx, u)
		if err != nil {
			e.Problems = append(e.Problems, fmt.Sprintf("media %s: %v", u, err))
			continue
		}
		e.Files = append(e.Files, f)
	}
}

// archivedMedia returns the media files the archive holds for e
// (Options.Archived), by URL.
func (fg *fetching) archivedMedia(e *blogharvest.Entry) map[string]blogharvest.File {
	if fg.cfg.media.archived == nil {
		return nil
	}
	out := map[string]blogharvest.File{}
	for _, f := range fg.cfg.media.archived(e) {
		if f.Role == blogharvest.RoleMedia && f.SHA256 != "" {
			out[f.URL] = f
		}
	}
	return out
}

// fetchMedia returns the capture of one media file, fetched once per
// crawl (mediaCache), after checking its size and type.
func (fg *fetching) fetchMedia(ctx context.Context, u string) (blogharvest.File, error) {
	if r, ok := fg.media.get(u); ok {
		return r.file, r.err
	}
	f, err := fg.fetchMediaFile(ctx, u)
	fg.media.put(u, mediaResult{f, err})
	return f, err
}

// fetchMediaFile fetches one media file and checks its size and type.
func (fg *fetching) fetchMediaFile(ctx context.Context, u string) (blogharvest.File, error) {
	resp, err := fg.client.Do(ctx, fetch.Request{URL: u, Kind: fetch.Subresource})
	if err != nil {
		return blogharvest.File{}, err
	}
	if int64(len(resp.Body)) > fg.cfg.media.maxBytes {
		return blogharvest.File{}, fmt.Errorf("%d bytes exceed the %d-byte media limit: %w", len(resp.Body), fg.cfg.media.maxBytes, blogharvest.ErrTooLarge)
	}
	if mt := resp.MediaType(); !mediaTypeAllowed(mt) {
		return blogharvest.File{}, fmt.Errorf("type %q is not an allowed media type", mt)
	}
	return resp.File(blogharvest.RoleMedia), nil
}

// mediaHosts returns the effective Options.MediaHosts of the crawl.
func (w *pageWorker) mediaHosts() string {
	if w.fetch.cfg.media.hosts != "" {
		return w.fetch.cfg.media.hosts
	}
	if w.site.home != nil && isPrivateHost(w.site.home.Hostname()) {
		return MediaSameHost
	}
	return MediaAnyHost
}

// mediaHostAllowed reports whether a media URL may be fetched: always on
// the blog's own hosts, elsewhere only with MediaAnyHost.
func (w *pageWorker) mediaHostAllowed(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	return w.site.scope.hosts[strings.ToLower(u.Host)] || w.mediaHosts() == MediaAnyHost
}

// isPrivateHost reports whether host is a loopback, private or link-local
// IP literal or a localhost name: a blog that must not lead the crawler
// off the machine or the intranet.
func isPrivateHost(host string) bool {
	h := strings.ToLower(strings.TrimSuffix(host, "."))
	if h == "localhost" || strings.HasSuffix(h, ".localhost") {
		return true
	}
	a, err := netip.ParseAddr(h)
	if err != nil {
		return false
	}
	a = a.Unmap()
	return a.IsLoopback() || a.IsPrivate() || a.IsLinkLocalUnicast() || a.IsUnspecified()
}
