package learn

import (
	"bytes"
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// refInnerHTML is innerHTML as first written: html.Render of every child.
func refInnerHTML(n *html.Node) string {
	var b bytes.Buffer
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		_ = html.Render(&b, c)
	}
	return string(bytes.TrimSpace(b.Bytes()))
}

// checkInnerHTML compares innerHTML with refInnerHTML on n and on the
// nodes under it: every subtree appendHTML renders by itself is compared
// with html.Render once, at its root, and the inner HTML of every node it
// leaves to html.Render, which mixes both, is compared too. It returns
// how many subtrees appendHTML rendered by itself.
func checkInnerHTML(t *testing.T, what string, n *html.Node) int {
	t.Helper()
	if got, ok := appendHTML(nil, n); ok {
		var want bytes.Buffer
		if err := html.Render(&want, n); err != nil || string(got) != want.String() {
			t.Fatalf("%s: appendHTML of <%s>:\n got %q\nwant %q (%v)", what, n.Data, got, want.String(), err)
		}
		return 1
	}
	if got, want := innerHTML(n), refInnerHTML(n); got != want {
		t.Fatalf("%s: innerHTML of <%s>:\n got %q\nwant %q", what, n.Data, got, want)
	}
	own := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		own += checkInnerHTML(t, what, c)
	}
	return own
}

// TestInnerHTMLMatchesRender checks innerHTML against html.Render on every
// node of random documents mixing text to escape, attributes, void,
// raw-text, foreign and preformatted elements, comments and <plaintext>.
func TestInnerHTMLMatchesRender(t *testing.T) {
	parts := []string{"a", "b&c", "<p>", "</p>", "<br>", "<br/>x", `<a href="/x?a=1&amp;b='2'">`, "</a>", "<div class=\"x\">", "</div>",
		"<!-- c -->", "<script>if (a<b) {}</script>", "<style>p>a{}</style>", "\n", "\r\n", "<pre>", "\n\nx", "</pre>", "<textarea>",
		"</textarea>", "<svg><style>s<x</style><path d='M0'/></svg>", "<math><mi>x</mi></math>", `"q"`, "'", "&lt;", "&#13;",
		"<img src=x alt='a\"b'>", "<table><tr><td>1", "<plaintext>", "<noscript><b>n</b></noscript>", "<xmp><i></xmp>",
		"<iframe>f</iframe>", "<listing>\n\nl</listing>", "<keygen>", "<param name=p>", "<input value=\"v\r\">", "<svg xlink:href=\"#a\" xml:lang=en>", "é\u00a0"}
	rng := rand.New(rand.NewSource(5))
	own := 0
	for range 3000 {
		b := randomMix(rng, parts, 20)
		doc, err := html.Parse(strings.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		own += checkInnerHTML(t, b, doc)
	}
	if own == 0 {
		t.Fatal("appendHTML rendered nothing by itself")
	}
}

// TestInnerHTMLOddTrees checks innerHTML on trees the parser does not
// make: a void element with children, a raw node, an attribute namespace,
// a <plaintext> followed by siblings, a doctype.
func TestInnerHTMLOddTrees(t *testing.T) {
	el := func(tag string, kids ...*html.Node) *html.Node {
		n := &html.Node{Type: html.ElementNode, Data: tag, DataAtom: atom.Lookup([]byte(tag))}
		for _, k := range kids {
			n.AppendChild(k)
		}
		return n
	}
	text := func(s string) *html.Node { return &html.Node{Type: html.TextNode, Data: s} }
	withAttr := el("span", text("x"))
	withAttr.Attr = []html.Attribute{{Namespace: "xlink", Key: "href", Val: "a&b"}, {Key: "title", Val: "\r"}}
	for name, root := range map[string]*html.Node{
		"void with children": el("div", text("a"), el("p", el("br", text("inside"))), text("b")),
		"raw node":           el("div", el("p", &html.Node{Type: html.RawNode, Data: "<b>&</b>"}), text("<")),
		"attr namespace":     el("div", withAttr),
		"plaintext":          el("div", el("p", el("plaintext", text("<x>")), text("after")), el("p", text("next"))),
		"doctype":            el("div", &html.Node{Type: html.DoctypeNode, Data: "html"}, text("t")),
		"error node":         el("div", text("a"), &html.Node{Type: html.ErrorNode, Data: "e"}, text("b")),
		"pre newline":        el("div", el("pre", text("\nx")), el("textarea", text("\n")), el("listing", text("\ny")), el("keygen")),
	} {
		checkInnerHTML(t, name, root)
	}
}

// TestInnerHTMLOnCorpus checks innerHTML against html.Render on every
// element of every corpus page (of one page in 8 with the race detector).
func TestInnerHTMLOnCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus")
	}
	pages, seen := 0, 0
	err := filepath.WalkDir("../../../shared/corpus", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".html") {
			return err
		}
		if seen++; raceBuild && seen%8 != 1 {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		doc, err := html.Parse(bytes.NewReader(b))
		if err != nil {
			return err
		}
		pages++
		checkInnerHTML(t, path, doc)
		return nil
	})
	if pages == 0 {
		t.Skipf("no corpus: %v", err)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// FuzzInnerHTML compares innerHTML with html.Render on every node of any
// parsed input.
func FuzzInnerHTML(f *testing.F) {
	f.Add("<p class=a>x&amp;y<br><script>a<b</script></p><pre>\n\nz</pre>")
	f.Fuzz(func(t *testing.T, s string) {
		doc, err := html.Parse(strings.NewReader(s))
		if err != nil {
			return
		}
		checkInnerHTML(t, s, doc)
	})
}

// TestEscapeFreeMatchesBytes checks escapeFree's word-at-a-time tests
// against looking at the 8 bytes one by one, on random blocks of the
// escaped bytes and their neighbours.
func TestEscapeFreeMatchesBytes(t *testing.T) {
	alphabet := []byte{0, '\r', '\n', ' ', '"', '#', '%', '&', '\'', '(', ';', '<', '=', '>', '?', 'a', 0x7f, 0x80, 0xa6, 0xbc, 0xff}
	rng := rand.New(rand.NewSource(8))
	free := 0
	for range 200000 {
		var b [8]byte
		want := true
		for k := range b {
			b[k] = alphabet[rng.Intn(len(alphabet))]
			want = want && escapes[b[k]] == ""
		}
		if got := escapeFree(load64(string(b[:]), 0)); got != want {
			t.Fatalf("escapeFree(%q) = %v, want %v", b, got, want)
		}
		if want {
			free++
		}
	}
	if free == 0 {
		t.Fatal("no block free of escapes")
	}
}
