package aip_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/internal/marctools"
	"github.com/blogharvest/blogharvest/internal/toolskip"
	"github.com/blogharvest/blogharvest/marc"
)

// TestGoldenMARCTools checks the MARC records of the golden AIPs with
// yaz-marcdump (ISO 2709 round trip, every field and subfield intact) and
// MARC::Lint (no warning outside marc.ToolWarnings). It skips when the
// tools are not installed.
func TestGoldenMARCTools(t *testing.T) {
	if err := marctools.Available(); err != nil {
		toolskip.Missing(t, "yaz-marcdump or MARC::Lint", err)
	}
	recs, err := marctools.ArchiveRecords(validRoot)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) < 3 {
		t.Fatalf("%d MARC records in %s, want the blog, the entry and its comments", len(recs), validRoot)
	}
	marctools.Check(t, recs, marc.AllowedToolWarning)
}

// TestMARCOrganizationLanguage checks that the Writer's organisation is the
// records' cataloguing agency (040 $a) and that an entry's records take the
// blog's language (Entry.Language) in 008/35-37.
func TestMARCOrganizationLanguage(t *testing.T) {
	w := &aip.Writer{Root: t.TempDir(), Organization: "Example Library", OrgCode: "XxEL", Software: "blogharvest 0.1.0", Now: fixedNow, ValidateEvery: 1}
	defer w.Close()
	e := fixtureEntry()
	e.Language = "fr-CA"
	res, err := w.WriteEntry(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := marctools.FromMETS(filepath.Join(res.Dir, "data", "METS.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1+len(e.Comments) {
		t.Fatalf("%d records, want %d", len(recs), 1+len(e.Comments))
	}
	for _, r := range recs {
		id, _ := r.ControlValue("001")
		if f008, _ := r.ControlValue("008"); len(f008) != 40 || f008[35:38] != "fre" {
			t.Errorf("%s: 008 %q, want fre in 35-37", id, f008)
		}
		// 003 and 040 $a $c hold the organization code, never the free-text name.
		if f := r.Fields("040"); len(f) != 1 || f[0].Value('a') != "XxEL" || f[0].Value('c') != "XxEL" {
			t.Errorf("%s: 040 %v, want $a and $c XxEL", id, f)
		}
		if v, _ := r.ControlValue("003"); v != "XxEL" {
			t.Errorf("%s: 003 %q, want XxEL", id, v)
		}
	}
}
