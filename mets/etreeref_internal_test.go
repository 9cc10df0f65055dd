package mets

// The METS writer as it was before xmltree.go: the same document built as
// an etree tree, indented and written by etree. TestMarshalIsEtrees holds
// Marshal to its bytes.

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/beevik/etree"
)

// Marshal returns d as an indented METS 1.12.1 document with an XML
// declaration. The output depends only on d: the same Document always yields
// the same bytes. It fails when Check does, or when a DmdSec's XML is not a
// single well-formed element.
func (d *Document) marshalEtree() ([]byte, error) {
	if err := d.Check(); err != nil {
		return nil, fmt.Errorf("mets: %w", err)
	}
	doc := etree.NewDocument()
	doc.CreateProcInst("xml", `version="1.0" encoding="UTF-8"`)
	root := d.rootEtree(doc)
	d.writeHdrEtree(root)
	for _, m := range d.DmdSecs {
		if err := writeDmdSecEtree(root, m); err != nil {
			return nil, err
		}
	}
	m := identifiers(d.AmdSecs)
	for i := range d.AmdSecs {
		d.AmdSecs[i].writeEtree(root, m)
	}
	writeFileSecEtree(root, d.FileGroups)
	logical := root.CreateElement("mets:structMap")
	attrsEtree(logical, "TYPE", "logical", "ID", LogicalMapID, "LABEL", "records")
	d.StructMap.writeEtree(logical)
	physical := root.CreateElement("mets:structMap")
	attrsEtree(physical, "TYPE", "physical", "ID", PhysicalMapID, "LABEL", "files")
	d.physicalDiv().writeEtree(physical)
	doc.IndentWithSettings(&etree.IndentSettings{Spaces: 2, PreserveLeafWhitespace: true})
	var buf bytes.Buffer
	if _, err := doc.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("mets: write: %w", err)
	}
	return buf.Bytes(), nil
}

// root creates the mets element with every namespace the document uses.
func (d *Document) rootEtree(doc *etree.Document) *etree.Element {
	root := doc.CreateElement("mets:mets")
	root.CreateAttr("xmlns:mets", NSMETS)
	root.CreateAttr("xmlns:premis", NSPREMIS)
	root.CreateAttr("xmlns:xlink", NSXLink)
	root.CreateAttr("xmlns:xsi", NSXSI)
	root.CreateAttr("xsi:schemaLocation", SchemaLocation)
	attrsEtree(root, "OBJID", d.ObjID, "LABEL", d.Label, "TYPE", d.Type, "PROFILE", d.Profile)
	return root
}

// writeHdr writes metsHdr with the creation date and the agents.
func (d *Document) writeHdrEtree(root *etree.Element) {
	hdr := root.CreateElement("mets:metsHdr")
	hdr.CreateAttr("CREATEDATE", stamp(d.Created))
	for _, a := range d.Agents {
		ag := hdr.CreateElement("mets:agent")
		attrsEtree(ag, "ROLE", a.Role, "TYPE", a.Type, "OTHERTYPE", a.OtherType)
		ag.CreateElement("mets:name").SetText(a.Name)
		for _, n := range a.Notes {
			ag.CreateElement("mets:note").SetText(n)
		}
	}
	for _, a := range d.AltRecordIDs {
		attrsEtree(hdr.CreateElement("mets:altRecordID"), "TYPE", a.Type).SetText(a.Value)
	}
}

// writeDmdSec embeds m.Element, or else m.XML parsed, in
// dmdSec/mdWrap/xmlData.
func writeDmdSecEtree(root *etree.Element, m DmdSec) error {
	var el *etree.Element
	if m.Element != nil {
		el = m.Element.treeEtree()
	} else {
		inner := etree.NewDocument()
		if err := inner.ReadFromBytes(m.XML); err != nil {
			return fmt.Errorf("mets: dmdSec %s: %w", m.ID, err)
		}
		el = inner.Root()
		if el == nil || len(inner.ChildElements()) != 1 {
			return fmt.Errorf("mets: dmdSec %s: XML must hold exactly one root element", m.ID)
		}
	}
	sec := root.CreateElement("mets:dmdSec")
	sec.CreateAttr("ID", m.ID)
	wrap := sec.CreateElement("mets:mdWrap")
	attrsEtree(wrap, "MDTYPE", m.MDType, "OTHERMDTYPE", m.OtherMDType, "LABEL", m.Label)
	wrap.CreateElement("mets:xmlData").AddChild(el)
	return nil
}

