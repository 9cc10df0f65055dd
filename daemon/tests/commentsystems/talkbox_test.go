package commentsystems_test

import (
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beevik/etree"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/harvest/textsim"
	"github.com/blogharvest/blogharvest/internal/fixture"
	"github.com/blogharvest/blogharvest/marc"

	"github.com/blogharvest/blogharvest/internal/toolskip"
)

// TestCrawlArchivesUnknownCommentSystems runs the real binary, `crawl
// -render auto -allow <service>`, on the talkbox blog, whose comments are
// drawn by two systems in no table from another origin: an empty div
// filled from a JSON API ("Load more" cards) and an iframe app (authors in
// headings, dates in title attributes). Every comment of the truth must
// be in the archive's COMMENT records, and no other; precision and
// recall are logged per kind.
func TestCrawlArchivesUnknownCommentSystems(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process and a browser")
	}
	t.Parallel()
	if _, err := exec.LookPath("chromium"); err != nil {
		toolskip.Missing(t, "chromium", err)
	}
	site := fixture.MustNew("talkbox")
	svc := httptest.NewServer(site.ServiceHandler())
	defer svc.Close()
	site.SetCommentService(svc.URL)
	srv := httptest.NewServer(site.Handler())
	defer srv.Close()
	out := t.TempDir()
	cmd := exec.Command(daemontest.Binary(), "crawl", "-url", srv.URL+"/", "-out", out, "-delay", "1ms", "-render", "auto", "-allow", svc.URL)
	logs, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("crawl: %v\n%s", err, daemontest.LastLines(string(logs), 30))
	}
	if !strings.Contains(string(logs), "empty or filled by script") {
		t.Errorf("no render reason logged for a comment system in no table\n%s", daemontest.LastLines(string(logs), 20))
	}
	archived := archivedComments(t, out)
	type score struct{ got, want, match int }
	kinds := map[string]*score{"talkbox": {}, "iframe-app": {}}
	for _, p := range site.Truth(srv.URL).Posts {
		kind := "talkbox"
		if p.IframeApp {
			kind = "iframe-app"
		}
		s := kinds[kind]
		got := archived[p.URL]
		s.got += len(got)
		s.want += len(p.Comments)
		for _, c := range p.Comments {
			if got[c.Author+"\x00"+textsim.NormalizeText(c.Text)] {
				s.match++
			} else {
				t.Errorf("%s: comment %s by %s not archived", p.URL, c.ID, c.Author)
			}
		}
	}
	for kind, s := range kinds {
		t.Logf("%s: %d archived, %d in the truth, %d matched: precision %d/%d recall %d/%d", kind, s.got, s.want, s.match, s.match, s.got, s.match, s.want)
		if s.want == 0 || s.match != s.want || s.got != s.want {
			t.Errorf("%s: %d archived, %d matched of %d", kind, s.got, s.match, s.want)
		}
	}
	daemontest.CheckArchive(t, out)
}

// archivedComments reads every COMMENT record of the MARC records
// embedded in the archive's METS documents under root: by the permalink
// of the post it belongs to, the set of its comments' author and
// normalised text.
func archivedComments(t *testing.T, root string) map[string]map[string]bool {
	t.Helper()
	out := map[string]map[string]bool{}
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(path) != "METS.xml" {
			return err
		}
		doc := etree.NewDocument()
		if err := doc.ReadFromFile(path); err != nil {
			t.Fatal(err)
		}
		for _, data := range embeddedMARC(doc) {
			r, err := marc.ParseMARCXML(data)
			if err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			a := marc.Attributes(r)
			if len(a["is_child_of_post"]) == 0 || len(a["author"]) == 0 {
				continue
			}
			post := a["is_child_of_post"][0]
			if out[post] == nil {
				out[post] = map[string]bool{}
			}
			out[post][a["author"][0]+"\x00"+textsim.NormalizeText(textsim.HTMLText(strings.Join(a["full_content"], "")))] = true
		}
		return nil
	})
	return out
}

// embeddedMARC returns each MARCXML record of a METS document's dmdSecs
// as a document of its own.
func embeddedMARC(doc *etree.Document) [][]byte {
	var out [][]byte
	for _, sec := range doc.FindElements("//dmdSec") {
		wrap := sec.SelectElement("mdWrap")
		if wrap == nil || wrap.SelectAttrValue("MDTYPE", "") != "MARC" || wrap.SelectElement("xmlData") == nil {
			continue
		}
		for _, rec := range wrap.SelectElement("xmlData").ChildElements() {
			el := rec.Copy()
			if el.Space != "" {
				el.CreateAttr("xmlns:"+el.Space, rec.NamespaceURI())
			}
			d := etree.NewDocument()
			d.SetRoot(el)
			if data, err := d.WriteToBytes(); err == nil {
				out = append(out, data)
			}
		}
	}
	return out
}
