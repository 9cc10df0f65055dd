package aip

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/marc"
	"github.com/blogharvest/blogharvest/mets"
	"github.com/google/uuid"
)

// Profile is the METS PROFILE of every AIP: the profile doc/mets-profile.md
// describes (what each section holds).
const Profile = "https://github.com/blogharvest/blogharvest/blob/main/doc/mets-profile.md"

// IDs of the package's own amdSec, its PREMIS agents and package events.
const (
	amdPackage    = "amd-package"
	objectPackage = "object-package"
	agentSoftware = "agent-software"
	agentOrg      = "agent-organization"
	agentFormats  = "agent-siegfried"
	eventDigest   = "event-digest"
	eventValidate = "event-validation"
	eventPackage  = "event-package"
)

// groupOrder is the order of the fileSec groups.
var groupOrder = []string{"original", "rendered", "media", "metadata"}

// ObjID returns the METS OBJID of version n of the record at permalink:
// urn:uuid: and the name-based (SHA-1, version 5) UUID of "<permalink>#v<n>"
// in the URL namespace.
func ObjID(permalink string, n int) string {
	return urnSHA1(uuid.NameSpaceURL, permalink+"#"+versionName(n))
}

// RecordID returns the version-independent identifier of the record at
// permalink, the same for all its AIP versions: urn:uuid: and the
// name-based (version 5) UUID of the permalink in the URL namespace. Each
// AIP names it in a metsHdr altRecordID; an Entry AIP names its blog's as
// the record it is part of.
func RecordID(permalink string) string {
	return urnSHA1(uuid.NameSpaceURL, permalink)
}

// urn returns a PREMIS identifier of type URN.
func urn(v string) mets.Identifier { return mets.Identifier{Type: "URN", Value: v} }

// ids names the PREMIS identifiers of one package: name-based UUIDs in the
// namespace of the package's OBJID, so every identifier is globally unique
// and the same package always gets the same ones.
type ids struct{ ns uuid.UUID }

// marcElement returns rec as the element tree its MARCXML
// (marc.Record.MarshalMARCXML, whose refusals marc.Record.CheckXML has
// ruled out) holds: the METS writer takes the tree instead of parsing that
// XML back (TestMARCElementIsItsXML).
func marcElement(rec *marc.Record) *mets.Element {
	return new(marcArena).element(rec)
}

// marcArena holds the slices marcElement carves a record's tree from, for
// reuse by the next record once the tree is written: the comments of a
// thread are written one after another (Document.DmdSource), each tree
// dropped once its dmdSec is written, and their slabs were a tenth of
// the bytes a bag allocated (aip's BenchmarkWriteEntry, -memprofile).
type marcArena struct {
	els   []mets.Element
	attrs []mets.Attr
	kids  []*mets.Element
}

// element is marcElement, carving the tree from a's slices (grown when
// too small): the tree a returned before is overwritten.
func (a *marcArena) element(rec *marc.Record) *mets.Element {
	// The tree's elements, attributes and child lists are carved out of
	// three slices made to size, not allocated one by one: a record of
	// some forty fields was 570 allocations a bag (aip's
	// BenchmarkWriteEntry, -memprofile). Each part is cut with its
	// capacity, so no append reaches into the next.
	nEl, nAttr := 1+len(rec.Control)+len(rec.Data), len(rec.Control)+3*len(rec.Data)
	for _, f := range rec.Data {
		nEl += len(f.Subfields)
		nAttr += len(f.Subfields)
	}
	if cap(a.els) < nEl+1 {
		a.els = make([]mets.Element, 0, nEl+1)
	}
	if cap(a.attrs) < nAttr {
		a.attrs = make([]mets.Attr, 0, nAttr)
	}
	if cap(a.kids) < nEl {
		a.kids = make([]*mets.Element, 0, nEl)
	}
	els, attrs, kids := a.els[:0], a.attrs[:0], a.kids[:0]
	el := func(name, text string, a ...mets.Attr) *mets.Element {
		at := len(attrs)
		for _, x := range a {
			attrs = append(attrs, mets.Attr{Name: x.Name, Value: marc.XMLSafe(x.Value)})
		}
		els = append(els, mets.Element{Name: name, Attrs: attrs[at:len(attrs):len(attrs)], Text: marc.XMLSafe(text)})
		return &els[len(els)-1]
	}
	children := func(n int) []*mets.Element {
		k := kids[len(kids) : len(kids) : len(kids)+n]
		kids = kids[:len(kids)+n]
		return k
	}
	root := &mets.Element{Name: "record", Attrs: []mets.Attr{{Name: "xmlns", Value: marc.Namespace}}}
	root.Children = children(1 + len(rec.Control) + len(rec.Data))
	root.Children = append(root.Children, el("leader", rec.Leader))
	for _, f := range rec.Control {
		root.Children = append(root.Children, el("controlfield", f.Value, mets.Attr{Name: "tag", Value: f.Tag}))
	}
	for _, f := range rec.Data {
		df := el("datafield", "", mets.Attr{Name: "tag", Value: f.Tag}, mets.Attr{Name: "ind1", Value: string(f.Ind1)},
			mets.Attr{Name: "ind2", Value: string(f.Ind2)})
		df.Children = children(len(f.Subfields))
		for _, sf := range f.Subfields {
			df.Children = append(df.Children, el("subfield", sf.Value, mets.Attr{Name: "code", Value: string(sf.Code)}))
		}
		root.Children = append(root.Children, df)
	}
	return root
}