// tree returns e as an etree element.
func (e *Element) treeEtree() *etree.Element {
	el := etree.NewElement(e.Name)
	for _, a := range e.Attrs {
		el.CreateAttr(a.Name, a.Value)
	}
	if e.Text != "" {
		el.SetText(e.Text)
	}
	for _, c := range e.Children {
		el.AddChild(c.treeEtree())
	}
	return el
}

// writeFileSec writes the file groups; nothing when there are none.
func writeFileSecEtree(root *etree.Element, groups []FileGroup) {
	if len(groups) == 0 {
		return
	}
	sec := root.CreateElement("mets:fileSec")
	for _, g := range groups {
		grp := sec.CreateElement("mets:fileGrp")
		grp.CreateAttr("USE", g.Use)
		for _, f := range g.Files {
			f.writeEtree(grp)
		}
	}
}

// write writes one file with its FLocat.
func (f File) writeEtree(grp *etree.Element) {
	el := grp.CreateElement("mets:file")
	attrsEtree(el, "ID", f.ID, "MIMETYPE", mediaType(f.MimeType), "SIZE", strconv.FormatInt(f.Size, 10))
	if !f.Created.IsZero() {
		el.CreateAttr("CREATED", stamp(f.Created))
	}
	if f.Checksum != "" {
		attrsEtree(el, "CHECKSUM", f.Checksum, "CHECKSUMTYPE", "SHA-256")
	}
	attrsEtree(el, "ADMID", strings.Join(f.AdmIDs, " "))
	loc := el.CreateElement("mets:FLocat")
	loctype := f.LocType
	if loctype == "" {
		loctype = "URL"
	}
	attrsEtree(loc, "LOCTYPE", loctype)
	if loctype == "OTHER" {
		loc.CreateAttr("OTHERLOCTYPE", "relative path")
	}
	attrsEtree(loc, "xlink:type", "simple", "xlink:href", f.Href)
}

// write writes div and its descendants under parent.
func (div *Div) writeEtree(parent *etree.Element) {
	el := parent.CreateElement("mets:div")
	attrsEtree(el, "ID", div.ID, "TYPE", div.Type, "LABEL", div.Label,
		"DMDID", strings.Join(div.DmdIDs, " "), "ADMID", strings.Join(div.AdmIDs, " "))
	for _, f := range div.Fptrs {
		el.CreateElement("mets:fptr").CreateAttr("FILEID", f)
	}
	for i := range div.Children {
		div.Children[i].writeEtree(el)
	}
}

// attrs sets each non-empty value of the name, value pairs kv on el and
// returns el.
func attrsEtree(el *etree.Element, kv ...string) *etree.Element {
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			el.CreateAttr(kv[i], kv[i+1])
		}
	}
	return el
}

// write writes the amdSec: a techMD per object, a rightsMD per rights
// statement, a digiprovMD per event and per agent, each holding one PREMIS 3
// element.
func (a *AmdSec) writeEtree(root *etree.Element, m ids) {
	sec := root.CreateElement("mets:amdSec")
	sec.CreateAttr("ID", a.ID)
	for _, o := range a.Objects {
		o.writeEtree(wrapMDEtree(sec, "mets:techMD", o.ID, "PREMIS:OBJECT"), m)
	}
	for _, r := range a.Rights {
		r.writeEtree(wrapMDEtree(sec, "mets:rightsMD", r.ID, "PREMIS:RIGHTS"), m)
	}
	for _, e := range a.Events {
		e.writeEtree(wrapMDEtree(sec, "mets:digiprovMD", e.ID, "PREMIS:EVENT"), m)
	}
	for _, ag := range a.Agents {
		ag.writeEtree(wrapMDEtree(sec, "mets:digiprovMD", ag.ID, "PREMIS:AGENT"), m)
	}
}

