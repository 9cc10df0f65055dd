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

// sortsRuns reports whether the parser's tree of content has a run that
// sortMediaRuns sorts: what noRun must never deny.
func sortsRuns(content string) bool {
	body := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	nodes, err := html.ParseFragment(strings.NewReader(content), body)
	if err != nil {
		return false
	}
	sorted := false
	for _, n := range nodes {
		sorted = sortMediaRuns(n) || sorted
	}
	return sorted
}

// checkNoRun fails t when noRun says content has no run and the parser's
// tree has one, and reports whether noRun answered.
func checkNoRun(t testing.TB, name, content string) bool {
	if !noRun(content) {
		return false
	}
	if sortsRuns(content) {
		t.Errorf("%s: noRun says no run, the parsed tree has one: %q", name, content)
	}
	if got := unshuffled(content); got != unshuffledRef(content) {
		t.Errorf("%s: unshuffled differs from the reference", name)
	}
	return true
}

// noRunCases are fragments where the parser's tree differs from the
// tags' nesting, or where a run hides: each must be left to the parser
// or answered rightly.
var noRunCases = []string{
	`<ul><li>a</li><li>a</li></ul>`,
	`<ul><li>a<li>a</ul>`,
	`<ul><li>a<div><li>a</div></ul>`,
	`<div><p>x<p>x</div>`,
	`<div><p>x<div>x</div></p></div>`,
	`<div><p><b>x</p><p>x</p></div>`,
	`<div><b>x<p>y</b>z</p><b>x<p>y</b>z</p></div>`,
	`<div><a>x<a>x</a></a></div>`,
	`<div><h1>x<h2>x</h2></h1></div>`,
	`<dl><dt>x<dd>x</dl>`,
	`<div><span>a b</span> , <span>a  b</span></div>`,
	`<div><span>ab</span><span>a b</span></div>`,
	`<div><span><img></span><span><img src=x></span></div>`,
	`<div><img><img></div>`,
	`<div><img class=a><image class=a></div>`,
	`<div><table><tr><td>x</td></tr></table><table><tr><td>x</td></tr></table></div>`,
	`<div><span>x</span></i><span>x</span></div>`,
	`<div><span>x</span></p><span>x</span></div>`,
	`<div><span>x</span></br><span>x</span></div>`,
	`<div><script>x</div><div>x</script></div>`,
	`<div><script/><span>x</span></div>`,
	`<div><pre>` + "\n" + `x</pre><pre>x</pre></div>`,
	"<div><span>a\u00a0b</span><span>ab</span></div>",
	"<div><span>a\x00b</span><span>ab</span></div>",
	"<div><span>a\xffb</span><span>a\xff b</span></div>",
	`<div><x-a>q</x-a><x-b>q</x-b><x-a>q</x-a></div>`,
	`<div><x-a>q</x-a><x-a>q</x-a></div>`,
	`<div><svg><img></svg><svg><img></svg></div>`,
	`<div><nobr>x<nobr>x</div>`,
	`<div><button>x<button>x</div>`,
	`<div><b><b><b><b>x</b></b></b></b><b>x</b></div>`,
	`<p>x</p><p>x</p>`,
	`<div><!DOCTYPE html><span>x</span><span>x</span></div>`,
	`<div><textarea>x</textarea><textarea>` + "\n" + `x</textarea></div>`,
	`<div><span>&amp;</span><span>&</span></div>`,
	`<div><span>&nbsp;</span><span> </span></div>`,
	`<ul><li>a<ul><li>b</ul><li>a</ul>`,
	`<ul><li>a<li>a</li></li></ul>`,
	`<ul><li>a<div><li>a</li></div></li></ul>`,
	`<ul><li>a<span><li>a</li></span></li></ul>`,
	`<dl><dt>x<dd>x</dd></dt></dl>`,
	`<dl><dd>x<dd>x</dd></dd></dl>`,
	`<dl><dd>x<dt>x</dt></dd></dl>`,
	`<div><p>x<p>x</p></p></div>`,
	`<div><p>x<hr></p><hr></div>`,
	`<div><nobr>x<nobr>x</nobr></nobr></div>`,
	`<table><tbody><tr><td>x</td><td>x</td></tr></tbody></table>`,
	`<table><tbody><tr><td>x</td><td>y</td></tr><tr><td>x</td><td>y</td></tr></tbody></table>`,
	`<table><tbody><tr><td>x</td><td>y</td></tr> <tr><td>z</td></tr></tbody></table>`,
	`<div><table><tbody><tr><td>x</td></tr></tbody></table><table><tbody><tr><td>x</td></tr></tbody></table></div>`,
	`<div><table><tbody><tr><td>x</td></tr></tbody></table><table><tbody><tr><td>y</td></tr></tbody></table></div>`,
	`<div><table>x<tbody><tr><td>y</td></tr></tbody></table><span>x</span></div>`,
	`<div><span>x</span><table>x<tbody><tr><td>y</td></tr></tbody></table></div>`,
	"<div><span>x</span><table>\u00a0<tbody><tr><td>y</td></tr></tbody></table></div>",
	`<div><span>x</span><table><span>x</span><tbody><tr><td>y</td></tr></tbody></table></div>`,
	`<div><table><tr><td>x</td></tr><tr><td>x</td></tr></table></div>`,
	`<div><table><tbody><td>x</td><td>y</td></tbody></table></div>`,
	`<div><table><colgroup><col><col></colgroup><tbody><tr><td>a</td></tr></tbody></table></div>`,
	`<div><table><col><col><tbody><tr><td>a</td></tr></tbody></table></div>`,
	`<div><table><tbody><tr><td><p>x<table><tbody><tr><td>x</td></tr></tbody></table></p></td></tr></tbody></table></div>`,
	`<div><table><tbody><tr><td><b>x</b></td><td><b>y</b></td></tr></tbody></table></div>`,
	`<div><b><table><tbody><tr><td>x</td></tr></tbody></table></b><b>x</b></div>`,
	`<div><table><tbody><tr><td>x</td><td>y</td></tr></tbody><tbody><tr><td>x</td><td>y</td></tr></tbody></table></div>`,
	`<div><table><caption>x</caption><tbody><tr><td>x</td></tr></tbody></table></div>`,
	`<ul><li>a<table><tbody><tr><td><li>a</li></td></tr></tbody></table></li></ul>`,
	`<div><table>x<tbody><tr><td>y</td></tr></tbody></table><table><tbody><tr><td>y</td></tr></tbody></table></div>`,
	`<div><table><span>x</span><tbody><tr><td>y</td></tr></tbody></table><table><tbody><tr><td>y</td></tr></tbody></table></div>`,
	`<div><table><tbody><tr><td>x</td></tr></tbody><tr><td>x</td></tr></table></div>`,
	`<div><table><tbody><tr><td>x</td></tr><td>x</td></tbody></table></div>`,
	`<ul><li><table>x</table></li><li>x</li></ul>`,
	`<div><span>x</span><table><span>x</span></table></div>`,
	`<div><span>x</span><table><tbody><span>x</span></tbody></table></div>`,
	`<div><span>x</span><table><tbody><tr><span>x</span></tr></tbody></table></div>`,
	`<div><span>x</span><table><colgroup><span>x</span></colgroup></table></div>`,
	`<div><img><table><colgroup><img></colgroup></table></div>`,
}

