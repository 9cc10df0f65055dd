package mets

import "time"

// Namespaces written by Marshal.
const (
	NSMETS   = "http://www.loc.gov/METS/"
	NSPREMIS = "http://www.loc.gov/premis/v3"
	NSXLink  = "http://www.w3.org/1999/xlink"
	NSXSI    = "http://www.w3.org/2001/XMLSchema-instance"
	NSMARC   = "http://www.loc.gov/MARC21/slim"
)

// SchemaLocation is the xsi:schemaLocation written on every document: the
// official locations of the METS, PREMIS 3, MARC 21 slim and XLink schemas.
// (The same files as ../schemas, see its SOURCES.md.)
const SchemaLocation = NSMETS + " http://www.loc.gov/standards/mets/version1121/mets.xsd " +
	NSPREMIS + " http://www.loc.gov/standards/premis/v3/premis-v3-0.xsd " +
	NSMARC + " http://www.loc.gov/standards/marcxml/schema/MARC21slim.xsd " +
	NSXLink + " http://www.loc.gov/standards/xlink/xlink.xsd"

// PremisVersion is the version attribute of every PREMIS element written.
const PremisVersion = "3.0"

// Document is one METS document. Every ID in it (DmdSec.ID, AmdSec.ID,
// Object.ID, Rights.ID, Event.ID, PremisAgent.ID, File.ID, Div.ID) must be a
// unique XML NCName that does not start with a digit; use ID to make one
// from arbitrary text.
//
// Marshal writes two structMaps: the logical one, StructMap, and a physical
// one (TYPE="physical") it derives from the files' paths: a "Directory" div
// per folder and an "Item" div per file, as Archivematica's METS library
// (metsrw) reads them.
type Document struct {
	ObjID   string    // mets/@OBJID, e.g. "urn:uuid:…"
	Type    string    // mets/@TYPE, e.g. "Entry"
	Label   string    // mets/@LABEL and the physical structMap's root div; omitted when empty
	Profile string    // mets/@PROFILE; omitted when empty
	Created time.Time // metsHdr/@CREATEDATE; required, written in UTC

	Agents       []Agent       // metsHdr agents
	AltRecordIDs []AltRecordID // metsHdr altRecordIDs: other identifiers of the same object
	DmdSecs      []DmdSec      // descriptive metadata, one section each
	// DmdSource, when set, yields more dmdSecs, written after DmdSecs:
	// it calls yield with each in turn (stopping at yield's error, which
	// it returns) and Marshal writes each as it comes, keeping nothing of
	// it but its ID, so that a document of many records (an entry's
	// comments) never holds them all at once. Marshal asks for them once.
	DmdSource  func(yield func(DmdSec) error) error
	AmdSecs    []AmdSec    // administrative metadata, one section per file (and per package)
	FileGroups []FileGroup // fileSec; omitted when there are no groups
	StructMap  Div         // the root div of the logical structMap
}

// AltRecordID is a metsHdr altRecordID: another identifier of the object
// the document describes, and its type.
type AltRecordID struct {
	Type  string // e.g. "URI", "VERSION-INDEPENDENT"
	Value string
}

// Identifier is a PREMIS identifier: a type such as "UUID", "URI" or
// "local", and a value.
type Identifier struct {
	Type  string
	Value string
}

// Agent is a metsHdr agent: who made or owns the document.
type Agent struct {
	Role      string // "CREATOR", "CUSTODIAN", "ARCHIVIST", …
	Type      string // "ORGANIZATION", "INDIVIDUAL" or "OTHER"
	OtherType string // with Type "OTHER", e.g. "SOFTWARE"
	Name      string
	Notes     []string
}

// DmdSec is a descriptive metadata section whose content is opaque XML: XML
// must hold exactly one root element (no XML declaration needed), which is
// embedded as is in mdWrap/xmlData.
type DmdSec struct {
	ID          string
	MDType      string // mdWrap/@MDTYPE: "MARC", "DC", "MODS", … or "OTHER"
	OtherMDType string // with MDType "OTHER"
	Label       string // mdWrap/@LABEL; omitted when empty
	XML         []byte
	// Element, when set, is the metadata as a tree and is written instead
	// of XML: a caller that builds the metadata itself spares Marshal
	// parsing it back (a MARCXML record per comment was 4 % of a whole
	// crawl's CPU). Written, it is what XML holding the same element gives.
	Element *Element
}

// Element is an XML element given as a tree (DmdSec.Element): its name as
// written (with a prefix if any), its attributes in order, the character
// data it holds (unescaped; only for an element without children) and its
// child elements.
type Element struct {
	Name     string
	Attrs    []Attr
	Text     string
	Children []*Element
}

// Attr is an attribute of an Element, its value unescaped.
type Attr struct{ Name, Value string }

// AmdSec is one administrative metadata section holding PREMIS 3
// preservation metadata: each object becomes a techMD, each rights
// statement a rightsMD, each event and agent a digiprovMD. A File's AdmIDs
// name the AmdSec that describes it, as metsrw expects.
type AmdSec struct {
	ID      string
	Objects []Object
	Rights  []Rights
	Events  []Event
	Agents  []PremisAgent
}

