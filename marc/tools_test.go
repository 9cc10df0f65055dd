package marc_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/internal/marctools"
	"github.com/blogharvest/blogharvest/marc"
)

// TestGoldenTools runs every golden record through yaz-marcdump (MARCXML →
// ISO 2709 → MARCXML, every field and subfield compared) and MARC::Lint,
// which may report only what marc.ToolWarnings allows. It skips when the
// tools are not installed (Debian: yaz, libmarc-lint-perl).
func TestGoldenTools(t *testing.T) {
	if err := marctools.Available(); err != nil {
		t.Skip(err)
	}
	files, err := filepath.Glob(filepath.Join("testdata", "*.golden.xml"))
	if err != nil || len(files) != len(goldenCases()) {
		t.Fatalf("golden files %v (%v), want %d", files, err, len(goldenCases()))
	}
	var recs []*marc.Record
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r, err := marc.ParseMARCXML(data)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		recs = append(recs, r)
	}
	marctools.Check(t, recs, marc.AllowedToolWarning)
}

// TestToolsCatchOldFaults makes sure TestGoldenTools can fail: a record
// with the faults the crosswalk used to have (two 100s, a blank 100
// indicator, $3 in 100, an article not skipped, a field over ISO 2709's
// limit with line breaks) must come back changed from yaz-marcdump or draw
// MARC::Lint warnings that are not allowed.
func TestToolsCatchOldFaults(t *testing.T) {
	if err := marctools.Available(); err != nil {
		t.Skip(err)
	}
	r := marc.FromEntry(fullEntry(), fullOptions("old"))
	r.Data = append(r.Data,
		marc.DataField{Tag: "100", Ind1: ' ', Ind2: ' ', Subfields: []marc.Subfield{{Code: '3', Value: "aliases"}, {Code: 'g', Value: "x"}}},
		marc.DataField{Tag: "245", Ind1: '1', Ind2: '0', Subfields: []marc.Subfield{{Code: 'a', Value: "The title"}}},
		marc.DataField{Tag: "520", Ind1: ' ', Ind2: ' ', Subfields: []marc.Subfield{{Code: 'a', Value: strings.Repeat("line\n", 2500)}}})
	iso, back, err := marctools.RoundTrip(t.TempDir(), []*marc.Record{r})
	if err == nil && len(marctools.Compare([]*marc.Record{r}, back)) == 0 {
		t.Error("yaz-marcdump round trip kept a 12,500-byte field intact")
	}
	if iso == nil {
		return
	}
	ws, err := marctools.Lint(t.TempDir(), iso)
	if err != nil {
		t.Fatal(err)
	}
	bad := 0
	for _, w := range ws {
		if _, ok := marc.AllowedToolWarning(w.Text); !ok {
			bad++
		}
	}
	if bad == 0 {
		t.Errorf("MARC::Lint found nothing to object to: %v", ws)
	}
}
