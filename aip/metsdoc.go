package aip

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"github.com/blogharvest/blogharvest/mets"
	"github.com/google/uuid"
)

// IDs of the PREMIS agents and package-level events of every AIP.
const (
	agentSoftware = "agent-software"
	agentOrg      = "agent-organization"
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
	return "urn:uuid:" + uuid.NewSHA1(uuid.NameSpaceURL, []byte(permalink+"#"+versionName(n))).String()
}

// metsDocument builds the METS document of the package from its payload
// (METS.xml itself excluded) and MARC records.
func (p *pkg) metsDocument(e env, recs []record) (*mets.Document, error) {
	d := &mets.Document{
		ObjID: ObjID(p.permalink, p.version), Type: p.kind, Created: e.now,
		Label: fmt.Sprintf("%s/%s/%s", p.blogID, p.key, versionName(p.version)),
		Agents: []mets.Agent{
			{Role: "CREATOR", Type: "OTHER", OtherType: "SOFTWARE", Name: joinNonEmpty(e.software, e.version)},
			{Role: "CUSTODIAN", Type: "ORGANIZATION", Name: e.org},
		},
	}
	for _, r := range recs {
		xml, err := r.rec.MarshalMARCXML()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", r.dmdID, err)
		}
		d.DmdSecs = append(d.DmdSecs, mets.DmdSec{ID: r.dmdID, MDType: "MARC", Label: r.label, XML: xml})
	}
	p.addFileMetadata(d, e)
	d.StructMap = p.structMap(recs)
	return d, nil
}

// addFileMetadata adds a PREMIS object, a capture event and a METS file for
// each payload item, then the package events and the agents.
func (p *pkg) addFileMetadata(d *mets.Document, e env) {
	groups := map[string][]mets.File{}
	var objects []string
	for i, it := range p.items {
		n := fmt.Sprintf("%04d", i+1)
		obj, file, capture := "object-"+n, "file-"+n, "event-capture-"+n
		objects = append(objects, obj)
		d.AmdSec.Objects = append(d.AmdSec.Objects, it.premisObject(obj))
		adm := []string{obj}
		if ev, ok := it.captureEvent(capture, obj); ok {
			d.AmdSec.Events = append(d.AmdSec.Events, ev)
			adm = append(adm, capture)
		}
		groups[it.group] = append(groups[it.group], mets.File{ID: file, MimeType: orOctets(it.mime), Size: it.size,
			Checksum: it.sha256, Created: capturedAt(it), Href: it.rel, AdmIDs: adm})
	}
	for _, g := range groupOrder {
		if len(groups[g]) > 0 {
			d.FileGroups = append(d.FileGroups, mets.FileGroup{Use: g, Files: groups[g]})
		}
	}
	d.AmdSec.Events = append(d.AmdSec.Events, packageEvents(e, objects)...)
	d.AmdSec.Agents = []mets.PremisAgent{
		{ID: agentSoftware, Name: e.software, Type: "software", Version: e.version},
		{ID: agentOrg, Name: e.org, Type: "organization"},
	}
}

// premisObject describes the item as a PREMIS file object.
func (it *item) premisObject(id string) mets.Object {
	o := mets.Object{ID: id, SHA256: it.sha256, Size: it.size, FormatName: orOctets(mediaTypeOf(it.mime))}
	if f := it.file; f != nil {
		o.OriginalName = f.URL
		o.Properties = append(o.Properties, mets.Property{Type: "role", Value: string(f.Role)})
		if f.Status != 0 {
			o.Properties = append(o.Properties, mets.Property{Type: "HTTP status", Value: strconv.Itoa(f.Status)})
		}
		if mt := f.MediaType; mt != "" && mt != mediaTypeOf(mt) {
			o.Properties = append(o.Properties, mets.Property{Type: "Content-Type", Value: mt})
		}
	}
	if it.warcID != "" { // the tie to the WARC (warcfile.go)
		o.Properties = append(o.Properties, mets.Property{Type: warcPropType, Value: it.warcID})
	}
	return o
}

// captureEvent returns the capture event of a captured file, or false for
// generated items.
func (it *item) captureEvent(id, obj string) (mets.Event, bool) {
	f := it.file
	if f == nil || f.Captured.IsZero() {
		return mets.Event{}, false
	}
	ev := mets.Event{ID: id, Type: mets.EventCapture, Date: f.Captured, Outcome: "success",
		Objects: []string{obj}, Agents: []mets.AgentLink{{ID: agentSoftware, Role: "executing program"}}}
	if f.URL != "" {
		ev.Detail = "retrieved " + f.URL
	}
	if f.Status != 0 {
		ev.OutcomeDetail = "HTTP " + strconv.Itoa(f.Status)
	}
	return ev, true
}

// packageEvents returns the digest, validation and packaging events.
func packageEvents(e env, objects []string) []mets.Event {
	agents := []mets.AgentLink{{ID: agentSoftware, Role: "executing program"}, {ID: agentOrg, Role: "implementer"}}
	return []mets.Event{
		{ID: eventDigest, Type: mets.EventMessageDigest, Date: e.now, Detail: "SHA-256 and SHA-512 of every payload file",
			Outcome: "success", Objects: objects, Agents: agents},
		{ID: eventValidate, Type: mets.EventValidation, Date: e.now,
			Detail:  "METS 1.12.1, XLink, MARC21slim 1.2 and PREMIS 3.0 schemas; MARC lint; record checks",
			Outcome: "success", Agents: agents},
		{ID: eventPackage, Type: mets.EventPackageCreation, Date: e.now, Detail: "BagIt 1.0 bag, SHA-256 and SHA-512 manifests",
			Outcome: "success", Objects: objects, Agents: agents},
	}
}

// structMap returns the root div (Blog or Entry) with the comments nested
// as they answer each other; comments whose parent is unknown sit at the top.
func (p *pkg) structMap(recs []record) mets.Div {
	root := mets.Div{ID: "div-" + recs[0].dmdID[len("dmd-"):], Type: p.kind, Label: p.permalink,
		DmdIDs: []string{recs[0].dmdID}, AdmIDs: []string{eventValidate, eventPackage}}
	for i := range p.items {
		root.Fptrs = append(root.Fptrs, fmt.Sprintf("file-%04d", i+1))
	}
	children := map[string][]record{}
	known := map[string]bool{}
	for _, r := range recs[1:] {
		known[r.comment.ID] = true
	}
	for _, r := range recs[1:] {
		parent := r.comment.ParentID
		if !known[parent] {
			parent = ""
		}
		children[parent] = append(children[parent], r)
	}
	root.Children = commentDivs(children, "")
	return root
}

// commentDivs returns the divs of the comments answering parent ("" for
// the entry), each with its own answers below it.
func commentDivs(children map[string][]record, parent string) []mets.Div {
	var divs []mets.Div
	for _, r := range children[parent] {
		label := r.comment.URL
		if label == "" {
			label = r.comment.ID
		}
		divs = append(divs, mets.Div{ID: "div-comment-" + shortHash(r.comment.ID), Type: "Comment", Label: label,
			DmdIDs: []string{r.dmdID}, Children: commentDivs(children, r.comment.ID)})
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
	if it.file != nil {
		t = it.file.Captured
	}
	return t
}
