package mets

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/beevik/etree"
)

// Marshal returns d as an indented METS 1.12.1 document with an XML
// declaration. The output depends only on d: the same Document always yields
// the same bytes. It fails when Check does, or when a DmdSec's XML is not a
// single well-formed element.
//
// The document is built and written one section of the root at a time
// (metsHdr, each dmdSec, each amdSec, the fileSec, each structMap), each
// in an arena dropped once written, and the sections of DmdSource are
// asked for one at a time: memory holds the output and the largest
// section, not a tree of the whole document. Check's checks are made on
// the way (the IDs of DmdSource's sections are kept, nothing else of
// them) and fail Marshal at the end.
func (d *Document) Marshal() ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(int(lastSize.Load()) * 5 / 4) // the size of the last document, to spare the doubling copies
	if err := d.MarshalTo(&buf); err != nil {
		return nil, err
	}
	lastSize.Store(int64(buf.Len()))
	return buf.Bytes(), nil
}

// MarshalTo writes the document Marshal returns to w, a section at a time:
// memory holds the largest section, not the document. On an error, what
// was written to w is no document.
func (d *Document) MarshalTo(w io.Writer) error {
	s := idSet{seen: make(map[string]bool, d.idCount())}
	if d.Created.IsZero() {
		s.errs = append(s.errs, errors.New("document: zero Created time"))
	}
	t := newTree()
	defer t.release()
	buf := sectionBufs.Get().(*bytes.Buffer)
	defer putSectionBuf(buf)
	if hint := int(lastSectionCap.Load()); buf.Cap() < hint {
		buf.Grow(hint) // a buffer the pool made anew: at once to the size the last one reached
	}
	var werr error
	flush := func() {
		if werr == nil {
			_, werr = w.Write(buf.Bytes())
		}
		buf.Reset()
	}
	buf.WriteString(`<?xml version="1.0" encoding="UTF-8"?>`)
	buf.WriteByte('\n')
	root := d.root(t)
	t.writeStart(buf, root.i)
	buf.WriteByte('>')
	// section writes the one element add makes at the top of the reset
	// arena as a child of the root (etree's indentation: depth 1).
	section := func(add func(top el) error) error {
		t.nodes, t.attrs = t.nodes[:0], t.attrs[:0]
		if err := add(el{t, none}); err != nil {
			return err
		}
		if len(t.nodes) > 0 {
			indent(buf, 1)
			t.write(buf, 0, 2)
		}
		if buf.Len() >= 64<<10 {
			flush()
		}
		return werr
	}
	section(func(top el) error { d.writeHdr(top); return nil })
	writeDmd := func(m DmdSec) error {
		s.add("dmdSec", m.ID)
		return section(func(top el) error { return writeDmdSec(top, m) })
	}
	for _, m := range d.DmdSecs {
		if err := writeDmd(m); err != nil {
			return err
		}
	}
	if d.DmdSource != nil {
		if err := d.DmdSource(writeDmd); err != nil {
			return err
		}
	}
	d.addOtherIDs(&s)
	d.checkRefs(&s)
	if err := errors.Join(s.errs...); err != nil {
		return fmt.Errorf("mets: %w", err)
	}
	m := identifiers(d.AmdSecs)
	for i := range d.AmdSecs {
		section(func(top el) error { d.AmdSecs[i].write(top, m); return nil })
	}
	section(func(top el) error { writeFileSec(top, d.FileGroups); return nil })
	section(func(top el) error {
		logical := top.CreateElement("mets:structMap")
		attrs(logical, "TYPE", "logical", "ID", LogicalMapID, "LABEL", "records")
		d.StructMap.write(logical)
		return nil
	})
	section(func(top el) error {
		physical := top.CreateElement("mets:structMap")
		attrs(physical, "TYPE", "physical", "ID", PhysicalMapID, "LABEL", "files")
		d.physicalDiv().write(physical)
		return nil
	})
	indent(buf, 0)
	buf.WriteString("</")
	writeName(buf, t.rootSpace, t.rootName)
	buf.WriteString(">\n")
	flush()
	return werr
}

// lastSize is the size of the document Marshal wrote last: a crawl writes
// documents of like sizes one after the other, and growing the output from
// nothing copied each one about twice (6 % of the bytes a whole crawl
// allocated).
var lastSize atomic.Int64

// root creates the mets element with every namespace the document uses,
// and notes its name in t for the end tag.
func (d *Document) root(t *tree) el {
	root := el{t, t.add(none, kindElement, "mets:mets")}
	t.rootSpace, t.rootName = t.nodes[root.i].space, t.nodes[root.i].name
	root.CreateAttr("xmlns:mets", NSMETS)
	root.CreateAttr("xmlns:premis", NSPREMIS)
	root.CreateAttr("xmlns:xlink", NSXLink)
	root.CreateAttr("xmlns:xsi", NSXSI)
	root.CreateAttr("xsi:schemaLocation", SchemaLocation)
	attrs(root, "OBJID", d.ObjID, "LABEL", d.Label, "TYPE", d.Type, "PROFILE", d.Profile)
	return root
}

// writeHdr writes metsHdr with the creation date and the agents.
func (d *Document) writeHdr(root el) {
	hdr := root.CreateElement("mets:metsHdr")
	hdr.CreateAttr("CREATEDATE", stamp(d.Created))
	for _, a := range d.Agents {
		ag := hdr.CreateElement("mets:agent")
		attrs(ag, "ROLE", a.Role, "TYPE", a.Type, "OTHERTYPE", a.OtherType)
		ag.CreateElement("mets:name").SetText(a.Name)
		for _, n := range a.Notes {
			ag.CreateElement("mets:note").SetText(n)
		}
	}
	for _, a := range d.AltRecordIDs {
		attrs(hdr.CreateElement("mets:altRecordID"), "TYPE", a.Type).SetText(a.Value)
	}
}

