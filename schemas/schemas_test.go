package schemas_test

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/blogharvest/blogharvest/schemas"

	"github.com/blogharvest/blogharvest/internal/toolskip"
)

// TestFilesUnmodified checks the embedded official schemas against the
// sha256 column of SOURCES.md, so nobody edits them by accident.
func TestFilesUnmodified(t *testing.T) {
	want := sourcesTable(t)
	for _, name := range []string{"mets.xsd", "xlink.xsd", "MARC21slim.xsd", "premis-v3-0.xsd"} {
		data, err := schemas.Files.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(data)
		if got := hex.EncodeToString(sum[:]); got != want[name] {
			t.Errorf("%s: sha256 %s, SOURCES.md says %q", name, got, want[name])
		}
	}
}

// sourcesTable reads file → sha256 from the table in SOURCES.md.
func sourcesTable(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open("SOURCES.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	row := regexp.MustCompile("^\\| `([^`]+)` \\| \\d+ \\| `([0-9a-f]{64})` \\|")
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := row.FindStringSubmatch(sc.Text()); m != nil {
			out[m[1]] = m[2]
		}
	}
	if len(out) != 4 {
		t.Fatalf("SOURCES.md table lists %d schemas, want 4", len(out))
	}
	return out
}

// TestValidateTestdata validates every document under testdata/valid (must
// pass) and testdata/invalid (must fail, with a line number), and
// cross-checks each verdict with libxml2's xmllint when installed.
func TestValidateTestdata(t *testing.T) {
	for _, dir := range []string{"valid", "invalid"} {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.xml"))
		if len(files) < 2 {
			t.Fatalf("testdata/%s holds %d documents", dir, len(files))
		}
		for _, f := range files {
			t.Run(dir+"/"+filepath.Base(f), func(t *testing.T) {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				problems := schemas.Validate(data)
				if (dir == "valid") != (len(problems) == 0) {
					t.Errorf("helium: %d problems %v", len(problems), problems)
				}
				for _, p := range problems {
					if p.Line == 0 {
						t.Errorf("problem without a line: %v", p)
					}
				}
				if ok, out := Xmllint(t, f); ok != (dir == "valid") {
					t.Errorf("xmllint disagrees (valid=%v): %s", ok, out)
				}
			})
		}
	}
}

// Xmllint validates file against the on-disk driver schema with xmllint
// --nonet and reports whether it is valid; it skips when xmllint is absent.
func Xmllint(t *testing.T, file string) (bool, string) {
	t.Helper()
	if _, err := exec.LookPath("xmllint"); err != nil {
		toolskip.Missing(t, "xmllint", err)
	}
	out, err := exec.Command("xmllint", "--noout", "--nonet", "--schema", schemas.Driver, file).CombinedOutput()
	return err == nil, string(out)
}

// TestInvalidNamesProblem checks that a problem names its line and element.
func TestInvalidNamesProblem(t *testing.T) {
	data, err := os.ReadFile("testdata/invalid/marc-bad-indicator.xml")
	if err != nil {
		t.Fatal(err)
	}
	problems := schemas.Validate(data)
	if len(problems) == 0 {
		t.Fatal("no problems")
	}
	p := problems[0]
	if p.Line != 14 || !strings.Contains(p.Element, "datafield") || !strings.Contains(p.Error(), "ind1") {
		t.Errorf("problem = %+v (%q), want line 14, element datafield, attribute ind1", p, p.Error())
	}
}

// TestNotWellFormed checks that broken XML yields a problem, not a panic.
func TestNotWellFormed(t *testing.T) {
	for _, doc := range []string{"", "<mets:mets", "<a></b>", "\x00"} {
		if p := schemas.Validate([]byte(doc)); len(p) == 0 {
			t.Errorf("%q: no problem", doc)
		}
	}
}

// TestConcurrent validates from many goroutines at once (run with -race).
func TestConcurrent(t *testing.T) {
	good, _ := os.ReadFile("testdata/valid/mets-marc-premis.xml")
	bad, _ := os.ReadFile("testdata/invalid/marc-bad-indicator.xml")
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 && len(schemas.Validate(good)) != 0 {
				t.Error("valid document rejected")
			}
			if i%2 == 1 && len(schemas.Validate(bad)) == 0 {
				t.Error("invalid document accepted")
			}
		}()
	}
	wg.Wait()
}

// BenchmarkValidate measures validating a small METS document.
func BenchmarkValidate(b *testing.B) {
	data, _ := os.ReadFile("testdata/valid/mets-marc-premis.xml")
	schemas.Validate(data)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		schemas.Validate(data)
	}
}

// TestKnownDisagreement pins the one construct on which the validators
// differ: an IDREF or IDREFS value (fptr/@FILEID, div/@DMDID) naming no ID.
// XSD 1.0 Part 1 §3.3.4 (Validation Root Valid (ID/IDREF)) makes that
// invalid and helium says so; libxml2's XSD validator only types IDREF
// attributes and never resolves them (that happens in its DTD validation
// alone), so xmllint accepts the documents. Should libxml2 start resolving
// IDREFs, this test tells us to move the files to testdata/invalid.
func TestKnownDisagreement(t *testing.T) {
	files, _ := filepath.Glob("testdata/disagree/*.xml")
	if len(files) != 2 {
		t.Fatalf("testdata/disagree holds %d documents, want 2", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		problems := schemas.Validate(data)
		if len(problems) != 1 || problems[0].Line == 0 || !strings.Contains(problems[0].Message, "IDREF") {
			t.Errorf("%s: helium: %v, want one problem about an IDREF", f, problems)
		}
		if ok, out := Xmllint(t, f); !ok {
			t.Errorf("%s: xmllint now rejects dangling IDREFs: %s", f, out)
		}
	}
}
