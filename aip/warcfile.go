package aip

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"path"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/warc"
)

// Paths of the WARC and its index inside the payload (relative to data/).
const (
	warcDir   = "objects/warc"
	cdxjIndex = "logs/index.cdxj"
)

// warcPropType is the PREMIS significantProperties type that ties a file
// to the WARC record holding the same bytes (its WARC-Record-ID).
const warcPropType = "WARC-Record-ID"

// reusedPropType is the PREMIS significantProperties type naming the
// WARC-Record-ID, in an earlier version of the AIP, of the capture a
// reused file copies (File.Reused).
const reusedPropType = "reused capture"

// addWARC writes the package's WARC (objects/warc/<entry-key or
// "blog">.warc.gz) and its CDXJ index (logs/index.cdxj) as payload items:
// the request and response records of every captured file's exchanges
// (a response record from the File alone when it came without them; none
// for a capture reused from an earlier version, File.Reused, whose record
// stays where it is), a
// resource record for each rendered DOM and screenshot (named after its
// page), the records of the requisite fetches the package records
// (requisites.go), and the metadata record of its page listing the page's
// requisites, WARC-Concurrent-To the page's response record. Each captured
// item is tied to its record (item.warcID and File.WARCRecordID). Files
// the harvest made otherwise (feed excerpts, rules, ledger) have no
// record: nobody sent them.
func (p *pkg) addWARC(e env) error {
	name := path.Join(warcDir, p.key+".warc.gz")
	buf := new(bytes.Buffer) // a package assembled twice keeps its first WARC's buffer out of the pool
	if p.warcBuf == nil {
		buf = warcBuffers.Get().(*bytes.Buffer)
		p.warcBuf = buf // its bytes are the WARC's until the package is written
	}
	w, err := warc.NewWriterTo(buf, warc.Info{Filename: name, Software: joinNonEmpty(e.software, e.version), Organization: e.org,
		Crawl:  fmt.Sprintf("%s %s of blog %s: %s", p.kind, p.key, p.blogID, p.permalink),
		IDSeed: ObjID(p.permalink, p.version)}, e.now)
	if err != nil {
		return err
	}
	var made []*item
	for _, it := range p.items {
		f := it.file
		switch {
		case f == nil:
		case f.Role == blogharvest.RoleRendered || f.Role == blogharvest.RoleScreenshot:
			made = append(made, it)
		case f.Reused != "" && len(f.Exchanges) == 0:
			// a capture an earlier version holds, not fetched again: no
			// record copies it; the METS names the record (PREMIS) and
			// the version holding it (reusedRelationships)
		case len(f.Exchanges) > 0 || f.Status != 0 && isWebURL(f.URL):
			if err := p.captureRecords(w, it); err != nil {
				return err
			}
		}
	}
	for _, it := range made {
		if err := p.madeRecord(w, it); err != nil {
			return err
		}
	}
	if err := p.requisiteRecords(w); err != nil {
		return err
	}
	if page := p.firstPage(); page != nil && page.WARCRecordID != "" {
		if links := p.embedLinks(); len(links) > 0 {
			if _, err := w.Metadata(targetURL(page), captureDate(page), page.WARCRecordID, links); err != nil {
				return err
			}
		}
	}
	p.items = append(p.items, memItem(name, w.Bytes(), "metadata", "application/warc"),
		memItem(cdxjIndex, w.Index(), "metadata", "text/plain"))
	p.used[name], p.used[cdxjIndex] = true, true
	return nil
}

// firstPage returns the package's first captured page (RolePage, with a
// status), the page its requisites are for; nil when it has none.
func (p *pkg) firstPage() *blogharvest.File {
	for _, it := range p.items {
		if f := it.file; f != nil && f.Role == blogharvest.RolePage && (len(f.Exchanges) > 0 || f.Status != 0 && isWebURL(f.URL)) {
			return f
		}
	}
	return nil
}

// captureRecords writes the records of a captured item's exchanges.
func (p *pkg) captureRecords(w *warc.Writer, it *item) error {
	f := it.file
	xs := f.Exchanges
	if len(xs) == 0 { // captured without exchange detail: the response as the File holds it
		h := http.Header(f.Header).Clone()
		if h.Get("Content-Type") == "" && f.MediaType != "" {
			if h == nil {
				h = http.Header{}
			}
			h.Set("Content-Type", f.MediaType)
		}
		xs = []blogharvest.Exchange{{URL: f.URL, Status: f.Status, ResponseHeader: h, Sent: f.Captured}}
	}
	body, err := it.content()
	if err != nil {
		return err
	}
	sum := ""
	if it.src == "" { // body is the bytes it.hash hashed: the payload digest is it.sha256
		sum = it.sha256
	}
	id, err := w.CaptureSum(xs, body, sum)
	if err != nil {
		return err
	}
	it.warcID, f.WARCRecordID = id, id
	return nil
}

// madeRecord writes the resource record of a rendered DOM or screenshot,
// named after the page it shows (the package's permalink when the file
// names none).
func (p *pkg) madeRecord(w *warc.Writer, it *item) error {
	f := it.file
	u := f.URL
	if u == "" {
		u = p.permalink
	}
	body, err := it.content()
	if err != nil {
		return err
	}
	scheme := "urn:dom:"
	if f.Role == blogharvest.RoleScreenshot {
		scheme = "urn:screenshot:"
	}
	id, err := w.Resource(scheme+u, mediaType(f.MediaType), f.Captured, body)
	if err != nil {
		return err
	}
	it.warcID, f.WARCRecordID = id, id
	return nil
}

// isWebURL reports whether raw is an absolute http(s) URL, which a
// response record needs as its WARC-Target-URI.
func isWebURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

// content returns the item's bytes, from memory or disk.
func (it *item) content() ([]byte, error) {
	if it.src == "" {
		return it.body, nil
	}
	return it.readSrc()
}
