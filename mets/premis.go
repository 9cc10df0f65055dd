package mets

import "strconv"

// ids resolves the IDs of objects, events, agents and rights of a document
// to the PREMIS identifiers written for them.
type ids map[string]Identifier

// identifiers returns the PREMIS identifier of every ID in the amdSecs.
func identifiers(secs []AmdSec) ids {
	n := 0
	for _, a := range secs {
		n += len(a.Objects) + len(a.Rights) + len(a.Events) + len(a.Agents)
	}
	m := make(ids, n)
	for _, a := range secs {
		for _, o := range a.Objects {
			m[o.ID] = orLocal(o.Identifier, o.ID)
		}
		for _, r := range a.Rights {
			m[r.ID] = orLocal(r.Identifier, r.ID)
		}
		for _, e := range a.Events {
			m[e.ID] = orLocal(e.Identifier, e.ID)
		}
		for _, ag := range a.Agents {
			m[ag.ID] = orLocal(ag.Identifier, ag.ID)
		}
	}
	return m
}

// orLocal returns id, or a "local" identifier of fallback when id is empty.
func orLocal(id Identifier, fallback string) Identifier {
	if id.Value == "" {
		return Identifier{Type: "local", Value: fallback}
	}
	return id
}

// write writes the amdSec: a techMD per object, a rightsMD per rights
// statement, a digiprovMD per event and per agent, each holding one PREMIS 3
// element.
func (a *AmdSec) write(root el, m ids) {
	sec := root.CreateElement("mets:amdSec")
	sec.CreateAttr("ID", a.ID)
	for _, o := range a.Objects {
		o.write(wrapMD(sec, "mets:techMD", o.ID, "PREMIS:OBJECT"), m)
	}
	for _, r := range a.Rights {
		r.write(wrapMD(sec, "mets:rightsMD", r.ID, "PREMIS:RIGHTS"), m)
	}
	for _, e := range a.Events {
		e.write(wrapMD(sec, "mets:digiprovMD", e.ID, "PREMIS:EVENT"), m)
	}
	for _, ag := range a.Agents {
		ag.write(wrapMD(sec, "mets:digiprovMD", ag.ID, "PREMIS:AGENT"), m)
	}
}

// wrapMD creates section tag with id and returns its mdWrap/xmlData.
func wrapMD(sec el, tag, id, mdtype string) el {
	md := sec.CreateElement(tag)
	md.CreateAttr("ID", id)
	wrap := md.CreateElement("mets:mdWrap")
	attrs(wrap, "MDTYPE", mdtype)
	return wrap.CreateElement("mets:xmlData")
}

// premisElement creates a top-level PREMIS element with its version.
func premisElement(parent el, tag string) el {
	el := parent.CreateElement(tag)
	el.CreateAttr("version", PremisVersion)
	return el
}

// write writes the object as premis:object of xsi:type premis:file, or
// premis:intellectualEntity.
func (o Object) write(parent el, m ids) {
	obj := premisElement(parent, "premis:object")
	if o.Entity {
		obj.CreateAttr("xsi:type", "premis:intellectualEntity")
	} else {
		obj.CreateAttr("xsi:type", "premis:file")
	}
	identifier(obj, "premis:objectIdentifier", m[o.ID])
	for _, p := range o.Properties {
		sp := obj.CreateElement("premis:significantProperties")
		sp.CreateElement("premis:significantPropertiesType").SetText(p.Type)
		sp.CreateElement("premis:significantPropertiesValue").SetText(p.Value)
	}
	if !o.Entity {
		o.writeCharacteristics(obj)
	}
	if o.OriginalName != "" {
		obj.CreateElement("premis:originalName").SetText(o.OriginalName)
	}
	for _, r := range o.Relationships {
		rel := obj.CreateElement("premis:relationship")
		rel.CreateElement("premis:relationshipType").SetText(r.Type)
		rel.CreateElement("premis:relationshipSubType").SetText(r.SubType)
		identifier(rel, "premis:relatedObjectIdentifier", r.Related)
	}
}

