package daemon_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/fixture"
	"github.com/blogharvest/blogharvest/internal/marctools"
	"github.com/blogharvest/blogharvest/marc"
	"github.com/blogharvest/blogharvest/report"
)

// TestExportEveryFormat exports a harvested blog in each format, reads each
// back, finds every post, page and comment of the blog with its fields, and
// finds the same corpus in all three formats.
func TestExportEveryFormat(t *testing.T) {
	t.Parallel()
	archive, truth := daemontest.CrawlDemo(t)
	var corpora [][]report.Post
	for _, format := range report.Formats {
		file := filepath.Join(t.TempDir(), "corpus."+format)
		code, _, stderr := daemontest.Run(t, "export", archive, "-format", format, "-out", file)
		if code != 0 {
			t.Fatalf("export -format %s: exit %d\n%s", format, code, stderr)
		}
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		posts, err := readers[format](f)
		f.Close()
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		corpora = append(corpora, posts)
	}
	checkAgainstTruth(t, archive, corpora[0], truth)
	for i := 1; i < len(corpora); i++ {
		if !reflect.DeepEqual(corpora[0], corpora[i]) {
			t.Errorf("%s and %s read back differently", report.Formats[0], report.Formats[i])
			for j := range min(len(corpora[0]), len(corpora[i])) {
				if !reflect.DeepEqual(corpora[0][j], corpora[i][j]) {
					t.Fatalf("first difference:\n%+v\n%+v", corpora[0][j], corpora[i][j])
				}
			}
		}
	}
	// One blog's folder exports the same corpus; stdout without -out.
	code, stdout, stderr := daemontest.Run(t, "export", "-format", "jsonl", filepath.Join(archive, corpora[0][0].Blog))
	if posts, err := readJSONL(strings.NewReader(stdout)); code != 0 || err != nil || !reflect.DeepEqual(posts, corpora[0]) {
		t.Errorf("export of the blog folder: exit %d, %v, %d posts\n%s", code, err, len(posts), stderr)
	}
}

// checkAgainstTruth finds every post, page and comment of truth in posts,
// field by field.
func checkAgainstTruth(t *testing.T, archive string, posts []report.Post, truth fixture.Truth) {
	t.Helper()
	byURL := map[string]report.Post{}
	for _, p := range posts {
		byURL[p.Permalink] = p
	}
	all := append(append([]fixture.PostTruth{}, truth.Posts...), truth.Pages...)
	if len(posts) != len(all) {
		t.Errorf("%d entries exported, the blog has %d", len(posts), len(all))
	}
	comments := 0
	for _, want := range all {
		got, ok := byURL[want.URL]
		if !ok {
			t.Errorf("%s: not exported", want.URL)
			continue
		}
		if got.Title != want.Title || got.Author != want.Author || got.Kind != want.Kind || got.Version != 1 ||
			!sameRFC3339(got.Created, want.Date) || !sameWords(got.Text, want.BodyText) ||
			!strings.HasPrefix(got.AIP, got.Blog+"/entries/") || !strings.HasSuffix(got.AIP, "/v1") || !isDir(archive, got.AIP) {
			t.Errorf("%s:\n got %+v\nwant %+v", want.URL, got, want)
		}
		if want.Kind == "post" && (!sameList(got.Categories, want.Categories) || !sameList(got.Tags, want.Tags)) {
			t.Errorf("%s: categories %q tags %q, want %q %q", want.URL, got.Categories, got.Tags, want.Categories, want.Tags)
		}
		comments += checkExportedComments(t, archive, got, want)
	}
	if comments == 0 {
		t.Error("the blog has no comments: the test checks nothing about them")
	}
}

