package blogharvest_test

import (
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
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
// packages of this module it imports. Standard library and third-party
// imports are not listed.
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

// parsePackageTable reads the rows "| `pkg` … | owns | imports |" of a
// Markdown table: the first column's first code span names the package, the
// last column lists code spans, or says "nothing".
func parsePackageTable(doc string) (map[string][]string, error) {
	table := map[string][]string{}
	for i, line := range strings.Split(doc, "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 3 {
			return nil, fmt.Errorf("line %d: want | package | owns | imports |", i+1)
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
		if imports == "nothing" {
			table[pkg] = []string{}
			continue
		}
		spans := codeSpans(imports)
		if len(spans) == 0 {
			return nil, fmt.Errorf("line %d: %s imports %q: list code spans, or say nothing", i+1, pkg, imports)
		}
		table[pkg] = spans
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

// TestDependencies fails when the import graph of the module's non-test
// files and the table of packageTable differ: a package without a row, a
// row without a package, an import the row does not list, or a listed
// import no file of the package makes.
func TestDependencies(t *testing.T) {
	imports, err := moduleImports(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range compareGraph(imports, allowed(t)) {
		t.Error(p)
	}
}

// TestCompareGraphCatchesEveryDifference shows that the comparison passes
// the same graph and reports each kind of difference once.
func TestCompareGraphCatchesEveryDifference(t *testing.T) {
	table := map[string][]string{".": {}, "marc": {"."}, "aip": {".", "marc"}, "gone": {}}
	same := map[string][]string{".": nil, "marc": {"."}, "aip": {"marc", "."}, "gone": nil}
	if p := compareGraph(same, table); len(p) != 0 {
		t.Fatalf("the same graph differs: %v", p)
	}
	graph := map[string][]string{".": {"schedule"}, "marc": {".", "aip"}, "aip": {"."}, "newpkg": nil}
	p := compareGraph(graph, table)
	want := []string{". imports schedule", "marc imports aip", "aip lists marc", "newpkg has no row", "gone has a row"}
	if len(p) != len(want) {
		t.Fatalf("got %d differences %v, want %d", len(p), p, len(want))
	}
	for _, w := range want {
		if !slices.ContainsFunc(p, func(got string) bool { return strings.Contains(got, w) }) {
			t.Errorf("no difference mentions %q in %v", w, p)
		}
	}
}

// compareGraph returns one message per difference between the import
// graph imports and table, both by package.
func compareGraph(imports, table map[string][]string) []string {
	var diffs []string
	for _, pkg := range sortedKeys(imports) {
		row, known := table[pkg]
		if !known {
			diffs = append(diffs, fmt.Sprintf("%s has no row in %s", pkg, packageTable))
			continue
		}
		for _, imp := range imports[pkg] {
			if !contains(row, imp) {
				diffs = append(diffs, fmt.Sprintf("%s imports %s, which its row in %s does not list", pkg, imp, packageTable))
			}
		}
		for _, imp := range row {
			if !contains(imports[pkg], imp) {
				diffs = append(diffs, fmt.Sprintf("%s lists %s in %s, but no non-test file of it imports that", pkg, imp, packageTable))
			}
		}
	}
	for _, pkg := range sortedKeys(table) {
		if _, ok := imports[pkg]; !ok {
			diffs = append(diffs, fmt.Sprintf("%s has a row in %s, but there is no such package", pkg, packageTable))
		}
	}
	return diffs
}

func sortedKeys(m map[string][]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// generatedCopies are the folders internal/copies/gen.sh writes, each a
// copy of a third-party module's packages (doc/dependencies.md): the table
// has one row for each copy, for all the packages under it, and lists the
// other packages of the module they import (not their own).
var generatedCopies = []string{"internal/dateparser", "internal/match", "internal/siegfried", "internal/xnet"}

// copyOf returns the folder of generatedCopies that holds pkg (a path
// relative to the module root), or pkg itself.
func copyOf(pkg string) string {
	for _, c := range generatedCopies {
		if pkg == c || strings.HasPrefix(pkg, c+"/") {
			return c
		}
	}
	return pkg
}

// moduleImports parses the non-test Go files under root and returns, for each
// package directory, the module-internal packages it imports. Directories
// named testdata, eval (its own module) and hidden ones are skipped. The
// packages of a generated copy count as one, the copy's folder.
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
		if rel, err := filepath.Rel(root, filepath.Dir(p)); err == nil {
			if c := copyOf(filepath.ToSlash(rel)); c != filepath.ToSlash(rel) {
				dir = path.Join(filepath.ToSlash(root), c)
			}
		}
		if _, ok := out[dir]; !ok {
			out[dir] = nil
		}
		for _, is := range f.Imports {
			imp := strings.Trim(is.Path.Value, `"`)
			if imp == module {
				imp = "."
			} else if rel, ok := strings.CutPrefix(imp, module+"/"); ok {
				imp = copyOf(path.Clean(rel))
			} else {
				continue
			}
			if rel, err := filepath.Rel(root, filepath.FromSlash(dir)); err == nil && filepath.ToSlash(rel) == imp {
				continue // a generated copy's packages importing each other
			}
			if !contains(out[dir], imp) {
				out[dir] = append(out[dir], imp)
			}
		}
		return nil
	})
	return out, err
}

// TestParsePackageTable reads rows of both kinds and refuses rows it
// cannot read, so a mistyped table fails instead of allowing everything.
func TestParsePackageTable(t *testing.T) {
	good := "| package | owns | imports |\n|---|---|---|\n" +
		"| `.` (root) | words | nothing |\n| `aip` | bags | `.`, `marc` |\n| `daemon` | all of it | `aip` |\n"
	table, err := parsePackageTable(good)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{".": {}, "aip": {".", "marc"}, "daemon": {"aip"}}
	if fmt.Sprint(table) != fmt.Sprint(want) {
		t.Errorf("table = %v, want %v", table, want)
	}
	for _, bad := range []string{
		"no table here",
		"| `aip` | bags | some packages |\n",
		"| `daemon` | all of it | all |\n",
		"| `aip` | bags | `.` |\n| `aip` | again | `.` |\n",
		"| `aip` |\n",
	} {
		if _, err := parsePackageTable(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
