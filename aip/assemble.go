package aip

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/marc"
	"github.com/blogharvest/blogharvest/schemas"
)

// record is one MARC record of the package with its dmdSec.
type record struct {
	dmdID   string
	label   string
	rec     *marc.Record
	comment *blogharvest.Comment // nil for the Blog or Entry record
}

// assemble adds the capture log and METS.xml to the payload, after checking
// the MARC records with Lint, the METS document's IDs and references
// (mets.Document.Check, in Marshal) and, when e says so (validation.go:
// only when Writer.ValidateEvery asks), the METS document against the
// schemas. Any problem fails permanently: the
// records cannot be archived as they are.
func (p *pkg) assemble(e env) error {
	p.items = append(p.items, memItem(captureLog, p.captureLog(), "metadata", "text/plain; charset=utf-8"))
	if tsv := p.fieldsTSV(); tsv != nil { // after the capture log, which lists captured files only
		p.items = append(p.items, memItem(fieldsLog, tsv, "metadata", "text/tab-separated-values; charset=utf-8"))
	}
	if err := p.addWARC(e); err != nil {
		return blogharvest.Permanent(fmt.Errorf("aip: %s: WARC: %w", p.permalink, err))
	}
	e.schemaChecked = e.validate(p.kind) // decided before the METS is built: its validation event says what is done
	head := p.records(e.now, e.orgCode)
	if err := lintRecords(head); err != nil {
		return blogharvest.Permanent(fmt.Errorf("aip: %s: %w", p.permalink, err))
	}
	var lint []error // of the comments' records, linted as they are written
	doc, err := p.metsDocument(e, head, &lint)
	if err != nil {
		return blogharvest.Permanent(fmt.Errorf("aip: %s: %w", p.permalink, err))
	}
	out := &spill{limit: spillAbove, buf: metsBuffers.Get().(*bytes.Buffer)}
	p.pooled = append(p.pooled, out.buf) // its bytes are METS.xml's until the package is written
	if hint := min(int(lastMETS.Load())*9/8, spillAbove); out.buf.Cap() < hint {
		out.buf.Grow(hint) // once, where the writes doubled it from what the pool gave
	}
	err = doc.MarshalTo(out)
	if out.f == nil {
		lastMETS.Store(int64(out.buf.Len()))
	}
	if out.f != nil {
		p.temps = append(p.temps, out.f.Name())
	}
	if err == nil {
		err = out.close()
	}
	if len(lint) > 0 {
		return blogharvest.Permanent(fmt.Errorf("aip: %s: %w", p.permalink, errors.Join(lint...)))
	}
	if err != nil {
		return blogharvest.Permanent(fmt.Errorf("aip: %s: %w", p.permalink, err))
	}
	it, err := out.item()
	if err != nil {
		return blogharvest.Transient(fmt.Errorf("aip: %s: %w", p.permalink, err))
	}
	if metsHook != nil {
		body, err := it.bytes()
		if err != nil {
			return blogharvest.Transient(err)
		}
		it = memItem(metsName, metsHook(body), "", "application/xml")
	}
	if e.schemaChecked {
		problems, err := it.validate()
		if err != nil {
			return blogharvest.Transient(fmt.Errorf("aip: %s: %w", p.permalink, err))
		}
		if len(problems) > 0 {
			errs := make([]error, len(problems))
			for i, pr := range problems {
				errs[i] = pr
			}
			return blogharvest.Permanent(fmt.Errorf("aip: %s: METS invalid: %w", p.permalink, errors.Join(errs...)))
		}
	}
	p.items = append([]*item{it}, p.items...)
	return nil
}

// spillAbove is the size above which a METS document is written to a
// temporary file rather than kept in memory (a thread of many comments:
// some 3.8 kB of METS each), so that a package's memory does not grow
// with its thread (a variable for tests).
var spillAbove = 4 << 20

// metsBuffers holds the buffers METS documents are marshalled into, for
// reuse by the next package: a document grows its buffer by doubling to
// some hundred kilobytes, every new slice cleared and the old copied, a
// quarter of the bytes a package allocated (aip's BenchmarkWriteEntry
// as-deployed, -memprofile; on corpus blogs that write a bag every few
// requests the growth was 6 % of a crawl's CPU, -cpuprofile of 3mdeb).
// A buffer is put back once its package is written (pkg.removeTemps);
// sync.Pool drops the idle ones at collections, but only at the second
// after their last use: a buffer over maxPooledMETS is dropped at once.
var metsBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// lastMETS is the size of the last METS document kept in memory: the
// size a buffer is grown to at once before the next is marshalled into
// it. The pool loses its buffers to the collections between a crawl's
// bags (sync.Pool drops what was not used since the last but one), and
// a buffer grown from nothing by the writes was copied some ten times
// (crawl -memprofile of mitsuyoshi: spill.Write a third of the bytes
// bytes.growSlice allocated under assemble).
var lastMETS atomic.Int64

// maxPooledMETS is the largest buffer removeTemps puts back in
// metsBuffers. A large post's METS grows its buffer to megabytes (up to
// twice spillAbove), which the pool kept live through the next
// collection, at the crawl's peak of live heap (issue 43); the METS of
// most packages fits in far less.
const maxPooledMETS = 1 << 20

// spill is a writer that keeps what it is given in memory up to limit
// bytes, then in a temporary file.
type spill struct {
	limit int
	buf   *bytes.Buffer
	f     *os.File
	w     *bufio.Writer
}

// Write implements io.Writer.
func (s *spill) Write(p []byte) (int, error) {
	if s.f == nil && s.buf.Len()+len(p) <= s.limit {
		return s.buf.Write(p)
	}
	if s.f == nil {
		f, err := os.CreateTemp("", "blogharvest-mets-*.xml")
		if err != nil {
			return 0, err
		}
		s.f, s.w = f, bufio.NewWriterSize(f, 64<<10)
		if _, err := s.w.Write(s.buf.Bytes()); err != nil {
			return 0, err
		}
		s.buf.Reset()
	}
	return s.w.Write(p)
}