// of returns the identifier of what name says, e.g. a payload path.
func (n ids) of(name string) mets.Identifier {
	return urn(urnSHA1(n.ns, name))
}

// urnSHA1 returns "urn:uuid:" and the name-based UUID of name in the
// namespace ns, as uuid.NewSHA1(ns, []byte(name)).String() gives it (RFC
// 4122 version 5: SHA-1 of the namespace and the name, version and
// variant bits set), in one allocation where that took five (a SHA-1
// state, the name's bytes, its sum, the string, the concatenation); a
// package names some sixty identifiers so (TestURNSHA1IsUUIDs).
func urnSHA1(ns uuid.UUID, name string) string {
	var buf [256]byte
	in := buf[:0]
	if len(ns)+len(name) > len(buf) {
		in = make([]byte, 0, len(ns)+len(name))
	}
	in = append(append(in, ns[:]...), name...)
	sum := sha1.Sum(in)
	var u uuid.UUID
	copy(u[:], sum[:])
	u[6] = u[6]&0x0f | 5<<4 // version 5
	u[8] = u[8]&0x3f | 0x80 // variant RFC 4122
	const prefix = "urn:uuid:"
	var out [len(prefix) + 36]byte
	copy(out[:], prefix)
	const hexDigits = "0123456789abcdef"
	j := len(prefix)
	for i, b := range u {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out[j] = '-'
			j++
		}
		out[j], out[j+1] = hexDigits[b>>4], hexDigits[b&0x0f]
		j += 2
	}
	return string(out[:])
}

// agentID returns the identifier of an agent: the same in every package.
func agentID(kind, name string) mets.Identifier {
	return urn(urnSHA1(uuid.NameSpaceURL, "urn:blogharvest:agent:"+kind+":"+name))
}

