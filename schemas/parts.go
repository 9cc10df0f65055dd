package schemas

import (
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"strings"
)

// wholeUpTo is the size up to which a document is validated whole; a
// larger one is validated in parts (validateParts). helium holds a parsed
// document in about 60 times its size (a 38.5 MB METS of 10 000 comments
// took 2.6 GB), so a whole document of 1 MiB takes some 60 MiB.
var wholeUpTo = 1 << 20

// ValidateReader is Validate of the document r holds, read as a stream:
// a document of up to 1 MiB is validated whole; a larger one in parts
// (below), so that memory is bounded by the largest part, not the
// document: a METS of 10 000 comments is 10 000 small dmdSecs and divs.
func ValidateReader(r io.Reader) []Problem {
	head := make([]byte, max(wholeUpTo+1, 0))
	n, err := io.ReadFull(r, head)
	switch {
	case err == nil:
		return validateParts(bufio.NewReaderSize(io.MultiReader(bytes.NewReader(head), r), 64<<10))
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return validateSmall(head[:n])
	}
	return []Problem{{Message: err.Error()}}
}

// Validating a METS document in parts. Each part is a document of its
// own: the root's start tag as the document has it (with every namespace
// declaration), the part, and what the schema demands around it (a
// structMap of one empty div, and for each IDREF the part names but does
// not define an empty dmdSec of that ID, so that the part's references
// resolve). The parts are each section of the root (metsHdr, each
// dmdSec, amdSec, fileSec, structLink, behaviorSec) and, in a structMap,
// the structMap and each div with its fptrs and mptrs but without its
// child divs (one empty div stands for each run of them, so that order
// stays checked): a structMap of 10 000 nested comments is 10 000 parts.
// What no part can see is checked here across them: the order and number
// of the root's sections (metsHdr? dmdSec* amdSec* fileSec? structLink?
// structMap+ behaviorSec*), no text between them, every ID defined once
// in the document, and every IDREF naming one. Parts are batched (up to
// batchBytes) to spare the validator's cost per document. A problem's
// line is the document's.

// batchBytes is as much as one batch of parts holds before it is
// validated (a variable for tests).
var batchBytes = 256 << 10

// stubNS declares the METS namespace on the elements the parts add.
const stubNS = ` xmlns:bh-stub="` + nsMETS + `"`

const nsMETS = "http://www.loc.gov/METS/"

// section ranks of the root's children, in the order METS demands.
var sectionRank = map[string]int{"metsHdr": 0, "dmdSec": 1, "amdSec": 2, "fileSec": 3, "structLink": 4, "structMap": 5, "behaviorSec": 6}

// idAttrs and refAttrs are the names of the ID and IDREF(S) attributes
// of METS, PREMIS 3 and MARC21slim.
var (
	idAttrs  = map[string]bool{"ID": true, "xmlID": true, "id": true}
	refAttrs = map[string]bool{"ADMID": true, "DMDID": true, "FILEID": true, "STRUCTID": true, "TRANSFORMBEHAVIOR": true,
		"LinkAgentXmlID": true, "LinkEventXmlID": true, "LinkObjectXmlID": true, "LinkPermissionStatementXmlID": true,
		"RelEventXmlID": true, "RelObjectXmlID": true}
)

// part is a part being gathered: its bytes, where its lines are in the
// document, and the IDs it defines and names.
type part struct {
	buf   bytes.Buffer
	nl    int        // line breaks in buf
	lines []lineMark // buf's line → the document's line
	ids   []idAt
	refs  []idAt
	// structMap parts: the element's depth, and whether the last thing
	// written is the empty div standing for child divs.
	depth      int
	stand      bool
	wrapInSMap bool // a div: wrapped in a structMap
}

// lineMark says that from line buf (0-based, counted in the part) on,
// lines are the document's from doc.
type lineMark struct{ buf, doc int }

// idAt is an ID or IDREF and the document's line it is on.
type idAt struct {
	v    string
	line int
}

