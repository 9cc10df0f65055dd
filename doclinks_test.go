package blogharvest_test

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"
	"unicode"
)

// docSkip are folders whose Markdown is not this project's documentation:
// test data and installed packages.
var docSkip = map[string]bool{".git": true, "testdata": true, "node_modules": true}

var (
	fence       = regexp.MustCompile("(?ms)^```.*?^```")
	mdLink      = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	heading     = regexp.MustCompile(`^(#{1,6})\s+(.*?)\s*#*\s*$`)
	linkInTitle = regexp.MustCompile(`\[([^\]]*)\]\([^)]*\)`)
)

// TestDocLinks checks every relative link of the project's Markdown files
// (README.md, doc/, eval/ …): the file it names exists, and a #fragment
// into a Markdown file names one of its headings, as GitHub makes anchors
// of them. A moved section or a renamed heading fails here, not in a
// reader's browser.
func TestDocLinks(t *testing.T) {
	fsys := os.DirFS(".")
	anchors := map[string]map[string]bool{}
	checked := 0
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != "." && docSkip[d.Name()] {
				return fs.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".md") {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		text := fence.ReplaceAllString(string(b), "")
		for _, m := range mdLink.FindAllStringSubmatch(text, -1) {
			target := m[1]
			if strings.HasPrefix(target, "http://") || strings.HasPrefix(target, "https://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			checked++
			file, frag, _ := strings.Cut(target, "#")
			dest := p
			if file != "" {
				dest = path.Clean(path.Join(path.Dir(p), file))
			}
			if strings.HasPrefix(dest, "../") {
				t.Errorf("%s: link %s leaves the repository", p, target)
				continue
			}
			if _, err := fs.Stat(fsys, dest); err != nil {
				t.Errorf("%s: link %s: %s does not exist", p, target, dest)
				continue
			}
			if frag == "" || !strings.HasSuffix(dest, ".md") {
				continue
			}
			if anchors[dest] == nil {
				a, err := headingAnchors(fsys, dest)
				if err != nil {
					return err
				}
				anchors[dest] = a
			}
			if !anchors[dest][frag] {
				t.Errorf("%s: link %s: %s has no heading with anchor #%s", p, target, dest, frag)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 50 {
		t.Errorf("checked only %d links: the walk missed the documentation", checked)
	}
}

// headingAnchors returns the anchors GitHub gives the headings of the
// Markdown file p: the heading's text without link targets and markup,
// lower-cased, with everything but letters, digits, spaces, '-' and '_'
// dropped and spaces made '-'; a repeated anchor gets -1, -2 ….
func headingAnchors(fsys fs.FS, p string) (map[string]bool, error) {
	b, err := fs.ReadFile(fsys, p)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	seen := map[string]int{}
	inFence := false
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "```") {
			inFence = !inFence
			continue
		}
		m := heading.FindStringSubmatch(line)
		if inFence || m == nil {
			continue
		}
		h := linkInTitle.ReplaceAllString(m[2], "$1")
		h = strings.ToLower(strings.TrimSpace(strings.NewReplacer("`", "", "*", "").Replace(h)))
		var s strings.Builder
		for _, r := range h {
			switch {
			case r == ' ':
				s.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				s.WriteRune(r)
			}
		}
		a := s.String()
		if n, dup := seen[a]; dup {
			seen[a] = n + 1
			a = fmt.Sprintf("%s-%d", a, n+1)
		} else {
			seen[a] = 0
		}
		out[a] = true
	}
	return out, nil
}
