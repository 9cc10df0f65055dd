package aip

import (
	"bytes"
	"errors"
	"fmt"
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
// (mets.Document.Check, in Marshal) and, when e says so (validation.go),
// the METS document against the schemas. Any problem fails permanently: the
// records cannot be archived as they are.
func (p *pkg) assemble(e env) error {
	p.items = append(p.items, memItem(captureLog, p.captureLog(), "metadata", "text/plain; charset=utf-8"))
	if tsv := p.fieldsTSV(); tsv != nil { // after the capture log, which lists captured files only
		p.items = append(p.items, memItem(fieldsLog, tsv, "metadata", "text/tab-separated-values; charset=utf-8"))
	}
	if err := p.addWARC(e); err != nil {
		return blogharvest.Permanent(fmt.Errorf("aip: %s: WARC: %w", p.permalink, err))
	}
	head := p.records(e.now, e.orgCode)
	if err := lintRecords(head); err != nil {
		return blogharvest.Permanent(fmt.Errorf("aip: %s: %w", p.permalink, err))
	}
	var lint []error // of the comments' records, linted as they are written
	doc, err := p.metsDocument(e, head, &lint)
	if err != nil {
		return blogharvest.Permanent(fmt.Errorf("aip: %s: %w", p.permalink, err))
	}
	out, err := doc.Marshal()
	if len(lint) > 0 {
		return blogharvest.Permanent(fmt.Errorf("aip: %s: %w", p.permalink, errors.Join(lint...)))
	}
	if err != nil {
		return blogharvest.Permanent(fmt.Errorf("aip: %s: %w", p.permalink, err))
	}
	if metsHook != nil {
		out = metsHook(out)
	}
	if !e.validate(p.kind) {
		p.items = append([]*item{memItem(metsName, out, "", "application/xml")}, p.items...)
		return nil
	}
	if problems := schemas.Validate(out); len(problems) > 0 {
		errs := make([]error, len(problems))
		for i, pr := range problems {
			errs[i] = pr
		}
		return blogharvest.Permanent(fmt.Errorf("aip: %s: METS invalid: %w", p.permalink, errors.Join(errs...)))
	}
	p.items = append([]*item{memItem(metsName, out, "", "application/xml")}, p.items...)
	return nil
}

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