// close ends the writing: the file, if any, flushed and closed.
func (s *spill) close() error {
	if s.f == nil {
		return nil
	}
	err := s.w.Flush()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	return err
}

// item returns METS.xml as a payload item: in memory, or read from the
// temporary file.
func (s *spill) item() (*item, error) {
	if s.f == nil {
		return memItem(metsName, s.buf.Bytes(), "", "application/xml"), nil
	}
	it := &item{rel: metsName, src: s.f.Name(), mime: "application/xml", generated: true}
	return it, it.hash()
}

// bytes returns the item's content.
func (it *item) bytes() ([]byte, error) {
	if it.src == "" {
		return it.body, nil
	}
	return it.readSrc()
}

// validate validates the item, a METS document, against the schemas
// (streamed: schemas.ValidateReader).
func (it *item) validate() ([]schemas.Problem, error) {
	if it.src == "" {
		return schemas.Validate(it.body), nil
	}
	f, err := it.openSrc()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return schemas.ValidateReader(f), nil
}

// removeTemps removes the temporary files of the package and puts its
// pooled buffers back: the items that read them are no longer used.
func (p *pkg) removeTemps() {
	for _, name := range p.temps {
		os.Remove(name)
	}
	p.temps = nil
	for _, b := range p.pooled {
		if b.Cap() <= maxPooledMETS {
			b.Reset()
			metsBuffers.Put(b)
		}
	}
	p.pooled = nil
	if b := p.warcBuf; b != nil && b.Cap() <= maxPooledMETS {
		b.Reset()
		warcBuffers.Put(b)
	}
	p.warcBuf = nil
}

// warcBuffers holds the buffers the packages' WARC files are written
// into (warc.NewWriterTo), for reuse by the next package as metsBuffers
// for the METS: a WARC grew its own buffer by doubling from nothing, the
// largest share of the bytes a bag's assembling allocated after the
// METS's (aip's BenchmarkWriteEntry, -memprofile; crawl -memprofile of
// mitsuyoshi: a third of bytes.growSlice). Put back by removeTemps, under
// the same cap.
var warcBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// metsHook, if set (by tests only), changes each METS document built.
var metsHook func([]byte) []byte

// records returns the MARC records of the package: the Blog, or the Entry
// followed by its comments in their order. org is the cataloguing
// organisation's MARC code (003, 040), "" for none; entries and comments take the blog's
// language (Entry.Language) for 008/35-37 and 245's non-filing count.
func (p *pkg) records(now time.Time, org string) []record {
	if p.kind == kindRequisites {
		return nil
	}
	if p.blog != nil {
		return []record{{dmdID: "dmd-blog", label: "Blog", rec: marc.FromBlog(p.blog,
			marc.Options{ID: p.blogID, Updated: now, OrgCode: org})}}
	}
	e := p.entry
	entryID := p.blogID + "/" + p.key
	return []record{{dmdID: "dmd-entry", label: string(e.Kind), rec: marc.FromEntry(e,
		marc.Options{ID: entryID, Updated: now, ParentID: p.blogID, OrgCode: org, Language: e.Language})}}
}

// commentRecord returns the MARC record of the entry's comment i.
func (p *pkg) commentRecord(i int, now time.Time, org string) record {
	e := p.entry
	entryID := p.blogID + "/" + p.key
	c := &e.Comments[i]
	o := marc.Options{ID: commentID(entryID, c.ID), Updated: now, ParentID: entryID, OrgCode: org, Language: e.Language}
	if c.ParentID != "" {
		o.ParentCommentID = commentID(entryID, c.ParentID)
	}
	return record{dmdID: commentDmdID(c.ID), label: "comment", rec: marc.FromComment(c, e, o), comment: c}
}

// commentID is the stable 001 of a comment: the entry's 001 and 12 hex
// digits of sha256 of the comment's id.
func commentID(entryID, id string) string { return entryID + "/c-" + shortHash(id) }

// commentDmdID is the dmdSec ID of a comment's record.
func commentDmdID(id string) string { return "dmd-comment-" + shortHash(id) }

// lintRecords runs marc.Lint on every record and checks it encodes.
func lintRecords(recs []record) error {
	var errs []error
	for _, r := range recs {
		for _, pr := range marc.Lint(r.rec) {
			errs = append(errs, fmt.Errorf("%s: %w", r.dmdID, pr))
		}
	}
	return errors.Join(errs...)
}

// captureLog returns the capture log: one tab-separated line per captured
// file (capture time, HTTP status, sha256, size, payload path, URL), then the
// record's non-fatal problems.
func (p *pkg) captureLog() []byte {
	var b bytes.Buffer
	b.Grow(192 * (len(p.items) + 2)) // a line is some 150 bytes and its URL: grown from nothing, it was copied some six times
	fmt.Fprintf(&b, "# blogharvest capture log of %s\n# captured\tstatus\tsha256\tsize\tpath\turl\n", oneLine(p.permalink))
	for _, it := range p.items {
		f := it.file
		fmt.Fprintf(&b, "%s\t%d\t%s\t%d\tdata/%s\t%s\n", stamp(f.Captured), f.Status, it.sha256, it.size, it.rel, oneLine(f.URL))
	}
	if p.entry != nil {
		for _, pr := range p.entry.Problems {
			fmt.Fprintf(&b, "# problem: %s\n", oneLine(pr))
		}
	}
	return b.Bytes()
}

// stamp formats t in UTC as RFC 3339, or "-" when t is zero.
func stamp(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}
