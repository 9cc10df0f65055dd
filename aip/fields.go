package aip

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/blogharvest/blogharvest"
)

// fieldsLog is the payload path of the field provenance log.
const fieldsLog = "logs/fields.tsv"

// FieldsHeader is the header line of data/logs/fields.tsv.
const FieldsHeader = "record\tkind\tfield\tmethod"

// fieldsTSV returns the field provenance log of the package: a header
// line, then one line per harvested field of each record (the Blog, or the
// Entry and its comments in their order; fields sorted by name): the
// record's MARC 001, its kind (blog, post, page, comment), the field (a
// MARC attribute name of DESIGN §6) and the method that produced its value
// (blogharvest.Method). It returns nil when no record says how any of its
// fields was obtained.
func (p *pkg) fieldsTSV() []byte {
	var b bytes.Buffer
	add := func(id, kind string, prov blogharvest.Provenance) {
		fields := make([]string, 0, len(prov))
		for f := range prov {
			fields = append(fields, f)
		}
		slices.Sort(fields)
		for _, f := range fields {
			fmt.Fprintf(&b, "%s\t%s\t%s\t%s\n", oneLine(id), kind, oneLine(f), oneLine(string(prov[f])))
		}
	}
	switch {
	case p.kind == kindRequisites:
	case p.blog != nil:
		add(p.blogID, "blog", p.blog.Provenance)
	default:
		entryID := p.blogID + "/" + p.key
		kind := string(p.entry.Kind)
		if kind == "" {
			kind = "entry"
		}
		add(entryID, kind, p.entry.Provenance)
		for i := range p.entry.Comments {
			c := &p.entry.Comments[i]
			add(commentID(entryID, c.ID), "comment", c.Provenance)
		}
	}
	if b.Len() == 0 {
		return nil
	}
	return append([]byte(FieldsHeader+"\n"), b.Bytes()...)
}
