package blogharvest_test

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/blogharvest/blogharvest"

// allowed is DESIGN §2's import table: for each package of the module (by its
// path relative to the module root, "." for the root), the packages of this
// module it may import. Standard library and third-party imports are free.
var allowed = map[string][]string{
	".":              {},
	"schemas":        {},
	"marc":           {"."},
	"mets":           {},
	"aip":            {".", "marc", "mets", "schemas", "warc"},
	"harvest":        {".", "harvest/anyof", "harvest/fetch", "harvest/feed", "harvest/learn", "harvest/platform", "harvest/render", "harvest/textsim"},
	"harvest/fetch":  {"."},
	"harvest/feed":   {".", "harvest/fetch", "harvest/platform"},
	"harvest/learn":  {".", "harvest/anyof", "harvest/platform", "harvest/textsim"},
	"harvest/render": {".", "harvest/platform"},
	// harvest/platform is the table of blog and comment platforms every
	// matcher of the crawler derives from, which harvest, harvest/feed,
	// harvest/learn and harvest/render may import; it imports only
	// harvest/anyof.
	"harvest/platform": {"harvest/anyof"},
	// harvest/anyof finds which of a set of strings a page holds in one
	// pass: a leaf for the raw-byte prefilters of platform, learn and
	// harvest's comment-signal detection.
	"harvest/anyof": {},
	// harvest/textsim compares texts (bigram Dice, token F1, same author,
	// same day) for harvest/learn, harvest and the eval module: a leaf.
	"harvest/textsim": {},
	"schedule":        {"."},
	// report reads archives back: corpus export and the HTML report.
	"report": {".", "aip", "marc"},
	"daemon": {"*"},
	// dispatch carries due runs to workers (the in-process pool);
	// cluster does it over NATS JetStream for workers on many machines.
	"dispatch":        {},
	"cluster":         {"dispatch"},
	"cmd/blogharvest": {"daemon"},
	// internal/fixture generates and serves the project's own fixture blogs
	// (testdata/blogs and the demo's sample blog).
	"internal/fixture":     {"."},
	"internal/fixture/gen": {"internal/fixture"},
	// warc writes, indexes (CDXJ) and reads the WARC file of an AIP.
	"warc": {"."},
	// internal/tlstest gives tests a throw-away CA and a CONNECT proxy.
	"internal/tlstest": {},
	// internal/toolskip skips tests whose outside tool is missing and sums
	// the skips up per package (TestMain).
	"internal/toolskip": {},
	// internal/metstest checks METS for tests with metsrw and encoding/xml.
	"internal/metstest": {},
	// internal/marctools checks MARC records with yaz-marcdump and
	// MARC::Lint, for tests.
	"internal/marctools": {"marc"},
}

// TestDependencies fails when a package of the module imports a package of
// the module that DESIGN §2 does not allow, or when a package is missing from
// the table.
func TestDependencies(t *testing.T) {
	imports, err := moduleImports(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(imports) < len(allowed) {
		t.Fatalf("found %d packages, the table names %d: is the walk broken?", len(imports), len(allowed))
	}
	for _, p := range checkImports(imports, allowed) {
		t.Error(p)
	}
}

// TestCheckImportsCatchesForbidden shows that the checker fails on a
// forbidden import, on an unknown package, and passes a legal graph.
func TestCheckImportsCatchesForbidden(t *testing.T) {
	legal := map[string][]string{"aip": {".", "marc"}, "marc": {"."}, ".": nil}
	if p := checkImports(legal, allowed); len(p) != 0 {
		t.Fatalf("legal graph rejected: %v", p)
	}
	bad := map[string][]string{"marc": {".", "aip"}, ".": {"schedule"}, "newpkg": nil}
	p := checkImports(bad, allowed)
	want := []string{`marc imports aip`, `. imports schedule`, `newpkg is not in the table`}
	if len(p) != len(want) {
		t.Fatalf("got %d problems %v, want %d", len(p), p, len(want))
	}
	for _, w := range want {
		found := false
		for _, got := range p {
			found = found || strings.Contains(got, w)
		}
		if !found {
			t.Errorf("no problem mentions %q in %v", w, p)
		}
	}
}

// checkImports returns one message per import that table forbids.
func checkImports(imports map[string][]string, table map[string][]string) []string {
	var problems []string
	pkgs := make([]string, 0, len(imports))
	for p := range imports {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	for _, pkg := range pkgs {
		ok, known := table[pkg]
		if !known {
			problems = append(problems, fmt.Sprintf("%s is not in the table of DESIGN §2 (deps_test.go)", pkg))
			continue
		}
		for _, imp := range imports[pkg] {
			if !contains(ok, imp) && !contains(ok, "*") {
				problems = append(problems, fmt.Sprintf("%s imports %s, which DESIGN §2 forbids", pkg, imp))
			}
		}
	}
	return problems
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// moduleImports parses the non-test Go files under root and returns, for each
// package directory, the module-internal packages it imports. Directories
// named testdata, eval (its own module) and hidden ones are skipped.
func moduleImports(root string) (map[string][]string, error) {
	out := make(map[string][]string)
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || name == "eval" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(p))
		if _, ok := out[dir]; !ok {
			out[dir] = nil
		}
		for _, is := range f.Imports {
			imp := strings.Trim(is.Path.Value, `"`)
			if imp == module {
				imp = "."
			} else if rel, ok := strings.CutPrefix(imp, module+"/"); ok {
				imp = path.Clean(rel)
			} else {
				continue
			}
			if !contains(out[dir], imp) {
				out[dir] = append(out[dir], imp)
			}
		}
		return nil
	})
	return out, err
}
