package blogharvest_test

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

const module = "github.com/blogharvest/blogharvest"

// packageTable is the project's package table, the one place the import
// graph is written down; allowed reads it.
const packageTable = "doc/packages.md"

// allowed returns the table of packageTable: for each package of the
// module (by its path relative to the module root, "." for the root), the
// packages of this module it may import ("*" for all). Standard library and
// third-party imports are free.
func allowed(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(packageTable)
	if err != nil {
		t.Fatal(err)
	}
	table, err := parsePackageTable(string(b))
	if err != nil {
		t.Fatalf("%s: %v", packageTable, err)
	}
	return table
}

// parsePackageTable reads the rows "| `pkg` … | owns | may import |" of a
// Markdown table: the first column's first code span names the package, the
// last column lists code spans, or says "nothing" or "all".
func parsePackageTable(doc string) (map[string][]string, error) {
	table := map[string][]string{}
	for i, line := range strings.Split(doc, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 3 {
			return nil, fmt.Errorf("line %d: want | package | owns | may import |", i+1)
		}
		pkgs := codeSpans(cells[0])
		if len(pkgs) == 0 {
			return nil, fmt.Errorf("line %d: no package in %q", i+1, cells[0])
		}
		pkg := pkgs[0]
		if _, dup := table[pkg]; dup {
			return nil, fmt.Errorf("line %d: %s has two rows", i+1, pkg)
		}
		imports := strings.TrimSpace(cells[len(cells)-1])
		switch imports {
		case "nothing":
			table[pkg] = []string{}
		case "all":
			table[pkg] = []string{"*"}
		default:
			spans := codeSpans(imports)
			if len(spans) == 0 {
				return nil, fmt.Errorf("line %d: %s may import %q: list code spans, or say nothing or all", i+1, pkg, imports)
			}
			table[pkg] = spans
		}
	}
	if len(table) == 0 {
		return nil, fmt.Errorf("no package rows")
	}
	return table, nil
}

// codeSpans returns the contents of the `…` spans of s.
func codeSpans(s string) []string {
	var out []string
	for {
		i := strings.IndexByte(s, '`')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(s[i+1:], '`')
		if j < 0 {
			return out
		}
		out = append(out, s[i+1:i+1+j])
		s = s[i+2+j:]
	}
}

// TestDependencies fails when a package of the module imports a package of
// the module that DESIGN §2 does not allow, or when a package is missing from
// the table.
func TestDependencies(t *testing.T) {
	imports, err := moduleImports(".")
	if err != nil {
		t.Fatal(err)
	}
	table := allowed(t)
	if len(imports) < len(table) {
		t.Fatalf("found %d packages, %s names %d: is the walk broken?", len(imports), packageTable, len(table))
	}
	for _, p := range checkImports(imports, table) {
		t.Error(p)
	}
}

// TestCheckImportsCatchesForbidden shows that the checker fails on a
// forbidden import, on an unknown package, and passes a legal graph.
func TestCheckImportsCatchesForbidden(t *testing.T) {
	legal := map[string][]string{"aip": {".", "marc"}, "marc": {"."}, ".": nil}
	table := allowed(t)
	if p := checkImports(legal, table); len(p) != 0 {
		t.Fatalf("legal graph rejected: %v", p)
	}
	bad := map[string][]string{"marc": {".", "aip"}, ".": {"schedule"}, "newpkg": nil}
	p := checkImports(bad, table)
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
			problems = append(problems, fmt.Sprintf("%s is not in the table of "+packageTable, pkg))
			continue
		}
		for _, imp := range imports[pkg] {
			if !contains(ok, imp) && !contains(ok, "*") {
				problems = append(problems, fmt.Sprintf("%s imports %s, which "+packageTable+" forbids", pkg, imp))
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

// TestParsePackageTable reads rows of the three kinds and refuses rows it
// cannot read, so a mistyped table fails instead of allowing everything.
func TestParsePackageTable(t *testing.T) {
	good := "| package | owns | may import |\n|---|---|---|\n" +
		"| `.` (root) | words | nothing |\n| `aip` | bags | `.`, `marc` |\n| `daemon` | all of it | all |\n"
	table, err := parsePackageTable(good)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{".": {}, "aip": {".", "marc"}, "daemon": {"*"}}
	if fmt.Sprint(table) != fmt.Sprint(want) {
		t.Errorf("table = %v, want %v", table, want)
	}
	for _, bad := range []string{
		"no table here",
		"| `aip` | bags | some packages |\n",
		"| `aip` | bags | `.` |\n| `aip` | again | `.` |\n",
		"| `aip` |\n",
	} {
		if _, err := parsePackageTable(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