// checkExportedComments checks that got has every comment its AIP holds,
// each with the fields of its MARC record (read here apart from the
// exporter), and, when the harvest found the whole thread, that each is
// the comment of want with the same fields (text included). It returns
// how many it checked.
func checkExportedComments(t *testing.T, archive string, got report.Post, want fixture.PostTruth) int {
	t.Helper()
	recs := recordsByID(t, filepath.Join(archive, filepath.FromSlash(got.AIP), "data", "METS.xml"))
	if len(got.Comments) != len(recs)-1 {
		t.Errorf("%s: %d comments exported, its AIP holds %d", want.URL, len(got.Comments), len(recs)-1)
	}
	for _, c := range got.Comments {
		r, ok := recs[c.ID]
		if !ok || c.Author != field(r, "100", 'a') || c.Added != field(r, "269", 'c') || c.Permalink != field(r, "520", 'u') ||
			c.Parent != field(r, "773", 'o', "is_child_of_comment") || c.ParentID != field(r, "773", 'w', "is_child_of_comment") {
			t.Errorf("comment %s: %+v, its record %v", c.ID, c, r)
		}
	}
	byID := map[string]fixture.CommentTruth{}
	for _, wc := range want.Comments {
		byID[wc.ID] = wc
	}
	for _, c := range got.Comments {
		if wc, ok := byID[fragment(c.Permalink)]; !ok || wc.URL != c.Permalink || fragment(c.Parent) != wc.ParentID {
			t.Logf("%s: the harvest's thread differs from the blog's (%s); its comments are checked against their records only", want.URL, c.Permalink)
			return len(got.Comments)
		}
	}
	if len(got.Comments) != len(want.Comments) {
		t.Errorf("%s: %d comments exported, the blog has %d", want.URL, len(got.Comments), len(want.Comments))
	}
	for _, c := range got.Comments {
		if wc := byID[fragment(c.Permalink)]; c.Author != wc.Author || !sameRFC3339(c.Added, wc.Date) || c.Text != wc.Text {
			t.Errorf("comment %s:\n got %+v\nwant %+v", c.Permalink, c, wc)
		}
	}
	return len(got.Comments)
}

// recordsByID returns the MARC records of a METS document by their 001.
func recordsByID(t *testing.T, path string) map[string]*marc.Record {
	t.Helper()
	recs, err := marctools.FromMETS(path)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*marc.Record{}
	for _, r := range recs {
		id, _ := r.ControlValue("001")
		out[id] = r
	}
	return out
}

// field returns the first subfield code of tag in r, of the field whose
// $3 is label when one is given.
func field(r *marc.Record, tag string, code byte, label ...string) string {
	for _, f := range r.Fields(tag) {
		if len(label) == 0 || f.Value('3') == label[0] {
			if v := f.Value(code); v != "" {
				return v
			}
		}
	}
	return ""
}

// fragment returns what follows # in u.
func fragment(u string) string {
	_, f, _ := strings.Cut(u, "#")
	return f
}

// isDir reports whether rel (slashes) names a folder under root.
func isDir(root, rel string) bool {
	fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
	return err == nil && fi.IsDir()
}

// sameList compares lists, nil and empty alike.
func sameList(a, b []string) bool { return len(a) == 0 && len(b) == 0 || reflect.DeepEqual(a, b) }

func sameRFC3339(a, b string) bool {
	ta, err1 := time.Parse(time.RFC3339, a)
	tb, err2 := time.Parse(time.RFC3339, b)
	return err1 == nil && err2 == nil && ta.Equal(tb)
}

// sameWords compares texts word by word: the archive keeps the article's
// HTML, the fixture a plain rendering of it.
func sameWords(a, b string) bool {
	return strings.Join(strings.Fields(a), " ") == strings.Join(strings.Fields(b), " ")
}

// readers read each export format back, independently of the exporter.
var readers = map[string]func(io.Reader) ([]report.Post, error){
	"jsonl": readJSONL, "xml": readXML, "txt": readText,
}