// writeDmdSec embeds m.Element, or else m.XML parsed, in
// dmdSec/mdWrap/xmlData.
func writeDmdSec(root el, m DmdSec) error {
	var parsed *etree.Element
	if m.Element == nil {
		inner := etree.NewDocument()
		if err := inner.ReadFromBytes(m.XML); err != nil {
			return fmt.Errorf("mets: dmdSec %s: %w", m.ID, err)
		}
		parsed = inner.Root()
		if parsed == nil || len(inner.ChildElements()) != 1 {
			return fmt.Errorf("mets: dmdSec %s: XML must hold exactly one root element", m.ID)
		}
	}
	sec := root.CreateElement("mets:dmdSec")
	sec.CreateAttr("ID", m.ID)
	wrap := sec.CreateElement("mets:mdWrap")
	attrs(wrap, "MDTYPE", m.MDType, "OTHERMDTYPE", m.OtherMDType, "LABEL", m.Label)
	data := wrap.CreateElement("mets:xmlData")
	if parsed != nil {
		data.addParsed(parsed)
	} else {
		data.addElement(m.Element)
	}
	return nil
}

// writeFileSec writes the file groups; nothing when there are none.
func writeFileSec(root el, groups []FileGroup) {
	if len(groups) == 0 {
		return
	}
	sec := root.CreateElement("mets:fileSec")
	for _, g := range groups {
		grp := sec.CreateElement("mets:fileGrp")
		grp.CreateAttr("USE", g.Use)
		for _, f := range g.Files {
			f.write(grp)
		}
	}
}

// write writes one file with its FLocat.
func (f File) write(grp el) {
	el := grp.CreateElement("mets:file")
	attrs(el, "ID", f.ID, "MIMETYPE", mediaType(f.MimeType), "SIZE", strconv.FormatInt(f.Size, 10))
	if !f.Created.IsZero() {
		el.CreateAttr("CREATED", grp.t.stamp(f.Created))
	}
	if f.Checksum != "" {
		attrs(el, "CHECKSUM", f.Checksum, "CHECKSUMTYPE", "SHA-256")
	}
	attrs(el, "ADMID", strings.Join(f.AdmIDs, " "))
	loc := el.CreateElement("mets:FLocat")
	loctype := f.LocType
	if loctype == "" {
		loctype = "URL"
	}
	attrs(loc, "LOCTYPE", loctype)
	if loctype == "OTHER" {
		loc.CreateAttr("OTHERLOCTYPE", "relative path")
	}
	attrs(loc, "xlink:type", "simple", "xlink:href", f.Href)
}

// write writes div and its descendants under parent.
func (div *Div) write(parent el) {
	el := parent.CreateElement("mets:div")
	attrs(el, "ID", div.ID, "TYPE", div.Type, "LABEL", div.Label,
		"DMDID", strings.Join(div.DmdIDs, " "), "ADMID", strings.Join(div.AdmIDs, " "))
	for _, f := range div.Fptrs {
		el.CreateElement("mets:fptr").CreateAttr("FILEID", f)
	}
	for i := range div.Children {
		div.Children[i].write(el)
	}
}

// attrs sets each non-empty value of the name, value pairs kv on el and
// returns el.
func attrs(e el, kv ...string) el {
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			e.CreateAttr(kv[i], kv[i+1])
		}
	}
	return e
}

// mediaType returns the media type of a Content-Type value, lowercase and
// without parameters ("text/html; charset=utf-8" → "text/html").
func mediaType(ct string) string {
	mt, _, _ := strings.Cut(ct, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// stamp formats t as an xs:dateTime in UTC with second precision.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// stamp is stamp(tm), remembered for the last second asked: the events
// and files of a package mostly share its creation time or their capture
// times, and a Format is an allocation. The string depends on the Unix
// second alone (UTC, no fraction).
func (t *tree) stamp(tm time.Time) string {
	if sec := tm.Unix(); t.stampOK && sec == t.stampSec {
		return t.stampStr
	}
	t.stampSec, t.stampStr, t.stampOK = tm.Unix(), stamp(tm), true
	return t.stampStr
}

// sectionBufs holds the buffers MarshalTo writes each section into before
// handing it to its writer: a section holds a record's MARC, the full
// text of a post included, so a fresh buffer per document grew by
// doubling to the largest section every time (37 of the 565 MB a
// thaumatorium crawl allocated, crawl -memprofile; doc/benchmarks.md).
var sectionBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// lastSectionCap is the capacity of the section buffer put back last:
// the pool loses its buffers to collections between a crawl's documents,
// and a new one was grown by doubling, section after section, to that
// size again.
var lastSectionCap atomic.Int64

// maxPooledSection is the largest buffer sectionBufs keeps: a document of
// one huge section does not pin its buffer for the process's life.
const maxPooledSection = 4 << 20

// putSectionBuf returns b to sectionBufs, emptied, unless it grew past
// maxPooledSection.
func putSectionBuf(b *bytes.Buffer) {
	if b.Cap() > maxPooledSection {
		return
	}
	lastSectionCap.Store(int64(b.Cap()))
	b.Reset()
	sectionBufs.Put(b)
}
