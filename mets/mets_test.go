package mets_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/mets"
	"github.com/blogharvest/blogharvest/schemas"

	"github.com/blogharvest/blogharvest/internal/toolskip"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.xml")

// when is the fixed clock of every test document.
var when = time.Date(2024, 3, 1, 12, 30, 0, 0, time.FixedZone("CET", 3600))

const marcRecord = `<record xmlns="http://www.loc.gov/MARC21/slim">
  <leader>00000naa a22000007n 4500</leader>
  <controlfield tag="001">entry-1</controlfield>
  <datafield tag="245" ind1="0" ind2="0"><subfield code="a">A &lt;b&gt; &amp; "c" – ünïcødé</subfield></datafield>
  <datafield tag="520" ind1=" " ind2=" "><subfield code="a"> leading and trailing space </subfield></datafield>
</record>`

// sample returns a document using every feature of the model.
func sample() *mets.Document {
	const sum = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
	return &mets.Document{
		ObjID: "urn:uuid:6ba7b810-9dad-51d1-80b4-00c04fd430c8", Type: "Entry", Label: "A post", Created: when,
		Agents: []mets.Agent{
			{Role: "CREATOR", Type: "OTHER", OtherType: "SOFTWARE", Name: "blogharvest 0.1.0"},
			{Role: "CUSTODIAN", Type: "ORGANIZATION", Name: "Example Library", Notes: []string{"a note"}},
		},
		DmdSecs: []mets.DmdSec{{ID: "dmd-entry", MDType: "MARC", XML: []byte(marcRecord)},
			{ID: "dmd-comment-1", MDType: "MARC", Label: "comment", XML: []byte(strings.Replace(marcRecord, "entry-1", "comment-1", 1))}},
		AltRecordIDs: []mets.AltRecordID{{Type: "VERSION-INDEPENDENT", Value: "urn:uuid:6ba7b811-9dad-51d1-80b4-00c04fd430c8"}},
		AmdSecs: []mets.AmdSec{
			{ID: "amd-page", Objects: []mets.Object{
				{ID: "obj-page", Identifier: mets.Identifier{Type: "UUID", Value: "urn:uuid:00000000-0000-5000-8000-000000000001"},
					SHA256: sum, Size: 0, FormatName: "text/html; charset=UTF-8", PUID: "fmt/96", FormatNote: "siegfried",
					OriginalName: "https://example.org/2024/03/a-post/", Properties: []mets.Property{{Type: "HTTP status", Value: "200"}}}},
				Events: []mets.Event{{ID: "ev-capture", Type: mets.EventCapture, Date: when, Outcome: "success", Detail: "HTTP GET",
					Objects: []string{"obj-page"}, Agents: []mets.AgentLink{{ID: "ag-software", Role: "executing program"}}}}},
			{ID: "amd-image", Objects: []mets.Object{
				{ID: "obj-image", SHA256: sum, FormatName: "image/png", FormatVersion: "1.0", OriginalName: "https://example.org/a.png?x=1&y=2",
					Relationships: []mets.Relationship{{Type: mets.RelDerivation, SubType: mets.RelHasSource,
						Related: mets.Identifier{Type: "URI", Value: "https://example.org/a.png"}}}}},
				Events: []mets.Event{{ID: "ev-creation", Type: mets.EventCreation, Date: when, Objects: []string{"obj-image"},
					Agents: []mets.AgentLink{{ID: "ag-software"}}}}},
			{ID: "amd-package",
				Objects: []mets.Object{{ID: "obj-entity", Entity: true, Identifier: mets.Identifier{Type: "URI", Value: "urn:uuid:6ba7b810-9dad-51d1-80b4-00c04fd430c8"},
					Relationships: []mets.Relationship{{Type: mets.RelStructural, SubType: mets.RelIsPartOf,
						Related: mets.Identifier{Type: "URI", Value: "urn:uuid:6ba7b812-9dad-51d1-80b4-00c04fd430c8"}}}}},
				Rights: []mets.Rights{
					{ID: "rights-copyright", Basis: "copyright", CopyrightStatus: "copyrighted", Terms: "© 2024 A. Writer", Objects: []string{"obj-entity"}},
					{ID: "rights-license", Basis: "license", LicenseURI: "https://creativecommons.org/licenses/by/4.0/", Objects: []string{"obj-entity"}},
					{ID: "rights-other", Basis: "other", Terms: "access restriction", Note: "password protected"},
				},
				Events: []mets.Event{
					{ID: "ev-validation", Type: mets.EventValidation, Date: when, Outcome: "success", OutcomeDetail: "METS, MARC, PREMIS valid",
						Agents: []mets.AgentLink{{ID: "ag-software"}, {ID: "ag-org", Role: "implementer"}}},
					{ID: "ev-custom", Type: "normalization", Date: when},
				},
				Agents: []mets.PremisAgent{
					{ID: "ag-software", Name: "blogharvest", Type: "software", Version: "0.1.0"},
					{ID: "ag-org", Name: "Example Library", Type: "organization", Note: "custodian"},
				}},
		},
		FileGroups: []mets.FileGroup{
			{Use: "original", Files: []mets.File{{ID: "file-page", MimeType: "text/html; charset=utf-8", Checksum: sum, Created: when,
				Href: "objects/page/index.html", AdmIDs: []string{"amd-page"}}}},
			{Use: "media", Files: []mets.File{{ID: "file-image", MimeType: "image/png", Checksum: sum,
				Href: "objects/media/a%20b.png", LocType: "OTHER", AdmIDs: []string{"amd-image"}}}},
		},
		StructMap: mets.Div{Type: "Entry", Label: "A post", DmdIDs: []string{"dmd-entry"}, AdmIDs: []string{"amd-package"},
			Fptrs:    []string{"file-page", "file-image"},
			Children: []mets.Div{{ID: "div-c1", Type: "Comment", DmdIDs: []string{"dmd-comment-1"}}}},
	}
}