// metsDocument builds the METS document of the package from its payload
// (METS.xml itself excluded) and MARC records: head, the Blog's or the
// Entry's, and the comments', made, checked and linted (problems added to
// lint) one at a time as Marshal writes them (mets.Document.DmdSource), so
// that a thread of any length is never held as records.
func (p *pkg) metsDocument(e env, head []record, lint *[]error) (*mets.Document, error) {
	objID := ObjID(p.permalink, p.version)
	d := &mets.Document{
		ObjID: objID, Type: p.kind, Created: e.now, Profile: Profile,
		Label: fmt.Sprintf("%s/%s/%s", p.blogID, p.key, versionName(p.version)),
		Agents: []mets.Agent{
			{Role: "CREATOR", Type: "OTHER", OtherType: "SOFTWARE", Name: joinNonEmpty(e.software, e.version)},
			{Role: "CUSTODIAN", Type: "ORGANIZATION", Name: e.org},
		},
		AltRecordIDs: []mets.AltRecordID{{Type: "VERSION-INDEPENDENT", Value: RecordID(p.recordOf())}},
	}
	for _, r := range head {
		if err := r.rec.CheckXML(); err != nil {
			return nil, fmt.Errorf("%s: %w", r.dmdID, err)
		}
		d.DmdSecs = append(d.DmdSecs, mets.DmdSec{ID: r.dmdID, MDType: "MARC", Label: r.label, Element: marcElement(r.rec)})
	}
	if p.entry != nil && len(head) > 0 && len(p.entry.Comments) > 0 {
		d.DmdSource = func(yield func(mets.DmdSec) error) error {
			var arena marcArena // each comment's tree is written before the next is made
			for i := range p.entry.Comments {
				r := p.commentRecord(i, e.now, e.orgCode)
				if err := r.rec.CheckXML(); err != nil {
					return fmt.Errorf("%s: %w", r.dmdID, err)
				}
				for _, pr := range marc.Lint(r.rec) {
					*lint = append(*lint, fmt.Errorf("%s: %w", r.dmdID, pr))
				}
				if err := yield(mets.DmdSec{ID: r.dmdID, MDType: "MARC", Label: r.label, Element: arena.element(r.rec)}); err != nil {
					return err
				}
			}
			return nil
		}
	}
	n := ids{ns: uuid.MustParse(strings.TrimPrefix(objID, "urn:uuid:"))}
	files, objects := p.addFileMetadata(d, e, n)
	d.AmdSecs = append(d.AmdSecs, p.packageAmdSec(e, n, objects))
	d.StructMap = p.structMap(head, files)
	return d, nil
}

// addFileMetadata adds an amdSec (PREMIS object, capture or creation event,
// format identification event) and a METS file for each payload item. It
// returns the file IDs and object IDs in payload order.
func (p *pkg) addFileMetadata(d *mets.Document, e env, n ids) (files, objects []string) {
	groups := map[string][]mets.File{}
	sources := map[string]mets.Identifier{} // URL of a captured page → its object
	page := p.firstPage()                   // the page the requisites are for
	for _, it := range p.items {
		if it.captured() && it.file.Role == blogharvest.RolePage {
			sources[it.file.URL] = n.of(it.rel)
		}
	}
	d.AmdSecs = slices.Grow(d.AmdSecs, len(p.items)+1) // the package's own amdSec follows
	files, objects = make([]string, 0, len(p.items)), make([]string, 0, len(p.items))
	detail := "" // the format events' detail, the same for every file: made once
	for i, it := range p.items {
		num := seqNum(i + 1)
		amd := mets.AmdSec{ID: "amd-" + num}
		obj := "object-" + num
		fm, idErr := it.identify()
		if detail == "" { // after an identify: the signatures are loaded then
			detail = formatDetail()
		}
		note := formatNote(fm)
		o := it.premisObject(obj, n.of(it.rel), fm, note)
		ev := it.provenanceEvent(num, obj, n, e.now)
		switch {
		case !it.captured():
			o.Relationships = it.sourceRelationships(sources)
		case it.file == page:
			o.Relationships = p.embedRelationships()
		}
		amd.Objects = []mets.Object{o}
		amd.Events = []mets.Event{ev, formatEventOf(num, obj, it, n, fm, note, detail, idErr, e.now)}
		d.AmdSecs = append(d.AmdSecs, amd)
		fileID := "file-" + strings.TrimPrefix(o.Identifier.Value, "urn:uuid:")
		files, objects = append(files, fileID), append(objects, obj)
		groups[it.group] = append(groups[it.group], mets.File{ID: fileID, MimeType: it.declaredType(),
			Size: it.size, Checksum: it.sha256, Created: capturedAt(it), Href: it.rel, AdmIDs: []string{amd.ID}})
	}
	for _, g := range groupOrder {
		if len(groups[g]) > 0 {
			d.FileGroups = append(d.FileGroups, mets.FileGroup{Use: g, Files: groups[g]})
		}
	}
	return files, objects
}

// seqNum returns n in decimal, zero-padded to four digits as
// fmt.Sprintf("%04d", n) gives it, without fmt's work.
func seqNum(n int) string {
	s := strconv.Itoa(n)
	if len(s) >= 4 {
		return s
	}
	return "0000"[len(s):] + s
}

