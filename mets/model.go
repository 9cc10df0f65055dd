package mets

import "time"

// Namespaces written by Marshal.
const (
	NSMETS   = "http://www.loc.gov/METS/"
	NSPREMIS = "http://www.loc.gov/premis/v3"
	NSXLink  = "http://www.w3.org/1999/xlink"
	NSXSI    = "http://www.w3.org/2001/XMLSchema-instance"
)

// Document is one METS document. Every ID in it (DmdSec.ID, Object.ID,
// Event.ID, PremisAgent.ID, File.ID, Div.ID) must be a unique XML NCName that
// does not start with a digit; use ID to make one from arbitrary text.
type Document struct {
	ObjID   string    // mets/@OBJID, e.g. "urn:uuid:…"
	Type    string    // mets/@TYPE, e.g. "Entry"
	Label   string    // mets/@LABEL; omitted when empty
	Profile string    // mets/@PROFILE; omitted when empty
	Created time.Time // metsHdr/@CREATEDATE; required, written in UTC

	Agents     []Agent     // metsHdr agents
	DmdSecs    []DmdSec    // descriptive metadata, one section each
	AmdSec     AmdSec      // PREMIS objects, events and agents; omitted when empty
	FileGroups []FileGroup // fileSec; omitted when there are no groups
	StructMap  Div         // the root div of the single structMap
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
}

// AmdSec holds the PREMIS 3 preservation metadata. Each object becomes a
// techMD, each event and agent a digiprovMD; the section's own ID is ID, or
// "amd" when empty.
type AmdSec struct {
	ID      string
	Objects []Object
	Events  []Event
	Agents  []PremisAgent
}

// Object is a PREMIS file object. ID names both the techMD and the object's
// local identifier.
type Object struct {
	ID           string
	SHA256       string // lowercase hex; the fixity
	Size         int64  // bytes
	FormatName   string // a media type such as "text/html", or a format name
	OriginalName string // where the file came from (its original URL); omitted when empty
	Properties   []Property
}

// Property is a PREMIS significant property, such as the HTTP status with
// which a file was captured.
type Property struct {
	Type  string
	Value string
}

// Event is a PREMIS event. Type is a term of the LoC eventType vocabulary
// (see the Event* constants); Objects and Agents are IDs of Objects and
// PremisAgents of the same document.
type Event struct {
	ID            string
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
type PremisAgent struct {
	ID      string
	Name    string
	Type    string // "software", "organization", "person"
	Version string // omitted when empty
	Note    string // omitted when empty
}

// FileGroup is a fileSec group of files that share a use, such as "original".
type FileGroup struct {
	Use   string
	Files []File
}

// File is one file of the package, located by a relative path.
type File struct {
	ID       string
	MimeType string
	Size     int64
	Checksum string    // lowercase hex SHA-256
	Created  time.Time // omitted when zero
	Href     string    // path relative to the METS document, e.g. "objects/page/index.html"
	LocType  string    // FLocat/@LOCTYPE: "URL" (the default when empty) or "OTHER"
	AdmIDs   []string  // IDs of techMD and digiprovMD sections about the file
}

// Div is a structMap division. DmdIDs, AdmIDs and Fptrs are IDs of DmdSecs,
// amd sections and Files.
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
	EventMessageDigest:   "mes",
	EventValidation:      "val",
	EventPackageCreation: "ipc",
	EventIngestion:       "ins",
}