// add appends raw, which starts at the document's line docLine.
func (p *part) add(raw []byte, docLine int) {
	if n := len(p.lines); n == 0 || p.lines[n-1].doc+(p.nl-p.lines[n-1].buf) != docLine {
		p.lines = append(p.lines, lineMark{p.nl, docLine})
	}
	p.buf.Write(raw)
	p.nl += bytes.Count(raw, []byte("\n"))
}

// splitter walks a document and validates it in parts.
type splitter struct {
	dec       *xml.Decoder
	rec       *recorder
	rootStart []byte // the root's start tag as written
	rootEnd   string
	rootLine  int             // the document's line where the root's start tag ends
	rootSeen  map[string]bool // problems of the root's own tag, reported once
	rootIDs   map[string]bool
	seed      maphash.Seed
	ids       map[uint64]struct{}
	pending   map[string]int // IDREFs naming no ID yet → line
	problems  []Problem
	rank      int         // of the last section
	counts    map[int]int // sections met, by rank
	batch     batch       // sections waiting to be validated
	divs      batch       // structMap parts waiting
	stack     []*part     // open structMap parts
	section   *part       // the root's section being copied, outside a structMap
	secDepth  int         // its depth
	secRank   int         // its rank (-1: not a METS section)
	lastLine  int
}

// batch is parts gathered to be validated as one document.
type batch struct {
	parts []*part
	size  int
}

// recorder is a byte reader that keeps what it reads from mark on.
type recorder struct {
	r    *bufio.Reader
	buf  []byte
	base int64 // offset of buf[0]
}

func (r *recorder) ReadByte() (byte, error) {
	c, err := r.r.ReadByte()
	if err == nil {
		r.buf = append(r.buf, c)
	}
	return c, err
}

func (r *recorder) Read(p []byte) (int, error) { // io.Reader, unused by xml.Decoder given a ByteReader
	if len(p) == 0 {
		return 0, nil
	}
	c, err := r.ReadByte()
	if err != nil {
		return 0, err
	}
	p[0] = c
	return 1, nil
}

// take returns the bytes from offset from to offset to and forgets
// everything before to.
func (r *recorder) take(from, to int64) []byte {
	out := append([]byte(nil), r.buf[from-r.base:to-r.base]...)
	r.buf = append(r.buf[:0], r.buf[to-r.base:]...)
	r.base = to
	return out
}

// validateParts validates the document r holds in parts; one whose root
// is not METS's mets (a MARC collection) is validated whole.
func validateParts(r *bufio.Reader) []Problem {
	if head, _ := r.Peek(64 << 10); !rootIsMETS(head) {
		data, err := io.ReadAll(r)
		if err != nil {
			return []Problem{{Message: err.Error()}}
		}
		return validateWhole(data)
	}
	rec := &recorder{r: r}
	s := &splitter{rec: rec, dec: xml.NewDecoder(rec), seed: maphash.MakeSeed(), ids: map[uint64]struct{}{},
		pending: map[string]int{}, counts: map[int]int{}, rank: -1, rootIDs: map[string]bool{}, rootSeen: map[string]bool{}}
	s.dec.Strict = true
	if err := s.walk(); err != nil {
		return append(s.problems, parseProblemAt(err, s.lastLine))
	}
	s.flush(&s.batch, false)
	s.flush(&s.divs, true)
	if s.counts[sectionRank["structMap"]] == 0 && s.rootStart != nil {
		s.problems = append(s.problems, Problem{Line: s.rootLine, Element: "mets", Message: "missing child element structMap"})
	}
	for ref, line := range s.pending {
		if _, ok := s.ids[s.hash(ref)]; !ok && !s.rootIDs[ref] {
			s.problems = append(s.problems, Problem{Line: line, Message: fmt.Sprintf("IDREF '%s' names no ID of the document", ref)})
		}
	}
	return s.problems
}