// minimal returns the smallest document Marshal accepts.
func minimal() *mets.Document {
	return &mets.Document{Created: when, StructMap: mets.Div{Type: "Blog"}}
}

func TestGolden(t *testing.T) {
	for name, d := range map[string]*mets.Document{"full": sample(), "minimal": minimal()} {
		t.Run(name, func(t *testing.T) {
			got, err := d.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", name+".golden.xml")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from %s (run with -update if intended):\n%s", golden, got)
			}
			if p := schemas.Validate(got); len(p) != 0 {
				t.Errorf("schemas.Validate: %v", p)
			}
			xmllint(t, golden)
		})
	}
}

// xmllint validates file with libxml2 against the driver schema of the
// schemas package; it skips when xmllint is not installed.
func xmllint(t *testing.T, file string) {
	t.Helper()
	if _, err := exec.LookPath("xmllint"); err != nil {
		toolskip.Missing(t, "xmllint", err)
	}
	out, err := exec.Command("xmllint", "--noout", "--nonet", "--schema", "../schemas/driver.xsd", file).CombinedOutput()
	if err != nil {
		t.Errorf("xmllint %s: %v\n%s", file, err, out)
	}
}

func TestDeterministic(t *testing.T) {
	a, _ := sample().Marshal()
	for range 20 {
		b, _ := sample().Marshal()
		if !bytes.Equal(a, b) {
			t.Fatal("two marshals of the same document differ")
		}
	}
}

// TestEmbeddedXMLKept checks that the descriptive XML keeps its namespace,
// escaping and significant whitespace.
func TestEmbeddedXMLKept(t *testing.T) {
	out, err := sample().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`<record xmlns="http://www.loc.gov/MARC21/slim">`,
		`A &lt;b&gt; &amp; &quot;c&quot; – ünïcødé`,
		`<subfield code="a"> leading and trailing space </subfield>`,
		`xsi:type="premis:file"`, `xmlns:premis="http://www.loc.gov/premis/v3"`,
		`valueURI="http://id.loc.gov/vocabulary/preservation/eventType/cap"`,
		`CREATEDATE="2024-03-01T11:30:00Z"`,
		`MIMETYPE="text/html"`, `<premis:formatName>text/html</premis:formatName>`,
		`<premis:object version="3.0" xsi:type="premis:file">`, `<premis:event version="3.0">`,
		`<premis:formatRegistryKey>fmt/96</premis:formatRegistryKey>`,
		`<premis:objectIdentifierValue>urn:uuid:00000000-0000-5000-8000-000000000001</premis:objectIdentifierValue>`,
		`<premis:linkingObjectIdentifierValue>urn:uuid:00000000-0000-5000-8000-000000000001</premis:linkingObjectIdentifierValue>`,
		`<mets:structMap TYPE="physical" ID="structmap-physical" LABEL="files">`,
		`<mets:div TYPE="Item" LABEL="a b.png">`, `xsi:schemaLocation="http://www.loc.gov/METS/ http://www.loc.gov/standards/mets/version1121/mets.xsd`,
	} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("output lacks %s", want)
		}
	}
}

