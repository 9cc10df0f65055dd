package aip

import (
	"bufio"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/beevik/etree"
	"github.com/blogharvest/blogharvest/warc"
)

// WARCError reports a WARC of an AIP that does not read back or whose
// digests do not match, a file that does not match the WARC record its
// PREMIS object names, or a CDXJ line that points at no such capture.
type WARCError struct {
	Path   string // the WARC, the METS document or the index
	Reason string
}

// Error implements error.
func (e *WARCError) Error() string { return fmt.Sprintf("%s: WARC: %s", e.Path, e.Reason) }

// warcRec is what check keeps of one record: the file and its entry.
type warcRec struct {
	file string // data/… path of the WARC
	rec  warc.Record
}

// checkWARC streams every WARC of the payload (data/objects/warc/*.warc.gz,
// warc.Verify: memory bounded whatever the file holds), verifying every
// record's digests, then checks that every mets:file whose
// PREMIS object names a WARC record holds that record's payload, byte for
// byte, and that every line of data/logs/index.cdxj points at a record of
// its URL and digest.
func (b *bag) checkWARC(fileSecs []*etree.Element, warcIDs map[string]string) {
	byID := map[string]warcRec{}
	byOffset := map[string]warc.Record{} // "file@offset"
	for _, p := range sortedKeys(b.payload) {
		if path.Dir(p) != "data/"+warcDir || !strings.HasSuffix(p, ".warc.gz") {
			continue
		}
		f, err := b.open(p)
		if err != nil {
			continue // reported by the bag checks
		}
		// streamed: no block is held, headers are bounded (warc.MaxHeader)
		err = warc.Verify(bufio.NewReaderSize(f, 64<<10), func(r warc.Record) error {
			if r.Type == "response" || r.Type == "resource" || r.Type == "revisit" {
				byID[r.ID] = warcRec{file: p, rec: r}
				byOffset[p+"@"+strconv.FormatInt(r.Offset, 10)] = r
			}
			return nil
		})
		f.Close()
		if err != nil {
			b.warcFail(p, err.Error())
		}
	}
	b.checkTies("data/"+metsName, fileSecs, warcIDs, byID)
	b.checkIndex(byOffset)
}

// checkTies compares each mets:file tied to a WARC record (warcIDs: by
// the ID of the amdSec naming it) with the record's payload; metsPath is
// relative to the bag.
func (b *bag) checkTies(metsPath string, fileSecs []*etree.Element, warcIDs map[string]string, byID map[string]warcRec) {
	for _, f := range metsFiles(fileSecs) {
		if f.SelectElement("FLocat") == nil {
			continue
		}
		id := ""
		for _, adm := range strings.Fields(f.SelectAttrValue("ADMID", "")) {
			if id = warcIDs[adm]; id != "" {
				break
			}
		}
		if id == "" {
			continue
		}
		rel, err := safePath(f.SelectElement("FLocat").SelectAttrValue("xlink:href", ""))
		if err != nil {
			continue // reported by checkFileRefs
		}
		p := "data/" + rel
		if _, ok := b.payload[p]; !ok {
			continue // reported by checkFileRefs
		}
		r, ok := byID[id]
		if !ok {
			b.warcFail(metsPath, fmt.Sprintf("%s names WARC record %s, which no WARC of the bag holds", p, id))
			continue
		}
		got := b.sums[p]["sha256"]
		if got == "" {
			got = b.hashFile(p, []string{"sha256"})["sha256"]
		}
		if got != r.rec.PayloadSHA256 {
			b.warcFail(metsPath, fmt.Sprintf("%s has sha256 %s, its WARC record %s in %s holds a payload of sha256 %s",
				p, got, id, r.file, r.rec.PayloadSHA256))
		}
	}
}

// warcIDIn returns the WARC-Record-ID that a PREMIS object of the amdSec
// sec names; "" if none.
func warcIDIn(sec *etree.Element) string {
	for _, sp := range sec.FindElements(".//significantProperties") {
		t, v := sp.SelectElement("significantPropertiesType"), sp.SelectElement("significantPropertiesValue")
		if t != nil && v != nil && strings.TrimSpace(t.Text()) == warcPropType {
			return strings.TrimSpace(v.Text())
		}
	}
	return ""
}

// checkIndex checks each line of the CDXJ index against the record at its
// filename and offset.
func (b *bag) checkIndex(byOffset map[string]warc.Record) {
	p := "data/" + cdxjIndex
	if _, ok := b.payload[p]; !ok {
		return
	}
	data, err := b.read(p)
	if err != nil {
		return
	}
	idx, err := warc.ParseIndex(data)
	if err != nil {
		b.warcFail(p, err.Error())
		return
	}
	for i, l := range idx {
		r, ok := byOffset["data/"+l.Filename+"@"+l.Offset]
		switch {
		case !ok:
			b.warcFail(p, fmt.Sprintf("line %d: no record at %s offset %s", i+1, l.Filename, l.Offset))
		case r.TargetURI != l.URL:
			b.warcFail(p, fmt.Sprintf("line %d: the record at offset %s is of %s, not %s", i+1, l.Offset, r.TargetURI, l.URL))
		case r.Type == "revisit" && l.Digest != "" && !strings.EqualFold(l.Digest, r.PayloadDigest):
			b.warcFail(p, fmt.Sprintf("line %d: digest %s, the revisit record says %s", i+1, l.Digest, r.PayloadDigest))
		case r.Type != "revisit" && l.Digest != "" && l.Digest != "sha256:"+r.PayloadSHA256:
			b.warcFail(p, fmt.Sprintf("line %d: digest %s, the record's payload has sha256:%s", i+1, l.Digest, r.PayloadSHA256))
		}
	}
}

func (b *bag) warcFail(p, reason string) {
	b.errs = append(b.errs, &WARCError{Path: b.at(p), Reason: reason})
}