// rootIsMETS reports whether the document starting with head has METS's
// mets for its root element (false when head does not reach the root).
func rootIsMETS(head []byte) bool {
	d := xml.NewDecoder(bytes.NewReader(head))
	for {
		tok, err := d.Token()
		if err != nil {
			return false
		}
		if t, ok := tok.(xml.StartElement); ok {
			return t.Name.Space == nsMETS && t.Name.Local == "mets"
		}
	}
}

// parseProblemAt describes a document that is not well-formed.
func parseProblemAt(err error, line int) Problem {
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		line = se.Line
	}
	return Problem{Line: line, Message: "not well-formed: " + err.Error()}
}

func (s *splitter) hash(v string) uint64 { return maphash.String(s.seed, v) }

// walk reads the document token by token.
func (s *splitter) walk() error {
	depth := 0
	for {
		from := s.dec.InputOffset()
		line, _ := s.dec.InputPos()
		tok, err := s.dec.Token()
		if errors.Is(err, io.EOF) {
			if depth > 0 || s.rootStart == nil {
				return io.ErrUnexpectedEOF
			}
			return nil
		}
		if err != nil {
			return err
		}
		if line > 0 {
			s.lastLine = line
		}
		// line, where the last token ended, is where this one starts
		raw := s.rec.take(from, s.dec.InputOffset())
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if !s.start(t, raw, depth, line) {
				return nil // not a METS document: nothing more to say
			}
		case xml.EndElement:
			s.end(t, raw, depth, line)
			depth--
		default:
			s.other(tok, raw, depth, line)
		}
	}
}

// start handles a start tag at depth (the root is 1); false when the
// root is not METS's.
func (s *splitter) start(t xml.StartElement, raw []byte, depth, line int) bool {
	switch {
	case depth == 1:
		if s.rootStart != nil {
			s.problems = append(s.problems, Problem{Line: line, Message: "more than one root element"})
			return false
		}
		if t.Name.Space != nsMETS || t.Name.Local != "mets" {
			s.problems = append(s.problems, Problem{Line: line, Element: t.Name.Local,
				Message: fmt.Sprintf("no matching global declaration for the root element {%s}%s: not a METS document", t.Name.Space, t.Name.Local)})
			return false
		}
		s.rootStart, s.rootLine = raw, line+bytes.Count(raw, []byte("\n")) // where the tag ends, as the validator counts
		s.rootEnd = "</" + rawName(raw) + ">"
		for _, a := range t.Attr {
			if idAttrs[a.Name.Local] {
				s.rootIDs[a.Value] = true
			}
		}
		return true
	case depth == 2:
		s.order(t, line)
		if t.Name.Space == nsMETS && t.Name.Local == "structMap" {
			p := &part{depth: depth}
			s.collect(p, t, line)
			p.add(raw, line)
			s.stack = []*part{p}
			return true
		}
		s.section = &part{}
		s.secDepth = depth
	}
	if s.section != nil {
		s.collect(s.section, t, line)
		s.section.add(raw, line)
		return true
	}
	top := s.stack[len(s.stack)-1]
	if t.Name.Space == nsMETS && t.Name.Local == "div" && depth == top.depth+1 {
		if !top.stand {
			top.add([]byte("<bh-stub:div"+stubNS+"/>"), line)
			top.stand = true
		}
		p := &part{depth: depth, wrapInSMap: true}
		s.collect(p, t, line)
		p.add(raw, line)
		s.stack = append(s.stack, p)
		return true
	}
	top.stand = false
	s.collect(top, t, line)
	top.add(raw, line)
	return true
}

// end handles an end tag at depth.
func (s *splitter) end(t xml.EndElement, raw []byte, depth, line int) {
	switch {
	case depth == 1:
		return
	case s.section != nil:
		s.section.add(raw, line)
		if depth == s.secDepth {
			s.queue(&s.batch, s.section, false)
			s.section = nil
		}
		return
	}
	top := s.stack[len(s.stack)-1]
	top.add(raw, line)
	if depth != top.depth {
		top.stand = false
		return
	}
	s.stack = s.stack[:len(s.stack)-1]
	if top.wrapInSMap {
		s.queue(&s.divs, top, true)
	} else { // the structMap itself
		s.queue(&s.batch, top, false)
	}
}

