package daemon_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// TestPublishedRepair: published lists every bag of a crawl once; with a
// line of the log lost (a crash between a bag's publication and its
// announcement, played by removing it) the bag is missing from the list
// until published -repair announces it again; -since and -blog filter;
// a bad -since is a usage error.
func TestPublishedRepair(t *testing.T) {
	t.Parallel()
	archive, _ := daemontest.CrawlDemo(t)
	bags := daemontest.BagFolders(t, archive)
	paths := func() []string {
		t.Helper()
		code, out, stderr := daemontest.Run(t, "published", "-paths", archive)
		if code != 0 {
			t.Fatalf("published: exit %d\n%s", code, stderr)
		}
		return slices.Sorted(slices.Values(strings.Fields(out)))
	}
	if got := paths(); len(bags) < 40 || !slices.Equal(got, bags) {
		t.Fatalf("published lists %d, the archive holds %d bags", len(got), len(bags))
	}
	recs, _ := filepath.Glob(filepath.Join(archive, ".publications", "*", "*", "*", "*.json"))
	if len(recs) != len(bags) {
		t.Fatalf("%d records for %d bags", len(recs), len(bags))
	}
	os.Remove(recs[len(recs)/2])
	if got := paths(); len(got) != len(bags)-1 {
		t.Fatalf("a line removed: %d listed", len(got))
	}
	code, _, stderr := daemontest.Run(t, "published", "-repair", archive)
	if code != 0 || !strings.Contains(stderr, "1 bag(s) were unannounced") {
		t.Fatalf("published -repair: exit %d\n%s", code, stderr)
	}
	if got := paths(); !slices.Equal(got, bags) {
		t.Errorf("after -repair published lists %d of %d bags", len(got), len(bags))
	}
	for _, args := range [][]string{{"-since", "2999-01-01"}, {"-blog", "no-such-blog"}} {
		if code, out, _ := daemontest.Run(t, append([]string{"published", archive}, args...)...); code != 0 || out != "" {
			t.Errorf("published %v: exit %d, %d bytes", args, code, len(out))
		}
	}
	rel, _ := filepath.Rel(archive, bags[0])
	blog := strings.Split(filepath.ToSlash(rel), "/")[0]
	if code, out, _ := daemontest.Run(t, "published", archive, "-since", "24h", "-blog", blog); code != 0 || strings.Count(out, "\n") != len(bags) {
		t.Errorf("published -since 24h -blog %s: exit %d, %d lines, want %d", blog, code, strings.Count(out, "\n"), len(bags))
	}
	if code, _, stderr := daemontest.Run(t, "published", archive, "-since", "last tuesday"); code != 2 || !strings.Contains(stderr, "neither a time") {
		t.Errorf("a bad -since: exit %d\n%s", code, stderr)
	}
}
