package daemon_test

import (
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/marctools"
	"github.com/blogharvest/blogharvest/internal/toolskip"
	"github.com/blogharvest/blogharvest/marc"
)

// TestDemoMARCTools checks every MARC record of the demo's archive
// (DemoArchive) with tools this project did not write: a yaz-marcdump
// round trip MARCXML → ISO 2709 → MARCXML must give back every field and
// subfield, and MARC::Lint may report only the warnings marc.ToolWarnings
// allows. It skips when yaz or MARC::Lint is not installed.
func TestDemoMARCTools(t *testing.T) {
	t.Parallel()
	if err := marctools.Available(); err != nil {
		toolskip.Missing(t, "yaz-marcdump or MARC::Lint", err)
	}
	out := daemontest.DemoArchive(t)
	recs, err := marctools.ArchiveRecords(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) < 100 {
		t.Fatalf("%d MARC records in the demo archive, want the blog, 44 entries and their comments", len(recs))
	}
	marctools.Check(t, recs, marc.AllowedToolWarning)
}