// other handles text, comments, processing instructions and directives.
func (s *splitter) other(tok xml.Token, raw []byte, depth, line int) {
	switch {
	case depth == 0: // the XML declaration, comments
	case depth == 1:
		if t, ok := tok.(xml.CharData); ok && len(bytes.TrimSpace(t)) > 0 {
			s.problems = append(s.problems, Problem{Line: line, Element: "mets", Message: "character content is not allowed: the element's content is elements only"})
		}
	case s.section != nil:
		s.section.add(raw, line)
	default:
		top := s.stack[len(s.stack)-1]
		if t, ok := tok.(xml.CharData); !ok || len(bytes.TrimSpace(t)) > 0 {
			top.stand = false
		}
		top.add(raw, line)
	}
}

// order checks the place of a section of the root.
func (s *splitter) order(t xml.StartElement, line int) {
	if t.Name.Space != nsMETS {
		return // not a METS element: its part says so
	}
	r, ok := sectionRank[t.Name.Local]
	if !ok {
		return
	}
	once := r == 0 || r == 3 || r == 4
	switch {
	case r < s.rank:
		s.problems = append(s.problems, Problem{Line: line, Element: t.Name.Local, Message: "this element is not expected here: the sections of mets are in the order metsHdr, dmdSec, amdSec, fileSec, structLink, structMap, behaviorSec"})
	case once && s.counts[r] > 0:
		s.problems = append(s.problems, Problem{Line: line, Element: t.Name.Local, Message: "this element is not expected: mets holds at most one"})
	}
	s.counts[r]++
	s.rank = max(s.rank, r)
}

// collect notes the IDs and IDREFs of an element's attributes.
func (s *splitter) collect(p *part, t xml.StartElement, line int) {
	for _, a := range t.Attr {
		switch {
		case idAttrs[a.Name.Local]:
			p.ids = append(p.ids, idAt{strings.TrimSpace(a.Value), line})
		case refAttrs[a.Name.Local]:
			for _, v := range strings.Fields(a.Value) {
				p.refs = append(p.refs, idAt{v, line})
			}
		}
	}
}

// queue adds a finished part to b, validating b first when it is full or
// when the part cannot share a document with b's (a section of another
// rank).
func (s *splitter) queue(b *batch, p *part, divs bool) {
	if b.size+p.buf.Len() > batchBytes || !divs && len(b.parts) > 0 && !batchable(b.parts[0], p) {
		s.flush(b, divs)
	}
	b.parts = append(b.parts, p)
	b.size += p.buf.Len()
	if !divs && !batchable(p, p) {
		s.flush(b, divs)
	}
}

// batchable reports whether parts a and b can be validated in one
// document: both dmdSecs, or both amdSecs (sections METS repeats).
func batchable(a, b *part) bool {
	na, nb := rawName(a.buf.Bytes()), rawName(b.buf.Bytes())
	local := func(n string) string { return n[strings.IndexByte(n, ':')+1:] }
	return local(na) == local(nb) && (local(na) == "dmdSec" || local(na) == "amdSec")
}

