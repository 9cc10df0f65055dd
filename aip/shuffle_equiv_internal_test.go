package aip

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The reference: unshuffled as it was before sameText and the media cache
// (each comparison building both elements' whole text, and walking both
// for pictures). The content digest must not change, or every post would
// get a new version on its next update.
func unshuffledRef(content string) string {
	body := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := html.ParseFragment(strings.NewReader(content), body)
	if err != nil {
		return content
	}
	sorted := false
	for _, n := range nodes {
		sorted = sortMediaRunsRef(n) || sorted
	}
	if !sorted {
		return content
	}
	var b strings.Builder
	for _, n := range nodes {
		if err := html.Render(&b, n); err != nil {
			return content
		}
	}
	return b.String()
}

func sortMediaRunsRef(n *html.Node) bool {
	found := false
	var kids []*html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			kids = append(kids, c)
			found = sortMediaRunsRef(c) || found
		}
	}
	for i := 0; i < len(kids); {
		j := i + 1
		for j < len(kids) && shuffledTogetherRef(kids[i], kids[j]) {
			j++
		}
		if j-i >= 2 {
			sortRun(kids[i:j])
			found = true
		}
		i = j
	}
	return found
}

func shuffledTogetherRef(first, n *html.Node) bool {
	if first.Data != n.Data {
		return false
	}
	if sameKind(first, n) && isMediaItem(first) && isMediaItem(n) {
		return true
	}
	t := textOfRef(first)
	return t != "" && t == textOfRef(n)
}

func textOfRef(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(c *html.Node) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
			b.WriteByte(' ')
		}
		for k := c.FirstChild; k != nil; k = k.NextSibling {
			walk(k)
		}
	}
	walk(n)
	return strings.Join(strings.Fields(b.String()), " ")
}

// TestUnshuffledAsBefore compares unshuffled with the reference on
// fragments made to tell the text comparison apart (spaces of every kind,
// text split over elements, empty elements, invalid UTF-8) and on every
// HTML file of ../../shared/corpus when it is there.
func TestUnshuffledAsBefore(t *testing.T) {
	cases := []string{
		`<ul><li>Foo A</li><li>Foo  A</li><li> Foo A </li></ul>`,
		`<ul><li>Foo<b>A</b></li><li>FooA</li><li>Foo <b>A</b></li><li>Foo A</li></ul>`,
		`<ul><li></li><li></li><li> </li></ul>`,
		`<ul><li><img src="a.jpg"></li><li><img src="b.jpg"></li><li>x</li><li>x</li></ul>`,
		"<ul><li>a\u00a0b</li><li>a b</li><li>a\u2003b</li><li>a\u200bb</li><li>a\u200bb</li></ul>",
		"<ul><li>a\xffb</li><li>a\xffb</li><li>a\xff b</li></ul>",
		`<div><p>One two</p><p>One two three</p><p>One two</p><p>One</p><p>One</p></div>`,
		`<ol><li class="c"><a>Same</a></li><li class="c"><a>Same</a><span>!</span></li><li class="c"><a>Same</a></li></ol>`,
	}
	for _, c := range cases {
		if got, want := unshuffled(c), unshuffledRef(c); got != want {
			t.Errorf("unshuffled(%q) = %q, before %q", c, got, want)
		}
	}
	root := "../../shared/corpus"
	if _, err := os.Stat(root); err != nil || testing.Short() {
		t.Logf("corpus not read (no %s, or -short)", root)
		return
	}
	files, changed := 0, 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		files++
		s := string(b)
		got, want := unshuffled(s), unshuffledRef(s)
		if got != s {
			changed++
		}
		if got != want {
			t.Errorf("%s: unshuffled differs from before", p)
		}
		return nil
	})
	t.Logf("%d corpus HTML files read as before, %d of them with runs sorted", files, changed)
}
