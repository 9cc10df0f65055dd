package daemontest

import (
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// EntryPages returns the permalinks of the archive's entry AIPs (their
// first versions).
func EntryPages(t testing.TB, root string) []string {
	t.Helper()
	infos, _ := filepath.Glob(filepath.Join(root, "*", "entries", "*", "*", "v1", "bag-info.txt"))
	var out []string
	for _, p := range infos {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "External-Identifier: "); ok {
				out = append(out, v)
			}
		}
	}
	return out
}

// NoFragment drops a URL's fragment and normalises its escaping.
func NoFragment(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	u.Fragment = ""
	return u.String()
}

// NewestBlogAIP returns the folder of the newest version of the Blog AIP
// under blogDir (an archive's <blog-id> folder), by version number; the
// test fails when there is none.
func NewestBlogAIP(t *testing.T, blogDir string) string {
	t.Helper()
	vs, _ := filepath.Glob(filepath.Join(blogDir, "blog", "v*"))
	if len(vs) == 0 {
		t.Fatalf("no Blog AIP in %s", blogDir)
	}
	n := func(p string) int { k, _ := strconv.Atoi(strings.TrimPrefix(filepath.Base(p), "v")); return k }
	slices.SortFunc(vs, func(a, b string) int { return n(a) - n(b) })
	return vs[len(vs)-1]
}
