package daemon_test

import (
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/fixture"
	"github.com/blogharvest/blogharvest/internal/marctools"
	"github.com/blogharvest/blogharvest/marc"
)

// TestPlainBlogBinary crawls the "plain" fixture blog (issue 16) with the
// real binary and reads the archive it wrote: a held-out post's page date,
// printed to the day, is 269 $c YYYY-MM-DD in its MARC record; an edited
// post's creation date is its own and the edit is in 260 $m; the listings
// /index2.html … are not archived; /about/ is a page; every screenshot
// would be a .png (no rendering here: render never).
func TestPlainBlogBinary(t *testing.T) {
	t.Parallel()
	site := fixture.MustNew("plain")
	srv := httptest.NewServer(site.Handler())
	defer srv.Close()
	out := t.TempDir()
	b, err := exec.Command(daemontest.Binary(), "crawl", "-url", srv.URL+"/", "-out", out, "-delay", "1ms", "-render", "never").CombinedOutput()
	if err != nil {
		t.Fatalf("crawl: %v\n%s", err, daemontest.LastLines(string(b), 30))
	}
	records := map[string]string{} // the entry's 520 $u → its METS, whitespace between tags removed
	between := regexp.MustCompile(`>\s+<`)
	uri := regexp.MustCompile(`<datafield tag="520" ind1=" " ind2=" "><subfield code="3">uri</subfield><subfield code="u">([^<]+)</subfield>`)
	for p, data := range archiveFiles(t, out) {
		if filepath.Base(p) != "METS.xml" || !strings.Contains(string(data), "BLOGPOST") {
			continue
		}
		mets := between.ReplaceAllString(string(data), "><")
		if m := uri.FindStringSubmatch(mets); m != nil {
			records[m[1]] = mets
		}
	}
	truth := site.Truth(srv.URL)
	checked, edited := 0, 0
	for _, p := range truth.Posts {
		rec, ok := records[p.URL]
		if !ok {
			t.Errorf("post %s: no MARC record", p.URL)
			continue
		}
		if p.InFeed {
			continue
		}
		checked++
		date, _ := time.Parse(time.RFC3339, p.Date)
		if want := `<datafield tag="269" ind1=" " ind2=" "><subfield code="c">` + date.UTC().Format(time.DateOnly) + `</subfield>`; !strings.Contains(rec, want) {
			t.Errorf("post %s: no %s in\n%s", p.URL, want, fieldLines(rec, "269"))
		}
		if p.Modified != p.Date {
			edited++
			mod, _ := time.Parse(time.RFC3339, p.Modified)
			if want := `<datafield tag="260" ind1=" " ind2=" "><subfield code="m">` + mod.UTC().Format(time.DateOnly) + `</subfield>`; !strings.Contains(rec, want) {
				t.Errorf("edited post %s: no %s in\n%s", p.URL, want, fieldLines(rec, "260"))
			}
		}
	}
	for u := range records {
		if strings.Contains(u, "/index") {
			t.Errorf("listing %s archived", u)
		}
	}
	for _, p := range truth.Pages {
		if rec := records[p.URL]; !strings.Contains(rec, `<subfield code="b">page</subfield>`) {
			t.Errorf("page %s: not archived as a page:\n%s", p.URL, fieldLines(rec, "980"))
		}
	}
	if checked == 0 || edited == 0 {
		t.Errorf("checked %d held-out posts, %d edited: the fixture covers too little", checked, edited)
	}
	if err := marctools.Available(); err != nil {
		t.Logf("MARC tools not checked: %v", err)
		return
	}
	recs, err := marctools.ArchiveRecords(out) // day-only 269 $c through yaz-marcdump and MARC::Lint
	if err != nil {
		t.Fatal(err)
	}
	marctools.Check(t, recs, marc.AllowedToolWarning)
}

// fieldLines returns the datafields of a MARCXML record with tag, for
// messages.
func fieldLines(rec, tag string) string {
	var out []string
	for _, l := range strings.SplitAfter(rec, "</datafield>") {
		if strings.Contains(l, `tag="`+tag+`"`) {
			out = append(out, strings.TrimSpace(l))
		}
	}
	return strings.Join(out, "\n")
}
