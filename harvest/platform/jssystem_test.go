package platform

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// jsSystemNaive is JSSystem as it was: one bytes.Contains per marker.
func jsSystemNaive(page []byte) string {
	for _, m := range current().jsMarkers {
		if bytes.Contains(page, []byte(m.marker)) {
			return m.id
		}
	}
	return ""
}

// TestJSSystemMatchesNaiveOnPages compares JSSystem's one pass with one
// bytes.Contains per marker on every page of the fixture blogs and of
// ../shared/corpus, and on pages that hold two platforms' markers in
// both orders.
func TestJSSystemMatchesNaiveOnPages(t *testing.T) {
	pages := 0
	for _, dir := range []string{"../../testdata/blogs", "../../../shared/corpus"} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			pages++
			if got, want := JSSystem(data), jsSystemNaive(data); got != want {
				t.Errorf("%s: JSSystem = %q, naive %q", p, got, want)
			}
			return nil
		})
	}
	if pages == 0 {
		t.Skip("no fixture or corpus pages")
	}
	for _, page := range []string{"", "<div id=disqus_thread>", "fyre.co then disqus.com/embed", "jetpack-comments livefyre"} {
		if got, want := JSSystem([]byte(page)), jsSystemNaive([]byte(page)); got != want {
			t.Errorf("%q: JSSystem = %q, naive %q", page, got, want)
		}
	}
	t.Logf("%d pages", pages)
}