// declaredType returns the media type the METS declares for the item:
// its own, but a feed item excerpt the harvest copied out of a feed is
// plain XML (or JSON), not a feed.
func (it *item) declaredType() string {
	mt := orOctets(mediaTypeOf(it.mime))
	if it.captured() || it.file == nil || it.file.Role != blogharvest.RoleFeed {
		return mt
	}
	if strings.HasSuffix(mt, "json") {
		return "application/json"
	}
	return "application/xml"
}

// captured reports whether the item is bytes a server sent (an HTTP
// status is recorded), as opposed to a file the software made: a rendered
// DOM, a screenshot, a feed item excerpt, learned rules, logs.
func (it *item) captured() bool { return it.file != nil && it.file.Status != 0 }

// premisObject describes the item as a PREMIS file object with its
// identifier and PRONOM format (note: formatNote of fm).
func (it *item) premisObject(id string, ident mets.Identifier, fm format, note string) mets.Object {
	o := mets.Object{ID: id, Identifier: ident, SHA256: it.sha256, Size: it.size,
		FormatName: it.declaredType(), PUID: fm.puid, FormatNote: note}
	if f := it.file; f != nil {
		if it.captured() {
			o.OriginalName = f.URL
		}
		o.Properties = append(o.Properties, mets.Property{Type: "role", Value: string(f.Role)})
		if f.Status != 0 {
			o.Properties = append(o.Properties, mets.Property{Type: "HTTP status", Value: strconv.Itoa(f.Status)})
		}
		if f.Reused != "" {
			o.Properties = append(o.Properties, mets.Property{Type: reusedPropType, Value: f.Reused})
		}
		if mt := f.MediaType; mt != "" && mt != it.declaredType() {
			o.Properties = append(o.Properties, mets.Property{Type: "Content-Type", Value: mt})
		}
	}
	if it.warcID != "" { // the tie to the WARC (warcfile.go)
		o.Properties = append(o.Properties, mets.Property{Type: warcPropType, Value: it.warcID})
	}
	return o
}

// formatNote says what PRONOM calls the format and why siegfried chose it.
func formatNote(fm format) string {
	s := "PRONOM (siegfried): "
	if fm.puid == "" {
		return joinSep(s+"no format identified", fm.basis, "; ")
	}
	s += fm.puid + " " + fm.name
	if fm.version != "" {
		s += " " + fm.version
	}
	if fm.basis != "" {
		s += "; " + fm.basis
	}
	return s
}

// provenanceEvent returns the capture event of a captured file, or the
// creation event of a file the software made.
func (it *item) provenanceEvent(num, obj string, n ids, now time.Time) mets.Event {
	agents := []mets.AgentLink{{ID: agentSoftware, Role: "executing program"}}
	if !it.captured() {
		date := now
		if it.file != nil && !it.file.Captured.IsZero() {
			date = it.file.Captured
		}
		return mets.Event{ID: "event-creation-" + num, Identifier: n.of("creation " + it.rel), Type: mets.EventCreation,
			Date: date, Detail: it.creationDetail(), Outcome: "success", Objects: []string{obj}, Agents: agents}
	}
	f := it.file
	ev := mets.Event{ID: "event-capture-" + num, Identifier: n.of("capture " + it.rel), Type: mets.EventCapture,
		Date: f.Captured, Outcome: "success", Objects: []string{obj}, Agents: agents,
		OutcomeDetail: "HTTP " + strconv.Itoa(f.Status)}
	if f.URL != "" {
		ev.Detail = "retrieved " + f.URL
	}
	if f.Reused != "" { // not fetched again: the capture of an earlier version (doc/mets-profile.md)
		ev.Detail = joinSep(ev.Detail, "capture reused from WARC record "+f.Reused+" of an earlier version of this AIP", "; ")
	}
	return ev
}

