package copies

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	xnethtml "github.com/blogharvest/blogharvest/internal/xnet/html"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// htmlCases are pages and fragments the tokenizer's shortcuts (xnet.patch)
// must read as upstream does: upper-case names and keys, NUL bytes in
// names, keys and values, character references and carriage returns in
// values, duplicate keys differing in case, and tags of many attributes
// (past the 16 compared one by one).
var htmlCases = []string{
	``,
	`<p>plain</p>`,
	`<DIV ID=a Class="B">x</DIV>`,
	`<a href="/x?a=1&amp;b=2&c" title='a&lt;b'>t</a>`,
	"<img src=\"a\r\nb\" alt=\"x\ry\">",
	"<di\x00v cl\x00ass=\"a\x00b\">n</di\x00v>",
	`<p id=a ID=b Id=c iD=d>dup</p>`,
	`<p a=1 b=2 A=3 c=4 B=5>dup</p>`,
	`<p =x a>empty keys</p>`,
	`<svg viewBox="0 0 1 1"><foreignObject><p>x</p></foreignObject><path D="M0"/></svg>`,
	`<math><mi XLINK:HREF="a">x</mi></math>`,
	`<table><tr><td>a<b>b</td></tr></table>c`,
	`<b><i>x</b>y</i>`,
	`<script>a<b & "c" </script><style>a>b</style><textarea>&lt;x</textarea><title>T&amp;T</title>`,
	`<!DOCTYPE html><html lang=en><head><meta charset=utf-8></head><body onload=x()></body></html>`,
	`<p a="&#x41;&#65;&notanentity;&amp">refs</p>`,
	"<p\tA\n=\fB>spaces</p>",
}

func init() {
	// Tags of many attributes, some repeated in other cases past the
	// 16th, so that readTag's map is used.
	var b strings.Builder
	b.WriteString("<div")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, " a%d=%d", i%25, i)
		if i%7 == 0 {
			fmt.Fprintf(&b, " A%d=u%d", i%20, i)
		}
	}
	b.WriteString(">many</div>")
	htmlCases = append(htmlCases, b.String(), strings.ReplaceAll(b.String(), "a", "A"))
}

// TestHTMLParsesAsUpstream checks that the copy's parser (internal/xnet/html)
// builds upstream's tree, node for node (types, atoms, names, namespaces,
// attributes, text), for the cases above, every HTML file of the module's
// testdata and of ../shared/corpus when it is there (each also as a
// fragment in a <body>, as the content digest parses a post). With
// -short (the race run of .ci/run: 197 s for the corpus under -race) the
// corpus is left to the run without it.
func TestHTMLParsesAsUpstream(t *testing.T) {
	n := 0
	for _, c := range htmlCases {
		checkParsesAsUpstream(t, fmt.Sprintf("%q", c), []byte(c))
		n++
	}
	for _, root := range []string{"../../testdata", "../../aip/testdata", "../../harvest/testdata", "../../../shared/corpus"} {
		if _, err := os.Stat(root); err != nil {
			t.Logf("%s: not there (%v)", root, err)
			continue
		}
		if testing.Short() && strings.HasSuffix(root, "corpus") {
			t.Logf("%s: left out under -short", root)
			continue
		}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") && !strings.HasSuffix(p, ".htm") {
				return err
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			checkParsesAsUpstream(t, p, b)
			n++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d pages parsed alike", n)
	if n < 30 {
		t.Errorf("only %d pages compared", n)
	}
}

// FuzzHTMLParsesAsUpstream compares the copy's trees with upstream's on
// any input, as a page and as a fragment.
func FuzzHTMLParsesAsUpstream(f *testing.F) {
	for _, c := range htmlCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkParsesAsUpstream(t, "input", b)
	})
}

// checkParsesAsUpstream parses b with both parsers, as a document and as a
// fragment in a <body>, and fails on any difference.
func checkParsesAsUpstream(t *testing.T, name string, b []byte) {
	t.Helper()
	up, errU := html.Parse(bytes.NewReader(b))
	cp, errC := xnethtml.Parse(bytes.NewReader(b))
	if fmt.Sprint(errU) != fmt.Sprint(errC) {
		t.Fatalf("%s: upstream's error %v, the copy's %v", name, errU, errC)
	}
	if d := treeDiff(up, cp); d != "" {
		t.Errorf("%s: the copy's tree differs from upstream's: %s", name, d)
	}
	body := &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
	upF, errU := html.ParseFragment(bytes.NewReader(b), body)
	cpF, errC := xnethtml.ParseFragment(bytes.NewReader(b), body)
	if fmt.Sprint(errU) != fmt.Sprint(errC) || len(upF) != len(cpF) {
		t.Fatalf("%s: as a fragment, upstream gives %d nodes (error %v), the copy %d (error %v)", name, len(upF), errU, len(cpF), errC)
	}
	for i := range upF {
		if d := treeDiff(upF[i], cpF[i]); d != "" {
			t.Errorf("%s: as a fragment, node %d differs: %s", name, i, d)
		}
	}
}

// treeDiff describes the first difference between the trees under a and b
// (depth first), or returns "".
func treeDiff(a, b *html.Node) string {
	if a == nil || b == nil {
		if a != b {
			return fmt.Sprintf("%v against %v", a, b)
		}
		return ""
	}
	if a.Type != b.Type || a.DataAtom != b.DataAtom || a.Data != b.Data || a.Namespace != b.Namespace {
		return fmt.Sprintf("node %d %q %q (atom %v) against %d %q %q (atom %v)", a.Type, a.Namespace, a.Data, a.DataAtom, b.Type, b.Namespace, b.Data, b.DataAtom)
	}
	if len(a.Attr) != len(b.Attr) {
		return fmt.Sprintf("<%s> attributes %q against %q", a.Data, a.Attr, b.Attr)
	}
	for i := range a.Attr {
		if a.Attr[i] != b.Attr[i] {
			return fmt.Sprintf("<%s> attributes %q against %q", a.Data, a.Attr, b.Attr)
		}
	}
	ca, cb := a.FirstChild, b.FirstChild
	for ; ca != nil && cb != nil; ca, cb = ca.NextSibling, cb.NextSibling {
		if d := treeDiff(ca, cb); d != "" {
			return d
		}
	}
	if ca != nil || cb != nil {
		return fmt.Sprintf("<%s>: a child more on one side", a.Data)
	}
	return ""
}

// BenchmarkHTMLParse parses every HTML file of the corpus blogs
// thaumatorium, jerryc and 3mdeb (../shared/corpus) once an iteration, with
// upstream's parser and with the copy's: ns/op, B/op and allocs/op are a
// pass over all of them.
func BenchmarkHTMLParse(b *testing.B) {
	var pages [][]byte
	for _, blog := range []string{"thaumatorium", "jerryc", "3mdeb"} {
		filepath.WalkDir(filepath.Join("../../../shared/corpus", blog), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".html") || strings.HasSuffix(p, ".htm")) {
				if raw, err := os.ReadFile(p); err == nil {
					pages = append(pages, raw)
				}
			}
			return nil
		})
	}
	if len(pages) == 0 {
		b.Skip("corpus absent")
	}
	for _, parser := range []struct {
		name  string
		parse func(r *bytes.Reader) (*html.Node, error)
	}{
		{"upstream", func(r *bytes.Reader) (*html.Node, error) { return html.Parse(r) }},
		{"copy", func(r *bytes.Reader) (*html.Node, error) { return xnethtml.Parse(r) }},
	} {
		b.Run(parser.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, p := range pages {
					if _, err := parser.parse(bytes.NewReader(p)); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