// Object is a PREMIS object: a file, or with Entity set an intellectual
// entity (the record a package holds). ID names the techMD; Identifier is
// the PREMIS objectIdentifier, "local" ID when empty.
type Object struct {
	ID            string
	Identifier    Identifier
	Entity        bool   // an intellectualEntity: no fixity, size or format
	SHA256        string // lowercase hex; the fixity
	Size          int64  // bytes
	FormatName    string // a media type without parameters, such as "text/html", or a format name
	FormatVersion string // omitted when empty
	PUID          string // PRONOM identifier such as "fmt/96" (formatRegistry); omitted when empty
	FormatNote    string // how the format was identified; omitted when empty
	OriginalName  string // where the file came from (its original URL); omitted when empty
	Properties    []Property
	Relationships []Relationship
}

// Relationship is a PREMIS relationship of an object to another, named by
// its identifier: Type and SubType are terms of the LoC vocabularies (see
// the Rel* constants).
type Relationship struct {
	Type    string
	SubType string
	Related Identifier
}

// Rights is a PREMIS rights statement (a rightsMD): a copyright or license
// declared by the rights holder, or another basis. Objects are IDs of
// Objects of the same document it applies to.
type Rights struct {
	ID              string
	Identifier      Identifier // "local" ID when empty
	Basis           string     // "copyright", "license" or "other"
	CopyrightStatus string     // with "copyright": "copyrighted", "public domain" or "unknown"
	Jurisdiction    string     // with "copyright": ISO 3166 code, or "unknown"
	LicenseURI      string     // with "license": the license document; omitted when empty
	Terms           string     // the declared text (copyright note, license terms, other basis)
	Note            string     // omitted when empty
	Objects         []string
}

// Property is a PREMIS significant property, such as the HTTP status with
// which a file was captured.
type Property struct {
	Type  string
	Value string
}

// Event is a PREMIS event. Type is a term of the LoC eventType vocabulary
// (see the Event* constants); Objects and Agents are IDs of Objects and
// PremisAgents of the same document, written as their identifiers.
// Identifier is the eventIdentifier, "local" ID when empty.
type Event struct {
	ID            string
	Identifier    Identifier
	Type          string
	Date          time.Time // written in UTC
	Detail        string    // eventDetail; omitted when empty
	Outcome       string    // "success", "failure", …; omitted when empty
	OutcomeDetail string    // eventOutcomeDetailNote; omitted when empty
	Objects       []string  // IDs of the objects the event concerns
	Agents        []AgentLink
}

// AgentLink names an agent taking part in an event, and its role.
type AgentLink struct {
	ID   string // a PremisAgent.ID
	Role string // e.g. "executing program", "implementer"; omitted when empty
}

// PremisAgent is a PREMIS agent: a program, an organization or a person.
// Identifier is the agentIdentifier, "local" ID when empty.
type PremisAgent struct {
	ID         string
	Identifier Identifier
	Name       string
	Type       string // "software", "organization", "person"
	Version    string // omitted when empty
	Note       string // omitted when empty
}

// FileGroup is a fileSec group of files that share a use, such as "original".
type FileGroup struct {
	Use   string
	Files []File
}

// File is one file of the package, located by a relative path.
type File struct {
	ID       string
	MimeType string // a media type; parameters ("; charset=…") are dropped
	Size     int64
	Checksum string    // lowercase hex SHA-256
	Created  time.Time // omitted when zero
	Href     string    // path relative to the METS document, e.g. "objects/page/index.html"
	LocType  string    // FLocat/@LOCTYPE: "URL" (the default when empty) or "OTHER"
	AdmIDs   []string  // IDs of the amdSecs about the file (metsrw follows only these)
}

// Div is a logical structMap division. DmdIDs, AdmIDs and Fptrs are IDs of
// DmdSecs, AmdSecs and Files.
type Div struct {
	ID       string
	Type     string
	Label    string
	DmdIDs   []string
	AdmIDs   []string
	Fptrs    []string
	Children []Div
}

// LoC preservation event types (id.loc.gov/vocabulary/preservation/eventType).
const (
	EventCapture             = "capture"
	EventCreation            = "creation"
	EventFormatID            = "format identification"
	EventMessageDigest       = "message digest calculation"
	EventValidation          = "validation"
	EventPackageCreation     = "information package creation"
	EventIngestion           = "ingestion start"
	eventTypeVocabulary      = "http://id.loc.gov/vocabulary/preservation/eventType"
	eventTypeVocabularyShort = "eventType"
)

// eventTypeCodes maps the LoC event type terms used here to their codes.
var eventTypeCodes = map[string]string{
	EventCapture:         "cap",
	EventCreation:        "cre",
	EventFormatID:        "for",
	EventMessageDigest:   "mes",
	EventValidation:      "val",
	EventPackageCreation: "ipc",
	EventIngestion:       "ins",
}

// eventTypeURIs maps the same terms to their valueURI (the vocabulary,
// "/" and the code), joined once rather than for every event written.
var eventTypeURIs = func() map[string]string {
	m := make(map[string]string, len(eventTypeCodes))
	for term, code := range eventTypeCodes {
		m[term] = eventTypeVocabulary + "/" + code
	}
	return m
}()

// LoC relationship types and subtypes (id.loc.gov/vocabulary/preservation/
// relationshipType and relationshipSubType).
const (
	RelDerivation  = "derivation"
	RelStructural  = "structural"
	RelHasSource   = "has source"
	RelIsPartOf    = "is part of"
	RelHasPart     = "has part"
	RelReplacement = "replacement"
	RelReplaces    = "replaces" // this version of a record replaces the related, older one
	RelDependency  = "dependency"
	RelRequires    = "requires" // the object needs the related one to be rendered (page requisites)
)
