package blogharvest_test

import (
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestCIFuzzList: the fuzz step of .ci/run names every fuzz target of the
// module (package folder:FuzzName) and nothing else, so a target moved to
// another package or added fails here, in go test ./..., and not only in
// CI's fuzz step after the race detector's (which is how a moved
// FuzzParseSitemap was found).
func TestCIFuzzList(t *testing.T) {
	script, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Skip("no .ci/run:", err)
	}
	listed := regexp.MustCompile(`[a-z][a-z0-9/]*:Fuzz\w+`).FindAllString(string(script), -1)
	decl := regexp.MustCompile(`(?m)^func (Fuzz\w+)\(`)
	var found []string
	err = fs.WalkDir(os.DirFS("."), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || p == "eval" || p == "third_party") {
			return fs.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range decl.FindAllStringSubmatch(string(src), -1) {
			dir := path.Dir(p)
			if dir == "." {
				dir = ""
			}
			found = append(found, dir+":"+m[1])
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(found) == 0 {
		t.Fatal("no fuzz target found in the module")
	}
	for _, f := range found {
		if !slices.Contains(listed, f) {
			t.Errorf("fuzz target %s is not in .ci/run's fuzz list", f)
		}
	}
	for _, l := range listed {
		if !slices.Contains(found, l) {
			t.Errorf(".ci/run's fuzz list names %s, which no test file declares", l)
		}
	}
}
