package mets

import (
	"strconv"

	"github.com/beevik/etree"
)

// write writes the amdSec: a techMD per object, a digiprovMD per event and
// per agent, each holding one PREMIS 3 element.
func (a *AmdSec) write(root *etree.Element) {
	sec := root.CreateElement("mets:amdSec")
	sec.CreateAttr("ID", a.id())
	for _, o := range a.Objects {
		o.write(wrapMD(sec, "mets:techMD", o.ID, "PREMIS:OBJECT"))
	}
	for _, e := range a.Events {
		e.write(wrapMD(sec, "mets:digiprovMD", e.ID, "PREMIS:EVENT"))
	}
	for _, ag := range a.Agents {
		ag.write(wrapMD(sec, "mets:digiprovMD", ag.ID, "PREMIS:AGENT"))
	}
}

// wrapMD creates section tag with id and returns its mdWrap/xmlData.
func wrapMD(sec *etree.Element, tag, id, mdtype string) *etree.Element {
	md := sec.CreateElement(tag)
	md.CreateAttr("ID", id)
	wrap := md.CreateElement("mets:mdWrap")
	attrs(wrap, "MDTYPE", mdtype)
	return wrap.CreateElement("mets:xmlData")
}

// write writes the object as premis:object xsi:type="premis:file".
func (o Object) write(parent *etree.Element) {
	obj := parent.CreateElement("premis:object")
	obj.CreateAttr("xsi:type", "premis:file")
	identifier(obj, "premis:objectIdentifier", o.ID)
	for _, p := range o.Properties {
		sp := obj.CreateElement("premis:significantProperties")
		sp.CreateElement("premis:significantPropertiesType").SetText(p.Type)
		sp.CreateElement("premis:significantPropertiesValue").SetText(p.Value)
	}
	ch := obj.CreateElement("premis:objectCharacteristics")
	ch.CreateElement("premis:compositionLevel").SetText("0")
	if o.SHA256 != "" {
		fx := ch.CreateElement("premis:fixity")
		fx.CreateElement("premis:messageDigestAlgorithm").SetText("SHA-256")
		fx.CreateElement("premis:messageDigest").SetText(o.SHA256)
	}
	ch.CreateElement("premis:size").SetText(strconv.FormatInt(o.Size, 10))
	name := o.FormatName
	if name == "" {
		name = "application/octet-stream"
	}
	ch.CreateElement("premis:format").CreateElement("premis:formatDesignation").
		CreateElement("premis:formatName").SetText(name)
	if o.OriginalName != "" {
		obj.CreateElement("premis:originalName").SetText(o.OriginalName)
	}
}

// write writes the event with its linking agents and objects.
func (e Event) write(parent *etree.Element) {
	ev := parent.CreateElement("premis:event")
	identifier(ev, "premis:eventIdentifier", e.ID)
	typ := ev.CreateElement("premis:eventType")
	if code, ok := eventTypeCodes[e.Type]; ok {
		attrs(typ, "authority", eventTypeVocabularyShort, "authorityURI", eventTypeVocabulary,
			"valueURI", eventTypeVocabulary+"/"+code)
	}
	typ.SetText(e.Type)
	ev.CreateElement("premis:eventDateTime").SetText(stamp(e.Date))
	if e.Detail != "" {
		ev.CreateElement("premis:eventDetailInformation").CreateElement("premis:eventDetail").SetText(e.Detail)
	}
	e.writeOutcome(ev)
	for _, a := range e.Agents {
		link := identifier(ev, "premis:linkingAgentIdentifier", a.ID)
		if a.Role != "" {
			link.CreateElement("premis:linkingAgentRole").SetText(a.Role)
		}
	}
	for _, o := range e.Objects {
		identifier(ev, "premis:linkingObjectIdentifier", o)
	}
}

// writeOutcome writes eventOutcomeInformation when there is an outcome.
func (e Event) writeOutcome(ev *etree.Element) {
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
func (a PremisAgent) write(parent *etree.Element) {
	ag := parent.CreateElement("premis:agent")
	identifier(ag, "premis:agentIdentifier", a.ID)
	for _, kv := range [][2]string{{"agentName", a.Name}, {"agentType", a.Type}, {"agentVersion", a.Version}, {"agentNote", a.Note}} {
		if kv[1] != "" {
			ag.CreateElement("premis:" + kv[0]).SetText(kv[1])
		}
	}
}

// identifier writes a PREMIS identifier block of the "local" type: tag
// holding tag+"Type" and tag+"Value". It returns the block.
func identifier(parent *etree.Element, tag, value string) *etree.Element {
	id := parent.CreateElement(tag)
	id.CreateElement(tag + "Type").SetText("local")
	id.CreateElement(tag + "Value").SetText(value)
	return id
}
