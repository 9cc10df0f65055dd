package learn

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mayTellEditsNaive is mayTellEdits as it was: one bytes.Contains per
// marker.
func mayTellEditsNaive(page []byte) bool {
	for _, m := range editMarkers {
		if bytes.Contains(page, []byte(m)) {
			return true
		}
	}
	return false
}

// TestMayTellEditsMatchesNaiveOnPages compares mayTellEdits's one pass
// with one bytes.Contains per marker on every page of the fixture blogs
// and of ../shared/corpus, and on each marker alone, at the end of a
// page and cut short.
func TestMayTellEditsMatchesNaiveOnPages(t *testing.T) {
	var pages [][]byte
	for _, dir := range []string{"../../testdata/blogs", "../../../shared/corpus"} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				data, err := os.ReadFile(p)
				if err != nil {
					t.Fatal(err)
				}
				pages = append(pages, data)
			}
			return nil
		})
	}
	for _, m := range editMarkers {
		pages = append(pages, []byte("x "+m), []byte(m[:len(m)-1]))
	}
	told := 0
	for _, page := range pages {
		got, want := mayTellEdits(page), mayTellEditsNaive(page)
		if got != want {
			t.Fatalf("mayTellEdits(%.80q…) = %v, naive %v", page, got, want)
		}
		if got {
			told++
		}
	}
	t.Logf("%d pages, %d may tell edits", len(pages), told)
}

// BenchmarkMayTellEdits compares the one pass with one bytes.Contains
// per marker on the fixture blogs' pages.
func BenchmarkMayTellEdits(b *testing.B) {
	var pages [][]byte
	filepath.WalkDir("../../testdata/blogs", func(p string, d fs.DirEntry, err error) error {
		if data, err := os.ReadFile(p); err == nil {
			pages = append(pages, data)
		}
		return nil
	})
	for _, f := range []struct {
		name string
		fn   func([]byte) bool
	}{{"one-pass", mayTellEdits}, {"contains", mayTellEditsNaive}} {
		b.Run(f.name, func(b *testing.B) {
			for b.Loop() {
				for _, p := range pages {
					f.fn(p)
				}
			}
		})
	}
}

// TestContainsFold checks containsFold against EqualFold on every window,
// with runes that fold to ASCII letters (the Kelvin sign, long s) and
// bytes that are not UTF-8.
func TestContainsFold(t *testing.T) {
	slow := func(s, sub string) bool {
		for i := 0; i+len(sub) <= len(s); i++ {
			if strings.EqualFold(s[i:i+len(sub)], sub) {
				return true
			}
		}
		return false
	}
	subs := []string{"publish", "created", "modified", "updated", "edited", "lastmod", "last-edit", "k", "s"}
	texts := []string{"", "post-Modified", "UPDATED", "entry-date published", "\u212a", "\u017f", "Last-Edit",
		"date-updat", "\xffmodified", "mod\u0130fied", "cREATED", "publi\u017fh", "lastMOD x"}
	for _, s := range texts {
		for _, sub := range subs {
			if got, want := containsFold(s, sub), slow(s, sub); got != want {
				t.Errorf("containsFold(%q, %q) = %v, want %v", s, sub, got, want)
			}
		}
	}
}
