package marc_test

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/blogharvest/blogharvest/marc"

	"github.com/blogharvest/blogharvest/internal/toolskip"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// schemaPath is MARC21slim.xsd in the shared schemas, relative to this
// package's directory.
const schemaPath = "../../shared/schemas/MARC21slim.xsd"

// goldenCases are the records kept as golden files, by file name.
func goldenCases() map[string]*marc.Record {
	e := minimalEntry()
	return map[string]*marc.Record{
		"blog-full":       marc.FromBlog(fullBlog(), fullOptions("4f1c2a9e-7d3b-5a61-9c0e-2b8d4e6f1a37")),
		"blog-minimal":    marc.FromBlog(minimalBlog(), marc.Options{ID: "olive-grove", Updated: updated}),
		"entry-full":      marc.FromEntry(fullEntry(), fullOptions("8a2e6c14-3b5f-5d70-a1c9-7e4b2d9f0c63")),
		"entry-minimal":   marc.FromEntry(e, marc.Options{ID: "about-1a2b3c4d", Updated: updated}),
		"comment-full":    marc.FromComment(fullComment(), fullEntry(), fullOptions("8a2e6c14-comment-7")),
		"comment-minimal": marc.FromComment(minimalComment(), e, marc.Options{ID: "about-comment-1", Updated: updated}),
		"entry-long": marc.FromEntry(longEntry(), marc.Options{ID: "the-long-winter-0c1d2e3f", Updated: updated,
			Language: "en-GB", ParentID: "olive-grove", OrgCode: "XxEL"}),
	}
}

func TestGolden(t *testing.T) {
	for name, rec := range goldenCases() {
		t.Run(name, func(t *testing.T) {
			got, err := rec.MarshalMARCXML()
			if err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", name+".golden.xml")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./marc -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from the output:\n got: %s\nwant: %s", path, got, want)
			}
			if ps := marc.Lint(rec); len(ps) > 0 {
				t.Errorf("lint: %v", ps)
			}
			back, err := marc.ParseMARCXML(want)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(back, rec) {
				t.Errorf("ParseMARCXML(golden) = %+v, want %+v", back, rec)
			}
		})
	}
}

// TestGoldenSchema validates every golden file against the official
// MARC21slim.xsd with libxml2's xmllint.
func TestGoldenSchema(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		toolskip.Missing(t, "xmllint", err)
	}
	if _, err := os.Stat(schemaPath); err != nil {
		t.Skipf("schema not available: %v", err)
	}
	files, err := filepath.Glob(filepath.Join("testdata", "*.golden.xml"))
	if err != nil || len(files) != len(goldenCases()) {
		t.Fatalf("golden files %v (%v), want %d", files, err, len(goldenCases()))
	}
	args := append([]string{"--noout", "--nonet", "--schema", schemaPath}, files...)
	out, err := exec.Command(xmllint, args...).CombinedOutput()
	if err != nil {
		t.Errorf("xmllint: %v\n%s", err, out)
	}
}

// TestSchemaRejectsBroken makes sure TestGoldenSchema can fail: a record
// with a '#' indicator must not validate.
func TestSchemaRejectsBroken(t *testing.T) {
	xmllint, err := exec.LookPath("xmllint")
	if err != nil {
		toolskip.Missing(t, "xmllint", err)
	}
	if _, err := os.Stat(schemaPath); err != nil {
		t.Skipf("schema not available: %v", err)
	}
	rec := marc.FromBlog(minimalBlog(), marc.Options{ID: "x"})
	rec.Data[0].Ind1 = '#'
	b, err := rec.MarshalMARCXML()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "broken.xml")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	err = exec.Command(xmllint, "--noout", "--nonet", "--schema", schemaPath, path).Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Errorf("xmllint accepted an indicator '#': %v", err)
	}
}