// TestNoRun checks noRun against the parser on noRunCases.
func TestNoRun(t *testing.T) {
	answered := 0
	for i, c := range noRunCases {
		if checkNoRun(t, "case "+string(rune('A'+i)), c) {
			answered++
		}
	}
	t.Logf("%d of %d cases answered without the parser", answered, len(noRunCases))
}

// TestNoRunCorpus checks noRun against the parser on every HTML file of
// ../../shared/corpus and on the content an extraction takes from it: the
// rendered children of its body and of every article, main and div or
// section whose class names content, an entry or a post (what the
// extractor's rules pick, rendered as ContentHTML is).
func TestNoRunCorpus(t *testing.T) {
	root := "../../shared/corpus"
	if _, err := os.Stat(root); err != nil || testing.Short() {
		t.Skipf("corpus not read (no %s, or -short)", root)
	}
	files, fragments, answered := 0, 0, 0
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		files++
		for _, c := range append([]string{string(b)}, contentsOf(b)...) {
			fragments++
			if checkNoRun(t, p, c) {
				answered++
			}
		}
		return nil
	})
	t.Logf("%d corpus HTML files, %d pages and contents; noRun answered %d without the parser", files, fragments, answered)
}

// contentsOf returns the rendered children of a page's body and of its
// article-like elements.
func contentsOf(page []byte) []string {
	doc, err := html.Parse(strings.NewReader(string(page)))
	if err != nil {
		return nil
	}
	var out []string
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && isContentLike(n) {
			var b strings.Builder
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				_ = html.Render(&b, c)
			}
			out = append(out, b.String())
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

// isContentLike reports whether n is a body, article or main, or a div or
// section whose class names content, an entry or a post.
func isContentLike(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Body, atom.Article, atom.Main:
		return true
	case atom.Div, atom.Section:
		c := strings.ToLower(attrOf(n, "class"))
		return strings.Contains(c, "content") || strings.Contains(c, "entry") || strings.Contains(c, "post")
	}
	return false
}

// FuzzNoRun checks that noRun never says "no run" of a fragment whose
// parsed tree has one.
func FuzzNoRun(f *testing.F) {
	for _, c := range noRunCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, content string) {
		if noRun(content) && sortsRuns(content) {
			t.Errorf("noRun says no run, the parsed tree has one: %q", content)
		}
	})
}
