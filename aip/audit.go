package aip

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest/mets"
	"github.com/google/uuid"
)

// AuditDir is the folder of an archive that holds the records of its
// fixity audits, one folder per audit: <archive>/.audit/a<seq>/ with
// premis.xml (a PREMIS 3 document: the fixity check event, the archive and
// the bags it found a problem in as objects, the software as agent),
// audit.json (the same for programs: AuditRecord) and bags.txt.gz (the
// name of every bag read, one a line, gzip: 8.0 bytes a bag for 10 000
// names of some 60 characters, where a PREMIS object, an event link and a
// note per bag took 845 in premis.xml, measured with a throw-away test of
// WriteAudit). Its name starts with a dot, so no blog id can
// take it, readers of blogs (report) pass it by, and check, which looks
// for bags only, finds none in it. Each record is published through the
// Store as a bag is (Stage, Put, Publish): it is whole or absent, on a
// folder or on S3 alike, and never replaced.
const AuditDir = ".audit"

// AuditRecord is what one fixity audit of an archive did: which share of
// the archive it read (ShareOf), when, the bags it read and what it found.
type AuditRecord struct {
	Seq          int            `json:"seq"`    // 1 for the archive's first audit, then one more each
	Share        int            `json:"share"`  // the share read, 0 to Shares-1
	Shares       int            `json:"shares"` // the archive is read in this many shares
	Start        time.Time      `json:"start"`
	End          time.Time      `json:"end"`
	Bags         int            `json:"bags"`             // bags read
	Bytes        int64          `json:"payload_bytes"`    // their payload (TallyDefinition)
	Problems     []AuditProblem `json:"problems"`         // nil: every bag read is sound
	Software     string         `json:"software"`         // the agent that ran it, e.g. "blogharvest 1.2"
	Organization string         `json:"organization"`     // the archive's organisation, if known
	EventID      string         `json:"event_identifier"` // the PREMIS event's urn:uuid
	// Read are the names of the bags read: bags.txt.gz lists them,
	// audit.json leaves them out (Bags counts them).
	Read []string `json:"-"`
}

// AuditProblem is one problem an audit found: the bag (its name in the
// archive; empty for one that belongs to no single bag) and the reason.
type AuditProblem struct {
	Bag    string `json:"bag,omitempty"`
	Reason string `json:"reason"`
}

// Outcome is the PREMIS event outcome of the audit: "pass" when it found
// no problem, else "fail".
func (r *AuditRecord) Outcome() string {
	if len(r.Problems) == 0 {
		return "pass"
	}
	return "fail"
}

// auditName is the folder of audit seq: a<seq>, zero-padded so that names
// sort as numbers.
func auditName(seq int) string { return path.Join(AuditDir, fmt.Sprintf("a%010d", seq)) }

// LatestAudit returns the newest audit record of the archive s, nil when
// it has none.
func LatestAudit(s Store) (*AuditRecord, error) {
	ents, err := s.ReadDir(AuditDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("audit records: %w", err)
	}
	var names []string
	for _, e := range ents {
		if _, err := strconv.Atoi(strings.TrimPrefix(e.Name(), "a")); err == nil && strings.HasPrefix(e.Name(), "a") {
			names = append(names, e.Name())
		}
	}
	if len(names) == 0 {
		return nil, nil
	}
	sort.Strings(names)
	data, err := fs.ReadFile(s, path.Join(AuditDir, names[len(names)-1], "audit.json"))
	if err != nil {
		return nil, fmt.Errorf("audit records: %w", err)
	}
	var r AuditRecord
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("audit record %s: %w", names[len(names)-1], err)
	}
	return &r, nil
}

// WriteAudit publishes r as the record of audit r.Seq in the archive s
// (AuditDir), setting r.EventID, and returns the record's folder name. It
// fails, writing nothing, when a record of that number exists (two
// writers of one archive).
func WriteAudit(ctx context.Context, s Store, r *AuditRecord) (string, error) {
	if r.EventID == "" {
		r.EventID = "urn:uuid:" + uuid.NewString()
	}
	premis, err := r.premis()
	if err != nil {
		return "", err
	}
	js, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return "", err
	}
	var list bytes.Buffer
	zw := gzip.NewWriter(&list)
	for _, b := range r.Read {
		fmt.Fprintln(zw, b)
	}
	if err := zw.Close(); err != nil {
		return "", err
	}
	name := auditName(r.Seq)
	st, err := s.Stage(ctx, name)
	if err != nil {
		return "", fmt.Errorf("audit record %s: %w", name, err)
	}
	for _, f := range []struct {
		name string
		body []byte
	}{{"premis.xml", premis}, {"audit.json", append(js, '\n')}, {"bags.txt.gz", list.Bytes()}} {
		if _, err := st.Put(ctx, f.name, bytes.NewReader(f.body), int64(len(f.body))); err != nil {
			st.Abort(ctx)
			return "", fmt.Errorf("audit record %s: %w", name, err)
		}
	}
	if err := st.Publish(ctx); err != nil {
		st.Abort(ctx)
		return "", fmt.Errorf("audit record %s: %w", name, err)
	}
	return name, nil
}