// wrapMD creates section tag with id and returns its mdWrap/xmlData.
func wrapMDEtree(sec *etree.Element, tag, id, mdtype string) *etree.Element {
	md := sec.CreateElement(tag)
	md.CreateAttr("ID", id)
	wrap := md.CreateElement("mets:mdWrap")
	attrsEtree(wrap, "MDTYPE", mdtype)
	return wrap.CreateElement("mets:xmlData")
}

// premisElement creates a top-level PREMIS element with its version.
func premisElementEtree(parent *etree.Element, tag string) *etree.Element {
	el := parent.CreateElement(tag)
	el.CreateAttr("version", PremisVersion)
	return el
}

// write writes the object as premis:object of xsi:type premis:file, or
// premis:intellectualEntity.
func (o Object) writeEtree(parent *etree.Element, m ids) {
	obj := premisElementEtree(parent, "premis:object")
	if o.Entity {
		obj.CreateAttr("xsi:type", "premis:intellectualEntity")
	} else {
		obj.CreateAttr("xsi:type", "premis:file")
	}
	identifierEtree(obj, "premis:objectIdentifier", m[o.ID])
	for _, p := range o.Properties {
		sp := obj.CreateElement("premis:significantProperties")
		sp.CreateElement("premis:significantPropertiesType").SetText(p.Type)
		sp.CreateElement("premis:significantPropertiesValue").SetText(p.Value)
	}
	if !o.Entity {
		o.writeCharacteristicsEtree(obj)
	}
	if o.OriginalName != "" {
		obj.CreateElement("premis:originalName").SetText(o.OriginalName)
	}
	for _, r := range o.Relationships {
		rel := obj.CreateElement("premis:relationship")
		rel.CreateElement("premis:relationshipType").SetText(r.Type)
		rel.CreateElement("premis:relationshipSubType").SetText(r.SubType)
		identifierEtree(rel, "premis:relatedObjectIdentifier", r.Related)
	}
}

// writeCharacteristics writes objectCharacteristics: composition level,
// fixity, size and format (name and PRONOM key).
func (o Object) writeCharacteristicsEtree(obj *etree.Element) {
	ch := obj.CreateElement("premis:objectCharacteristics")
	ch.CreateElement("premis:compositionLevel").SetText("0")
	if o.SHA256 != "" {
		fx := ch.CreateElement("premis:fixity")
		fx.CreateElement("premis:messageDigestAlgorithm").SetText("SHA-256")
		fx.CreateElement("premis:messageDigest").SetText(o.SHA256)
	}
	ch.CreateElement("premis:size").SetText(strconv.FormatInt(o.Size, 10))
	name := mediaType(o.FormatName)
	if name == "" {
		name = "application/octet-stream"
	}
	format := ch.CreateElement("premis:format")
	des := format.CreateElement("premis:formatDesignation")
	des.CreateElement("premis:formatName").SetText(name)
	if o.FormatVersion != "" {
		des.CreateElement("premis:formatVersion").SetText(o.FormatVersion)
	}
	if o.PUID != "" {
		reg := format.CreateElement("premis:formatRegistry")
		reg.CreateElement("premis:formatRegistryName").SetText("PRONOM")
		reg.CreateElement("premis:formatRegistryKey").SetText(o.PUID)
		reg.CreateElement("premis:formatRegistryRole").SetText("specification")
	}
	if o.FormatNote != "" {
		format.CreateElement("premis:formatNote").SetText(o.FormatNote)
	}
}