// creationDetail says how the software made a file.
func (it *item) creationDetail() string {
	if it.file == nil && it.rel == fieldsLog {
		return "field provenance: how each field of the records was extracted (feed, learned rule, structured data, heuristic …)"
	}
	if it.file == nil {
		return "written by the packager: " + it.rel
	}
	switch it.file.Role {
	case blogharvest.RoleRendered:
		return "DOM serialised by headless Chromium after the page's scripts ran"
	case blogharvest.RoleScreenshot:
		return "full-page screenshot taken by headless Chromium"
	case blogharvest.RoleFeed:
		return "the entry's item copied out of the feed " + it.file.URL + ", with the feed's namespace declarations"
	case blogharvest.RoleLog:
		return "extraction rules learned from pairs of feed items and pages"
	case blogharvest.RoleLedger:
		return "crawl ledger: every URL the crawl met and its fate"
	case blogharvest.RoleState:
		return "what the crawl left for the next update: the comment APIs it watches, with their validators"
	}
	return "made by the harvest (" + string(it.file.Role) + ")"
}

// embedRelationships returns the relationships of the package's page to
// the requisites it embeds: dependency / requires, by URL (the outlinks of
// its metadata record; replay finds each in the requisites packages, or in
// the package's own WARC for an Entry's own pictures).
func (p *pkg) embedRelationships() []mets.Relationship {
	var rels []mets.Relationship
	for _, l := range p.embedLinks() {
		rels = append(rels, mets.Relationship{Type: mets.RelDependency, SubType: mets.RelRequires,
			Related: mets.Identifier{Type: "URI", Value: l.URL}})
	}
	return rels
}

// sourceRelationships returns the derivation relationship of a file the
// software made from a captured resource: to the captured page of the same
// package when it holds it, otherwise to the source's URL.
func (it *item) sourceRelationships(pages map[string]mets.Identifier) []mets.Relationship {
	f := it.file
	if f == nil || f.URL == "" {
		return nil
	}
	src, ok := pages[f.URL]
	if !ok || f.Role == blogharvest.RoleFeed {
		src = mets.Identifier{Type: "URI", Value: f.URL}
	}
	return []mets.Relationship{{Type: mets.RelDerivation, SubType: mets.RelHasSource, Related: src}}
}

// formatEvent returns the format identification event of an item: its
// detail says what was done (identification by PRONOM signatures, which
// ones), its outcome what came of it ("success": a format; "no match":
// none; "failure": identification failed with err), and its outcome
// detail the format or why none.
func formatEvent(num, obj string, it *item, n ids, fm format, err error, now time.Time) mets.Event {
	return formatEventOf(num, obj, it, n, fm, formatNote(fm), formatDetail(), err, now)
}

// formatDetail is the detail of a format identification event: the
// signatures used.
func formatDetail() string {
	return joinSep("identification by PRONOM signatures", signatures(), ", ")
}

// formatEventOf is formatEvent given formatNote(fm) and formatDetail(),
// which addFileMetadata makes once a file and once a package.
func formatEventOf(num, obj string, it *item, n ids, fm format, note, detail string, err error, now time.Time) mets.Event {
	ev := mets.Event{ID: "event-format-" + num, Identifier: n.of("format identification " + it.rel),
		Type: mets.EventFormatID, Date: now, Detail: detail, Outcome: "success",
		OutcomeDetail: note, Objects: []string{obj},
		Agents: []mets.AgentLink{{ID: agentFormats, Role: "executing program"}}}
	switch {
	case err != nil:
		ev.Outcome, ev.OutcomeDetail = "failure", oneLine(err.Error())
	case fm.puid == "":
		ev.Outcome = "no match"
	}
	return ev
}