// The PREMIS 3 document of an audit, written with encoding/xml.
type (
	premisDoc struct {
		XMLName xml.Name      `xml:"premis:premis"`
		NS      string        `xml:"xmlns:premis,attr"`
		XSI     string        `xml:"xmlns:xsi,attr"`
		Loc     string        `xml:"xsi:schemaLocation,attr"`
		Version string        `xml:"version,attr"`
		Objects []premisObj   `xml:"premis:object"`
		Event   premisEvent   `xml:"premis:event"`
		Agent   premisAgentEl `xml:"premis:agent"`
	}
	premisObj struct {
		Type string   `xml:"xsi:type,attr"`
		ID   objectID `xml:"premis:objectIdentifier"`
	}
	objectID struct {
		Type  string `xml:"premis:objectIdentifierType"`
		Value string `xml:"premis:objectIdentifierValue"`
	}
	premisEvent struct {
		ID      eventID      `xml:"premis:eventIdentifier"`
		Type    eventType    `xml:"premis:eventType"`
		Date    string       `xml:"premis:eventDateTime"`
		Detail  string       `xml:"premis:eventDetailInformation>premis:eventDetail"`
		Outcome eventOutcome `xml:"premis:eventOutcomeInformation"`
		Agent   agentLink    `xml:"premis:linkingAgentIdentifier"`
		Objects []objectLink `xml:"premis:linkingObjectIdentifier"`
	}
	eventID struct {
		Type  string `xml:"premis:eventIdentifierType"`
		Value string `xml:"premis:eventIdentifierValue"`
	}
	eventType struct {
		Authority    string `xml:"authority,attr"`
		AuthorityURI string `xml:"authorityURI,attr"`
		ValueURI     string `xml:"valueURI,attr"`
		Text         string `xml:",chardata"`
	}
	eventOutcome struct {
		Outcome string          `xml:"premis:eventOutcome"`
		Details []outcomeDetail `xml:"premis:eventOutcomeDetail"`
	}
	outcomeDetail struct {
		Note string `xml:"premis:eventOutcomeDetailNote"`
	}
	agentLink struct {
		Type  string `xml:"premis:linkingAgentIdentifierType"`
		Value string `xml:"premis:linkingAgentIdentifierValue"`
		Role  string `xml:"premis:linkingAgentRole"`
	}
	objectLink struct {
		Type  string `xml:"premis:linkingObjectIdentifierType"`
		Value string `xml:"premis:linkingObjectIdentifierValue"`
	}
	premisAgentEl struct {
		ID      agentIDEl `xml:"premis:agentIdentifier"`
		Name    string    `xml:"premis:agentName"`
		Type    string    `xml:"premis:agentType"`
		Version string    `xml:"premis:agentVersion,omitempty"`
	}
	agentIDEl struct {
		Type  string `xml:"premis:agentIdentifierType"`
		Value string `xml:"premis:agentIdentifierValue"`
	}
)

// archiveObject is the identifier of the archive as a whole in an audit's
// PREMIS document: the object every audit links to, whatever it read.
const archiveObject = "."

// premis returns the PREMIS 3 document of the audit: the archive (an
// intellectual entity, ".") and each bag with a problem (a
// representation, named by its path in the archive) as objects, the
// fixity check event (LoC eventType "fix") linking them, with the share
// read (bags.txt.gz beside it names every bag read), the outcome and a
// note per problem, and the software as the executing agent.
func (r *AuditRecord) premis() ([]byte, error) {
	ag := agentID("software", r.Software)
	d := premisDoc{NS: mets.NSPREMIS, XSI: "http://www.w3.org/2001/XMLSchema-instance",
		Loc:     mets.NSPREMIS + " https://www.loc.gov/standards/premis/v3/premis-v3-0.xsd",
		Version: mets.PremisVersion,
		Objects: []premisObj{{Type: "premis:intellectualEntity", ID: objectID{"local", archiveObject}}},
		Event: premisEvent{
			ID: eventID{"URN", r.EventID},
			Type: eventType{Authority: "eventType", AuthorityURI: "http://id.loc.gov/vocabulary/preservation/eventType",
				ValueURI: "http://id.loc.gov/vocabulary/preservation/eventType/fix", Text: "fixity check"},
			Date: r.End.UTC().Format(time.RFC3339),
			Detail: fmt.Sprintf("audit %d: share %d of %d of the archive (every bag whose name's FNV-1a hash modulo %d is %d), "+
				"%d bag(s) read with the checks of blogharvest check (BagIt manifests and Payload-Oxum, METS and PREMIS "+
				"against the schemas, MARC lint, METS file references; bags.txt.gz names them), started %s",
				r.Seq, r.Share+1, r.Shares, r.Shares, r.Share, r.Bags, r.Start.UTC().Format(time.RFC3339)),
			Outcome: eventOutcome{Outcome: r.Outcome()},
			Agent:   agentLink{ag.Type, ag.Value, "executing program"},
			Objects: []objectLink{{"local", archiveObject}},
		},
		Agent: premisAgentEl{ID: agentIDEl{ag.Type, ag.Value}, Name: r.Software, Type: "software"},
	}
	for _, p := range r.Problems {
		note := p.Reason
		if p.Bag != "" {
			note = p.Bag + ": " + p.Reason
		}
		d.Event.Outcome.Details = append(d.Event.Outcome.Details, outcomeDetail{note})
	}
	linked := map[string]bool{}
	for _, p := range r.Problems {
		if p.Bag == "" || linked[p.Bag] {
			continue
		}
		linked[p.Bag] = true
		d.Objects = append(d.Objects, premisObj{Type: "premis:representation", ID: objectID{"local", p.Bag}})
		d.Event.Objects = append(d.Event.Objects, objectLink{"local", p.Bag})
	}
	var b bytes.Buffer
	b.WriteString(xml.Header)
	enc := xml.NewEncoder(&b)
	enc.Indent("", "  ")
	if err := enc.Encode(d); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}