// write writes the rights statement.
func (r Rights) writeEtree(parent *etree.Element, m ids) {
	st := premisElementEtree(parent, "premis:rights").CreateElement("premis:rightsStatement")
	identifierEtree(st, "premis:rightsStatementIdentifier", m[r.ID])
	st.CreateElement("premis:rightsBasis").SetText(r.Basis)
	switch r.Basis {
	case "copyright":
		ci := st.CreateElement("premis:copyrightInformation")
		ci.CreateElement("premis:copyrightStatus").SetText(orUnknown(r.CopyrightStatus))
		ci.CreateElement("premis:copyrightJurisdiction").SetText(orUnknown(r.Jurisdiction))
		addTextEtree(ci, "premis:copyrightNote", r.Terms)
		addTextEtree(ci, "premis:copyrightNote", r.Note)
	case "license":
		li := st.CreateElement("premis:licenseInformation")
		if r.LicenseURI != "" {
			identifierEtree(li, "premis:licenseDocumentationIdentifier", Identifier{Type: "URI", Value: r.LicenseURI})
		}
		addTextEtree(li, "premis:licenseTerms", r.Terms)
		addTextEtree(li, "premis:licenseNote", r.Note)
		if r.LicenseURI == "" && r.Terms == "" && r.Note == "" {
			li.CreateElement("premis:licenseNote").SetText("unknown")
		}
	default:
		oi := st.CreateElement("premis:otherRightsInformation")
		oi.CreateElement("premis:otherRightsBasis").SetText(orUnknown(r.Terms))
		addTextEtree(oi, "premis:otherRightsNote", r.Note)
	}
	for _, o := range r.Objects {
		identifierEtree(st, "premis:linkingObjectIdentifier", m[o])
	}
}

// write writes the event with its linking agents and objects.
func (e Event) writeEtree(parent *etree.Element, m ids) {
	ev := premisElementEtree(parent, "premis:event")
	identifierEtree(ev, "premis:eventIdentifier", m[e.ID])
	typ := ev.CreateElement("premis:eventType")
	if code, ok := eventTypeCodes[e.Type]; ok {
		attrsEtree(typ, "authority", eventTypeVocabularyShort, "authorityURI", eventTypeVocabulary,
			"valueURI", eventTypeVocabulary+"/"+code)
	}
	typ.SetText(e.Type)
	ev.CreateElement("premis:eventDateTime").SetText(stamp(e.Date))
	if e.Detail != "" {
		ev.CreateElement("premis:eventDetailInformation").CreateElement("premis:eventDetail").SetText(e.Detail)
	}
	e.writeOutcomeEtree(ev)
	for _, a := range e.Agents {
		link := identifierEtree(ev, "premis:linkingAgentIdentifier", m[a.ID])
		if a.Role != "" {
			link.CreateElement("premis:linkingAgentRole").SetText(a.Role)
		}
	}
	for _, o := range e.Objects {
		identifierEtree(ev, "premis:linkingObjectIdentifier", m[o])
	}
}

// writeOutcome writes eventOutcomeInformation when there is an outcome.
func (e Event) writeOutcomeEtree(ev *etree.Element) {
	if e.Outcome == "" && e.OutcomeDetail == "" {
		return
	}
	info := ev.CreateElement("premis:eventOutcomeInformation")
	if e.Outcome != "" {
		info.CreateElement("premis:eventOutcome").SetText(e.Outcome)
	}
	if e.OutcomeDetail != "" {
		info.CreateElement("premis:eventOutcomeDetail").
			CreateElement("premis:eventOutcomeDetailNote").SetText(e.OutcomeDetail)
	}
}

// write writes the agent.
func (a PremisAgent) writeEtree(parent *etree.Element, m ids) {
	ag := premisElementEtree(parent, "premis:agent")
	identifierEtree(ag, "premis:agentIdentifier", m[a.ID])
	for _, kv := range [][2]string{{"agentName", a.Name}, {"agentType", a.Type}, {"agentVersion", a.Version}, {"agentNote", a.Note}} {
		if kv[1] != "" {
			ag.CreateElement("premis:" + kv[0]).SetText(kv[1])
		}
	}
}

// identifier writes a PREMIS identifier block: tag holding tag+"Type" and
// tag+"Value". It returns the block.
func identifierEtree(parent *etree.Element, tag string, id Identifier) *etree.Element {
	el := parent.CreateElement(tag)
	el.CreateElement(tag + "Type").SetText(id.Type)
	el.CreateElement(tag + "Value").SetText(id.Value)
	return el
}

// addText adds a tag element holding text, unless text is empty.
func addTextEtree(parent *etree.Element, tag, text string) {
	if text != "" {
		parent.CreateElement(tag).SetText(text)
	}
}