// packageAmdSec returns the amdSec of the package as a whole: the record
// as an intellectual entity with its relationships, the rights the blog
// declares, the digest, validation and packaging events, and the agents.
func (p *pkg) packageAmdSec(e env, n ids, objects []string) mets.AmdSec {
	agents := []mets.AgentLink{{ID: agentSoftware, Role: "executing program"}, {ID: agentOrg, Role: "implementer"}}
	entity := mets.Object{ID: objectPackage, Entity: true, Identifier: urn(ObjID(p.permalink, p.version)),
		OriginalName: p.permalink, Relationships: p.relationships()}
	return mets.AmdSec{
		ID:      amdPackage,
		Objects: []mets.Object{entity},
		Rights:  p.rights(n),
		Events: []mets.Event{
			{ID: eventDigest, Identifier: n.of("event digest"), Type: mets.EventMessageDigest, Date: e.now,
				Detail: "SHA-256 and SHA-512 of every payload file", Outcome: "success", Objects: objects, Agents: agents},
			{ID: eventValidate, Identifier: n.of("event validation"), Type: mets.EventValidation, Date: e.now,
				Detail: validationDetail(e.schemaChecked), Outcome: "success", Objects: []string{objectPackage}, Agents: agents},
			{ID: eventPackage, Identifier: n.of("event package"), Type: mets.EventPackageCreation, Date: e.now,
				Detail: "BagIt 1.0 bag, SHA-256 and SHA-512 manifests", Outcome: "success",
				Objects: append([]string{objectPackage}, objects...), Agents: agents},
		},
		Agents: []mets.PremisAgent{
			{ID: agentSoftware, Identifier: agentID("software", joinNonEmpty(e.software, e.version)), Name: e.software,
				Type: "software", Version: e.version, Note: e.build},
			{ID: agentOrg, Identifier: agentID("organization", e.org), Name: e.org, Type: "organization"},
			{ID: agentFormats, Identifier: agentID("software", SiegfriedVersion), Name: "siegfried", Type: "software",
				Version: SiegfriedVersion[len("siegfried "):]},
		},
	}
}

// validationDetail is the detail of a package's validation event: what
// was checked when it was written (validation.go).
func validationDetail(schemas bool) string {
	if schemas {
		return "METS 1.12.1, XLink, MARC21slim 1.2 and PREMIS 3.0 schemas; MARC lint; record checks"
	}
	return "record checks (XML characters, comment links); METS IDs and references; MARC lint; METS structure as tested against the METS 1.12.1, XLink, MARC21slim 1.2 and PREMIS 3.0 schemas"
}

// relationships returns the package's relationships: an Entry is part of
// its blog (the blog's version-independent RecordID, and the OBJID of the
// blog's newest AIP when one existed as the entry was written); version N
// replaces version N-1.
func (p *pkg) relationships() []mets.Relationship {
	var rels []mets.Relationship
	if p.entry != nil && p.entry.ChildOf != "" {
		rels = append(rels, mets.Relationship{Type: mets.RelStructural, SubType: mets.RelIsPartOf,
			Related: urn(RecordID(p.entry.ChildOf))})
		if p.blogVersion > 0 {
			rels = append(rels, mets.Relationship{Type: mets.RelStructural, SubType: mets.RelIsPartOf,
				Related: urn(ObjID(p.entry.ChildOf, p.blogVersion))})
		}
	}
	for _, v := range p.requisiteVersions() {
		rels = append(rels, mets.Relationship{Type: mets.RelDependency, SubType: mets.RelRequires,
			Related: urn(ObjID(p.requisitesURL, v))})
	}
	for _, id := range p.reusedIn() {
		rels = append(rels, mets.Relationship{Type: mets.RelDependency, SubType: mets.RelRequires, Related: urn(id)})
	}
	if p.version > 1 && p.kind != kindRequisites { // requisites versions add to each other
		rels = append(rels, mets.Relationship{Type: mets.RelReplacement, SubType: mets.RelReplaces,
			Related: urn(ObjID(p.replacedPermalink(), p.version-1))})
	}
	return rels
}

// reusedIn returns the OBJIDs of the earlier versions whose WARCs hold
// the records of the captures p reuses (File.ReusedIn), each once, in
// order: p's WARC does not copy them, replay finds them there.
func (p *pkg) reusedIn() []string {
	var ids []string
	for _, it := range p.items {
		if f := it.file; f != nil && f.Reused != "" && len(f.Exchanges) == 0 && f.ReusedIn != "" && !slices.Contains(ids, f.ReusedIn) {
			ids = append(ids, f.ReusedIn)
		}
	}
	slices.Sort(ids)
	return ids
}

// recordOf returns the URL whose RecordID names p's record in all its
// versions: recordURL, else the permalink.
func (p *pkg) recordOf() string {
	if p.recordURL != "" {
		return p.recordURL
	}
	return p.permalink
}