func TestMarshalRejects(t *testing.T) {
	cases := map[string]func(d *mets.Document){
		"digit ID":        func(d *mets.Document) { d.DmdSecs[0].ID = "1dmd"; d.StructMap.DmdIDs = []string{"1dmd"} },
		"duplicate ID":    func(d *mets.Document) { d.AmdSecs[1].Objects[0].ID = "obj-page" },
		"structMap ID":    func(d *mets.Document) { d.AmdSecs[0].ID = mets.PhysicalMapID },
		"ADMID not amd":   func(d *mets.Document) { d.FileGroups[0].Files[0].AdmIDs = []string{"obj-page"} },
		"rights object":   func(d *mets.Document) { d.AmdSecs[2].Rights[0].Objects = []string{"obj-nothing"} },
		"dangling FILEID": func(d *mets.Document) { d.StructMap.Fptrs = append(d.StructMap.Fptrs, "file-nothing") },
		"dangling ADMID":  func(d *mets.Document) { d.FileGroups[0].Files[0].AdmIDs = []string{"obj-nothing"} },
		"event object":    func(d *mets.Document) { d.AmdSecs[0].Events[0].Objects = []string{"obj-nothing"} },
		"zero created":    func(d *mets.Document) { d.Created = time.Time{} },
		"bad dmd XML":     func(d *mets.Document) { d.DmdSecs[0].XML = []byte("<record>") },
		"no dmd element":  func(d *mets.Document) { d.DmdSecs[0].XML = []byte("just text") },
		"space in ID":     func(d *mets.Document) { d.StructMap.Children[0].ID = "div c1" },
	}
	for name, breakIt := range cases {
		d := sample()
		breakIt(d)
		if _, err := d.Marshal(); err == nil {
			t.Errorf("%s: Marshal succeeded", name)
		}
	}
}

func TestID(t *testing.T) {
	for in, want := range map[string]string{
		"file-1": "file-1", "1file": "id-1file", "": "id-", "a b/c": "a-b-c", "ünï": "id--n-", "-x": "id--x", "_ok.x": "_ok.x",
	} {
		if got := mets.ID(in); got != want {
			t.Errorf("ID(%q) = %q, want %q", in, got, want)
		}
	}
	if got := mets.ID("file", "page", "0"); got != "file-page-0" {
		t.Errorf("ID(parts) = %q", got)
	}
}

// TestMarshalToConcurrentBuffersStayApart: MarshalTo writes each section
// through a buffer taken from a pool; documents written at once from
// several goroutines, large (a section over the 64 KB flush size, as a
// post's full text makes) and small, each come out as when written alone,
// so no buffer is shared or handed back while in use.
func TestMarshalToConcurrentBuffersStayApart(t *testing.T) {
	big := sample()
	long := strings.Repeat("a paragraph of a long post &amp; its &lt;markup&gt; ", 4000) // ~170 kB in one dmdSec
	big.DmdSecs[0].XML = []byte(strings.Replace(marcRecord, " leading and trailing space ", long, 1))
	docs := []*mets.Document{big, sample(), minimal()}
	want := make([][]byte, len(docs))
	for i, d := range docs {
		var b bytes.Buffer
		if err := d.MarshalTo(&b); err != nil {
			t.Fatal(err)
		}
		want[i] = b.Bytes()
	}
	if len(want[0]) < 150_000 {
		t.Fatalf("the large document has %d bytes: no section over the flush size", len(want[0]))
	}
	var wg sync.WaitGroup
	errs := make(chan error, 8*len(docs))
	for range 8 {
		for i, d := range docs {
			wg.Go(func() {
				for range 5 {
					var b bytes.Buffer
					if err := d.MarshalTo(&b); err != nil {
						errs <- err
						return
					}
					if !bytes.Equal(b.Bytes(), want[i]) {
						errs <- fmt.Errorf("document %d: %d bytes differ from the %d written alone", i, b.Len(), len(want[i]))
						return
					}
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
