package daemon_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/metstest"
)

// TestDemoArchiveMETS reads every METS of the archive `demo` makes
// (daemon.DemoArchive) with Archivematica's METS library
// (../shared/tools/metsrw-read; skipped without ../shared or python3-lxml),
// which must list every payload file of each bag (Blog, Entry and
// requisites packages); and checks that no file the software made (logs, rendered DOM,
// screenshot, learned rules, an entry's feed item) is linked to a capture
// event.
func TestDemoArchiveMETS(t *testing.T) {
	if testing.Short() {
		t.Skip("harvests the sample blog")
	}
	t.Parallel()
	archive := daemontest.DemoArchive(t)
	docs, _ := filepath.Glob(filepath.Join(archive, "sample", "entries", "*", "*", "v*", "data", "METS.xml"))
	blog, _ := filepath.Glob(filepath.Join(archive, "sample", "blog", "v*", "data", "METS.xml"))
	reqs, _ := filepath.Glob(filepath.Join(archive, "sample", "requisites", "v*", "data", "METS.xml"))
	if len(reqs) == 0 {
		t.Error("demo wrote no requisites package")
	}
	docs = append(append(docs, blog...), reqs...)
	if len(docs) < 2 {
		t.Fatalf("demo wrote %d METS documents", len(docs))
	}
	for _, d := range docs {
		entry := strings.Contains(d, string(filepath.Separator)+"entries"+string(filepath.Separator))
		metstest.CheckProvenance(t, d, func(href string) bool { return metstest.Generated(href, entry) })
	}
	metstest.MetsrwListsPayload(t, "../../shared/tools/metsrw-read", docs...)
}