// replacedPermalink returns the permalink the version p replaces was
// written under (a post that moved was written under its old URL).
func (p *pkg) replacedPermalink() string {
	if p.prevPermalink != "" {
		return p.prevPermalink
	}
	return p.permalink
}

// rights returns the rights statements the record declares: the blog's
// copyright and license (from its feed), an entry's access restriction.
func (p *pkg) rights(n ids) []mets.Rights {
	var rs []mets.Rights
	on := []string{objectPackage}
	if b := p.blog; b != nil {
		if b.Copyright != "" {
			rs = append(rs, mets.Rights{ID: "rights-copyright", Basis: "copyright", CopyrightStatus: "copyrighted",
				Jurisdiction: b.LocationCountry, Terms: b.Copyright, Note: "as the blog declares it", Objects: on})
		}
		if b.License != "" {
			r := mets.Rights{ID: "rights-license", Basis: "license", Note: "as the blog declares it", Objects: on}
			if strings.HasPrefix(b.License, "http://") || strings.HasPrefix(b.License, "https://") {
				r.LicenseURI = b.License
			} else {
				r.Terms = b.License
			}
			rs = append(rs, r)
		}
		for i, kv := range [][2]string{{"ownership rights", b.OwnershipRights}, {"distribution rights", b.DistributionRights},
			{"access rights", b.AccessRights}} {
			if kv[1] != "" {
				rs = append(rs, mets.Rights{ID: "rights-other-" + strconv.Itoa(i+1), Basis: "other", Terms: kv[0], Note: kv[1], Objects: on})
			}
		}
	}
	if e := p.entry; e != nil && e.AccessRestriction != "" {
		rs = append(rs, mets.Rights{ID: "rights-access", Basis: "other", Terms: "access restriction",
			Note: e.AccessRestriction, Objects: on})
	}
	for i := range rs {
		rs[i].Identifier = n.of("rights " + rs[i].ID)
	}
	return rs
}

// structMap returns the root div (Blog or Entry) with the comments nested
// as they answer each other; comments whose parent is unknown sit at the top.
func (p *pkg) structMap(head []record, files []string) mets.Div {
	if len(head) == 0 { // a requisites package: files only
		return mets.Div{ID: "div-requisites", Type: p.kind, Label: p.permalink, AdmIDs: []string{amdPackage}, Fptrs: files}
	}
	root := mets.Div{ID: "div-" + head[0].dmdID[len("dmd-"):], Type: p.kind, Label: p.permalink,
		DmdIDs: []string{head[0].dmdID}, AdmIDs: []string{amdPackage}, Fptrs: files}
	if p.entry == nil {
		return root
	}
	comments := p.entry.Comments
	children := map[string][]*blogharvest.Comment{}
	known := map[string]bool{}
	for i := range comments {
		known[comments[i].ID] = true
	}
	for i := range comments {
		c := &comments[i]
		parent := c.ParentID
		if !known[parent] {
			parent = ""
		}
		children[parent] = append(children[parent], c)
	}
	root.Children = commentDivs(children, "")
	return root
}

// commentDivs returns the divs of the comments answering parent ("" for
// the entry), each with its own answers below it.
func commentDivs(children map[string][]*blogharvest.Comment, parent string) []mets.Div {
	var divs []mets.Div
	for _, c := range children[parent] {
		label := c.URL
		if label == "" {
			label = c.ID
		}
		divs = append(divs, mets.Div{ID: "div-comment-" + shortHash(c.ID), Type: "Comment", Label: label,
			DmdIDs: []string{commentDmdID(c.ID)}, Children: commentDivs(children, c.ID)})
	}
	return divs
}

// shortHash returns 12 hex digits of sha256(s).
func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:6])
}

func orOctets(mt string) string {
	if mt == "" {
		return "application/octet-stream"
	}
	return mt
}

func mediaTypeOf(ct string) string { return mediaType(ct) }

func joinNonEmpty(a, b string) string {
	if b == "" {
		return a
	}
	return a + " " + b
}

// capturedAt returns the capture time of a captured item, zero otherwise.
func capturedAt(it *item) (t time.Time) {
	if it.captured() {
		t = it.file.Captured
	}
	return t
}