// flush validates the parts of b as one document.
func (s *splitter) flush(b *batch, divs bool) {
	if len(b.parts) == 0 || s.rootStart == nil {
		b.parts, b.size = nil, 0
		return
	}
	defined := map[string]bool{}
	for id := range s.rootIDs {
		defined[id] = true
	}
	for _, p := range b.parts {
		for _, id := range p.ids {
			if defined[id.v] && !s.rootIDs[id.v] {
				continue // twice in the batch: the validator says so
			}
			defined[id.v] = true
			h := s.hash(id.v)
			if _, dup := s.ids[h]; dup {
				s.problems = append(s.problems, Problem{Line: id.line, Message: fmt.Sprintf("ID '%s' is defined more than once in the document", id.v)})
			}
			s.ids[h] = struct{}{}
			delete(s.pending, id.v)
		}
	}
	var stubs bytes.Buffer
	stubbed := map[string]bool{}
	for _, p := range b.parts {
		for _, ref := range p.refs {
			if defined[ref.v] || stubbed[ref.v] || !ncName(ref.v) {
				continue
			}
			stubbed[ref.v] = true
			if _, ok := s.ids[s.hash(ref.v)]; !ok {
				if _, seen := s.pending[ref.v]; !seen {
					s.pending[ref.v] = ref.line
				}
			}
			stubs.WriteString(`<bh-stub:dmdSec` + stubNS + ` ID="` + ref.v + `"/>`)
		}
	}
	var doc bytes.Buffer
	doc.Write(s.rootStart)
	first := rawLocal(b.parts[0].buf.Bytes())
	if first != "metsHdr" {
		doc.Write(stubs.Bytes())
	}
	if divs {
		doc.WriteString("<bh-stub:structMap" + stubNS + "><bh-stub:div" + stubNS + ">")
	}
	if first == "behaviorSec" {
		doc.WriteString(dummyStructMap)
	}
	var marks []lineMark
	at := bytes.Count(doc.Bytes(), []byte("\n"))
	for _, p := range b.parts {
		doc.WriteByte('\n')
		at++
		for _, m := range p.lines {
			marks = append(marks, lineMark{at + m.buf, m.doc})
		}
		doc.Write(p.buf.Bytes())
		at += p.nl
	}
	if first == "metsHdr" {
		doc.Write(stubs.Bytes())
	}
	if divs {
		doc.WriteString("</bh-stub:div></bh-stub:structMap>")
	} else if first != "structMap" && first != "behaviorSec" {
		doc.WriteString(dummyStructMap)
	}
	doc.WriteString(s.rootEnd)
	b.parts, b.size = nil, 0
	for _, p := range validateWhole(doc.Bytes()) {
		if len(marks) > 0 && p.Line > 0 && p.Line-1 < marks[0].buf { // the root's own tag, in every part
			key := p.Element + "\x00" + p.Message
			if s.rootSeen[key] {
				continue
			}
			s.rootSeen[key] = true
			p.Line = s.rootLine
		} else {
			p.Line = docLine(marks, p.Line)
		}
		s.problems = append(s.problems, p)
	}
}

// dummyStructMap is the structMap a part that is none is validated with.
const dummyStructMap = "<bh-stub:structMap" + stubNS + "><bh-stub:div" + stubNS + "/></bh-stub:structMap>"

// docLine maps a line of a part's document (1-based) to the document's.
func docLine(marks []lineMark, line int) int {
	l := line - 1
	for i := len(marks) - 1; i >= 0; i-- {
		if marks[i].buf <= l {
			return marks[i].doc + l - marks[i].buf
		}
	}
	if len(marks) > 0 {
		return marks[0].doc
	}
	return line
}

// rawName returns the name of the start tag raw begins with, as written.
func rawName(raw []byte) string {
	raw = bytes.TrimPrefix(raw, []byte("<"))
	end := bytes.IndexAny(raw, " \t\r\n/>")
	if end < 0 {
		return string(raw)
	}
	return string(raw[:end])
}

// rawLocal is rawName without its prefix.
func rawLocal(raw []byte) string {
	n := rawName(raw)
	return n[strings.IndexByte(n, ':')+1:]
}

// ncName reports whether v can be an xsd:ID (an NCName).
func ncName(v string) bool {
	if v == "" {
		return false
	}
	for i, r := range v {
		switch {
		case r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= 0xC0:
		case i > 0 && (r == '-' || r == '.' || r >= '0' && r <= '9' || r == 0xB7):
		default:
			return false
		}
	}
	return true
}