func readJSONL(r io.Reader) ([]report.Post, error) {
	var out []report.Post
	d := json.NewDecoder(r)
	d.DisallowUnknownFields()
	for {
		var p report.Post
		if err := d.Decode(&p); err == io.EOF {
			return out, nil
		} else if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
}

func readXML(r io.Reader) ([]report.Post, error) {
	var doc struct {
		XMLName xml.Name      `xml:"corpus"`
		Posts   []report.Post `xml:"post"`
	}
	if err := xml.NewDecoder(r).Decode(&doc); err != nil {
		return nil, err
	}
	return doc.Posts, nil
}

// readText parses the plain-text convention of doc/export.md.
func readText(r io.Reader) ([]report.Post, error) {
	var out []report.Post
	var text *string
	var lines []string
	flush := func() {
		if text != nil {
			for len(lines) > 0 && lines[len(lines)-1] == "" {
				lines = lines[:len(lines)-1]
			}
			*text = strings.Join(lines, "\n")
		}
		lines, text = nil, nil
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<24)
	inHeader := false
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, report.TextEntry):
			flush()
			out = append(out, report.Post{Permalink: strings.TrimPrefix(line, report.TextEntry)})
			inHeader = true
		case strings.HasPrefix(line, report.TextComment):
			flush()
			if len(out) == 0 {
				return nil, errors.New("comment before any entry")
			}
			p := &out[len(out)-1]
			p.Comments = append(p.Comments, report.Comment{ID: strings.TrimPrefix(line, report.TextComment)})
			inHeader = true
		case inHeader && line == "":
			inHeader = false
			p := &out[len(out)-1]
			text = &p.Text
			if n := len(p.Comments); n > 0 {
				text = &p.Comments[n-1].Text
			}
		case inHeader:
			key, value, ok := strings.Cut(line, ": ")
			if !ok {
				return nil, errors.New("bad header line " + strconv.Quote(line))
			}
			setField(&out[len(out)-1], key, value)
		default:
			lines = append(lines, strings.TrimPrefix(line, `\`))
		}
	}
	flush()
	return out, sc.Err()
}

func setField(p *report.Post, key, value string) {
	if n := len(p.Comments); n > 0 {
		c := &p.Comments[n-1]
		ptr := map[string]*string{"permalink": &c.Permalink, "author": &c.Author, "subject": &c.Subject,
			"added": &c.Added, "modified": &c.Modified, "parent": &c.Parent, "parent-id": &c.ParentID}[key]
		if ptr != nil {
			*ptr = value
		}
		return
	}
	switch key {
	case "version":
		p.Version, _ = strconv.Atoi(value)
	case "category":
		p.Categories = append(p.Categories, value)
	case "tag":
		p.Tags = append(p.Tags, value)
	default:
		ptr := map[string]*string{"blog": &p.Blog, "aip": &p.AIP, "kind": &p.Kind, "title": &p.Title,
			"author": &p.Author, "created": &p.Created, "modified": &p.Modified, "language": &p.Language}[key]
		if ptr != nil {
			*ptr = value
		}
	}
}

// TestExportOutDashIsStdout: "-out -" means standard output, as for most
// Unix tools, not a file named "-" in the working directory (one was once
// committed by mistake after an export).
func TestExportOutDashIsStdout(t *testing.T) {
	t.Parallel()
	archive, _ := daemontest.CrawlDemo(t)
	code, plain, stderr := daemontest.Run(t, "export", archive)
	if code != 0 {
		t.Fatalf("export: exit %d\n%s", code, stderr)
	}
	code, dash, stderr := daemontest.Run(t, "export", archive, "-out", "-")
	if code != 0 {
		t.Fatalf("export -out -: exit %d\n%s", code, stderr)
	}
	if plain == "" || dash != plain {
		t.Errorf("export -out - wrote %d bytes to standard output, export alone %d", len(dash), len(plain))
	}
	if _, err := os.Lstat("-"); err == nil {
		os.Remove("-")
		t.Error(`export -out - created a file named "-"`)
	}
}

// TestExportVersions exports the latest version of each entry by default
// and every version, oldest first, with -all-versions; a folder that is no
// archive is a clear error.
func TestExportVersions(t *testing.T) {
	t.Parallel()
	archive, _ := daemontest.CrawlDemo(t)
	v1s, _ := filepath.Glob(filepath.Join(archive, "*", "entries", "*", "*", "v1"))
	if len(v1s) == 0 {
		t.Fatal("no entry AIPs")
	}
	v2 := filepath.Join(filepath.Dir(v1s[0]), "v2")
	if err := os.MkdirAll(filepath.Join(v2, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	mets, _ := os.ReadFile(filepath.Join(v1s[0], "data", "METS.xml"))
	edited := string(mets)
	i := strings.Index(edited, `<datafield tag="245"`)
	j := strings.Index(edited[i:], `<subfield code="a">`) + i + len(`<subfield code="a">`)
	edited = edited[:j] + "Edited: " + edited[j:]
	os.WriteFile(filepath.Join(v2, "data", "METS.xml"), []byte(edited), 0o644)

	latest := exportJSONL(t, archive)
	all := exportJSONL(t, archive, "-all-versions")
	if len(all) != len(latest)+1 || len(latest) != len(v1s) {
		t.Fatalf("%d entries, %d with every version, %d entry folders", len(latest), len(all), len(v1s))
	}
	var versions []string
	for _, p := range all {
		if strings.HasPrefix(p.AIP+"/", filepath.ToSlash(mustRel(t, archive, filepath.Dir(v2)))+"/") {
			versions = append(versions, strconv.Itoa(p.Version)+" "+p.Title)
		}
	}
	if len(versions) != 2 || !strings.HasPrefix(versions[0], "1 ") || !strings.HasPrefix(versions[1], "2 Edited: ") {
		t.Errorf("every version: %q", versions)
	}
	for _, p := range latest {
		if strings.HasPrefix(p.Title, "Edited: ") != (p.Version == 2) {
			t.Errorf("latest: %s v%d %q", p.AIP, p.Version, p.Title)
		}
	}
	code, _, stderr := daemontest.Run(t, "export", filepath.Join(archive, "nowhere"))
	if code != 1 || !strings.Contains(stderr, "nowhere") {
		t.Errorf("export of a missing folder: exit %d, %q", code, stderr)
	}
	code, _, stderr = daemontest.Run(t, "export", archive, "-format", "csv")
	if code != 2 || !strings.Contains(stderr, `"csv"`) {
		t.Errorf("unknown format: exit %d, %q", code, stderr)
	}
}

func exportJSONL(t *testing.T, args ...string) []report.Post {
	t.Helper()
	code, stdout, stderr := daemontest.Run(t, append([]string{"export"}, args...)...)
	posts, err := readJSONL(strings.NewReader(stdout))
	if code != 0 || err != nil {
		t.Fatalf("export %v: exit %d, %v\n%s", args, code, err, stderr)
	}
	return posts
}

func mustRel(t *testing.T, root, path string) string {
	t.Helper()
	rel, err := filepath.Rel(root, path)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

// TestOutputInsideArchiveRefused: export -out and report -out refuse a
// file inside a published bag, inside the archive, and inside it through a
// symbolic link from outside; nothing is written and check still finds
// every bag whole.
func TestOutputInsideArchiveRefused(t *testing.T) {
	t.Parallel()
	archive, _ := daemontest.CrawlDemo(t)
	mets, _ := filepath.Glob(filepath.Join(archive, "*", "blog", "v1", "data", "METS.xml"))
	if len(mets) != 1 {
		t.Fatalf("blog METS: %v", mets)
	}
	blog := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(mets[0])))))
	link := filepath.Join(t.TempDir(), "looks-outside")
	if err := os.Symlink(filepath.Dir(mets[0]), link); err != nil {
		t.Fatal(err)
	}
	other := t.TempDir() // a second archive, not the one read
	if err := os.WriteFile(filepath.Join(other, ".lock"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(mets[0])
	for _, out := range []string{mets[0], filepath.Join(archive, "corpus.jsonl"), filepath.Join(link, "METS.xml"),
		filepath.Join(other, "corpus.jsonl")} {
		for _, cmd := range [][]string{{"export", archive, "-out", out}, {"report", blog, "-out", out}} {
			code, _, stderr := daemontest.Run(t, cmd...)
			if code == 0 || !strings.Contains(stderr, "outside any archive") {
				t.Errorf("%v: exit %d, want a refusal\n%s", cmd, code, stderr)
			}
		}
	}
	if after, _ := os.ReadFile(mets[0]); !bytes.Equal(before, after) {
		t.Error("the bag's METS.xml was changed")
	}
	if _, err := os.Stat(filepath.Join(archive, "corpus.jsonl")); err == nil {
		t.Error("a corpus was written into the archive")
	}
	if code, stdout, stderr := daemontest.Run(t, "check", archive); code != 0 {
		t.Errorf("check after the refusals: exit %d\n%s%s", code, stdout, stderr)
	}
}

// TestExportAndReportRefuseLinks: an entry folder or a year folder of the
// archive replaced by a symbolic link (to a copy outside the archive) makes
// export and report fail with an error naming the link: nothing is read
// through it.
func TestExportAndReportRefuseLinks(t *testing.T) {
	t.Parallel()
	archive, _ := daemontest.CrawlDemo(t)
	blogs, _ := filepath.Glob(filepath.Join(archive, "*", "entries"))
	if len(blogs) != 1 {
		t.Fatalf("blogs: %v", blogs)
	}
	years, _ := filepath.Glob(filepath.Join(blogs[0], "*"))
	entries, _ := filepath.Glob(filepath.Join(years[0], "*"))
	for _, p := range []string{entries[0], years[len(years)-1]} {
		out := filepath.Join(t.TempDir(), filepath.Base(p))
		if err := os.Rename(p, out); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(out, p); err != nil {
			t.Fatal(err)
		}
		for _, cmd := range [][]string{{"export", archive}, {"report", filepath.Dir(blogs[0]), "-out", filepath.Join(t.TempDir(), "r.html")}} {
			code, _, stderr := daemontest.Run(t, cmd...)
			if code == 0 || !strings.Contains(stderr, p) || !strings.Contains(stderr, "symbolic link") {
				t.Errorf("%v with %s linked: exit %d, want an error naming the link\n%s", cmd, p, code, daemontest.LastLines(stderr, 5))
			}
		}
		os.Remove(p)
		if err := os.Rename(out, p); err != nil {
			t.Fatal(err)
		}
	}
}