// writeCharacteristics writes objectCharacteristics: composition level,
// fixity, size and format (name and PRONOM key).
func (o Object) writeCharacteristics(obj el) {
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
func (r Rights) write(parent el, m ids) {
	st := premisElement(parent, "premis:rights").CreateElement("premis:rightsStatement")
	identifier(st, "premis:rightsStatementIdentifier", m[r.ID])
	st.CreateElement("premis:rightsBasis").SetText(r.Basis)
	switch r.Basis {
	case "copyright":
		ci := st.CreateElement("premis:copyrightInformation")
		ci.CreateElement("premis:copyrightStatus").SetText(orUnknown(r.CopyrightStatus))
		ci.CreateElement("premis:copyrightJurisdiction").SetText(orUnknown(r.Jurisdiction))
		addText(ci, "premis:copyrightNote", r.Terms)
		addText(ci, "premis:copyrightNote", r.Note)
	case "license":
		li := st.CreateElement("premis:licenseInformation")
		if r.LicenseURI != "" {
			identifier(li, "premis:licenseDocumentationIdentifier", Identifier{Type: "URI", Value: r.LicenseURI})
		}
		addText(li, "premis:licenseTerms", r.Terms)
		addText(li, "premis:licenseNote", r.Note)
		if r.LicenseURI == "" && r.Terms == "" && r.Note == "" {
			li.CreateElement("premis:licenseNote").SetText("unknown")
		}
	default:
		oi := st.CreateElement("premis:otherRightsInformation")
		oi.CreateElement("premis:otherRightsBasis").SetText(orUnknown(r.Terms))
		addText(oi, "premis:otherRightsNote", r.Note)
	}
	for _, o := range r.Objects {
		identifier(st, "premis:linkingObjectIdentifier", m[o])
	}
}

// write writes the event with its linking agents and objects.
func (e Event) write(parent el, m ids) {
	ev := premisElement(parent, "premis:event")
	identifier(ev, "premis:eventIdentifier", m[e.ID])
	typ := ev.CreateElement("premis:eventType")
	if uri, ok := eventTypeURIs[e.Type]; ok {
		attrs(typ, "authority", eventTypeVocabularyShort, "authorityURI", eventTypeVocabulary, "valueURI", uri)
	}
	typ.SetText(e.Type)
	ev.CreateElement("premis:eventDateTime").SetText(parent.t.stamp(e.Date))
	if e.Detail != "" {
		ev.CreateElement("premis:eventDetailInformation").CreateElement("premis:eventDetail").SetText(e.Detail)
	}
	e.writeOutcome(ev)
	for _, a := range e.Agents {
		link := identifier(ev, "premis:linkingAgentIdentifier", m[a.ID])
		if a.Role != "" {
			link.CreateElement("premis:linkingAgentRole").SetText(a.Role)
		}
	}
	for _, o := range e.Objects {
		identifier(ev, "premis:linkingObjectIdentifier", m[o])
	}
}

// writeOutcome writes eventOutcomeInformation when there is an outcome.
func (e Event) writeOutcome(ev el) {
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
func (a PremisAgent) write(parent el, m ids) {
	ag := premisElement(parent, "premis:agent")
	identifier(ag, "premis:agentIdentifier", m[a.ID])
	addText(ag, "premis:agentName", a.Name)
	addText(ag, "premis:agentType", a.Type)
	addText(ag, "premis:agentVersion", a.Version)
	addText(ag, "premis:agentNote", a.Note)
}

// identifier writes a PREMIS identifier block: tag holding tag+"Type" and
// tag+"Value". It returns the block.
func identifier(parent el, tag string, id Identifier) el {
	el := parent.CreateElement(tag)
	typ, val := identifierParts(tag)
	el.CreateElement(typ).SetText(id.Type)
	el.CreateElement(val).SetText(id.Value)
	return el
}

// identifierParts returns tag+"Type" and tag+"Value", constants for the
// tags this package writes: joined for every identifier, they were the
// most frequent allocation of Marshal (a package writes some 250).
func identifierParts(tag string) (typ, val string) {
	switch tag {
	case "premis:objectIdentifier":
		return "premis:objectIdentifierType", "premis:objectIdentifierValue"
	case "premis:eventIdentifier":
		return "premis:eventIdentifierType", "premis:eventIdentifierValue"
	case "premis:agentIdentifier":
		return "premis:agentIdentifierType", "premis:agentIdentifierValue"
	case "premis:linkingObjectIdentifier":
		return "premis:linkingObjectIdentifierType", "premis:linkingObjectIdentifierValue"
	case "premis:linkingAgentIdentifier":
		return "premis:linkingAgentIdentifierType", "premis:linkingAgentIdentifierValue"
	case "premis:relatedObjectIdentifier":
		return "premis:relatedObjectIdentifierType", "premis:relatedObjectIdentifierValue"
	case "premis:rightsStatementIdentifier":
		return "premis:rightsStatementIdentifierType", "premis:rightsStatementIdentifierValue"
	case "premis:licenseDocumentationIdentifier":
		return "premis:licenseDocumentationIdentifierType", "premis:licenseDocumentationIdentifierValue"
	}
	return tag + "Type", tag + "Value"
}

// addText adds a tag element holding text, unless text is empty.
func addText(parent el, tag, text string) {
	if text != "" {
		parent.CreateElement(tag).SetText(text)
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
