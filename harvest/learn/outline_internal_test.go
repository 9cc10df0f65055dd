package learn

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// outlineMismatch compares the outline of page with the tree html.Parse
// builds: the same elements in the same order with the same parents, and
// the extent of every element with an id or class parsing to the same
// subtree. It reports whether the outline was usable and, if so, the
// first difference ("" when none).
func outlineMismatch(page []byte) (bool, string) {
	o := newOutline(page, nil)
	if !o.ok {
		return false, ""
	}
	root, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return true, err.Error()
	}
	var real []*html.Node
	walkElements(root, func(n *html.Node) bool {
		if n.Type == html.ElementNode && !isFrame(n) {
			real = append(real, n)
			k := len(real) - 1
			return k >= len(o.els) || !o.els[k].opaque // the outline does not list what an opaque element holds
		}
		return true
	})
	if len(real) != len(o.els) {
		return true, fmt.Sprintf("%d elements, html.Parse has %d", len(o.els), len(real))
	}
	index := make(map[*html.Node]int, len(real))
	for k, n := range real {
		index[n] = k
	}
	for k, e := range o.els {
		n := real[k]
		if !strings.EqualFold(e.name, n.Data) {
			return true, fmt.Sprintf("element %d at %d: %s, html.Parse has %s", k, e.from, e.name, n.Data)
		}
		want := -1
		if p, ok := index[n.Parent]; ok {
			want = p
		}
		if e.parent != want {
			return true, fmt.Sprintf("element %d <%s> at %d: parent %d, html.Parse has %d", k, e.name, e.from, e.parent, want)
		}
		if msg := o.checkExtent(k, n); msg != "" {
			return true, msg
		}
	}
	return true, ""
}

// isFrame reports whether n is html, head or body.
func isFrame(n *html.Node) bool {
	return n.Namespace == "" && (n.Data == "html" || n.Data == "head" || n.Data == "body")
}

// checkExtent checks that element k, when it has an id or class and an
// explicit end, spans bytes that parse to the subtree of n.
func (o *outline) checkExtent(k int, n *html.Node) string {
	e := o.els[k]
	if e.to < 0 || e.id[0] < 0 && e.class[0] < 0 || implicitEnd[e.name] || n.Namespace != "" {
		return ""
	}
	sub, ok := parseSubtree(o.page[e.from:e.to])
	if !ok {
		return fmt.Sprintf("element %d <%s> at %d: its bytes do not parse", k, e.name, e.from)
	}
	var a, b bytes.Buffer
	_ = html.Render(&a, sub)
	_ = html.Render(&b, n)
	if a.String() != b.String() {
		return fmt.Sprintf("element %d <%s> at %d: subtree differs:\n%.300s\n%.300s", k, e.name, e.from, a.String(), b.String())
	}
	if t, ok := buildElement(o.page[e.from:e.to]); ok {
		if msg := sameTree(t, sub); msg != "" {
			return fmt.Sprintf("element %d <%s> at %d: built tree differs: %s\n%.300q", k, e.name, e.from, msg, o.page[e.from:e.to])
		}
	}
	if t, ok := textElement(o.page, span{e.from, e.tagEnd, e.to}); ok {
		var c bytes.Buffer
		_ = html.Render(&c, t)
		if c.String() != a.String() || t.DataAtom != sub.DataAtom || len(t.Attr) != len(sub.Attr) {
			return fmt.Sprintf("element %d <%s> at %d: textElement differs:\n%.300s\n%.300s", k, e.name, e.from, c.String(), a.String())
		}
	}
	return ""
}

// TestOutlineRandom compares outlines with html.Parse on random markup.
func TestOutlineRandom(t *testing.T) {
	parts := []string{"<div>", "</div>", "<p>", "</p>", "<li>", "</li>", "<ul>", "</ul>", "<b>", "</b>", "<a href=x>", "</a>",
		"text", " ", "<br>", "<img src='a>b'>", "<!-- c -->", "<script>if(a<b)x()</script>", "<table>", "</table>", "<tr>",
		"</tr>", "<td>", "</td>", "<tbody>", "<h2>", "</h2>", "<h3>", "</h3>", "<span class=\"c d\">", "</span>", "<svg>", "</svg>",
		"<path d='x'/>", "<select>", "<option>", "</select>", "<dl>", "<dt>", "<dd>", "</dl>", "<form>", "</form>", "<section id=s>",
		"</section>", "<em>", "</em>", "<pre>", "</pre>", "<input>", "<button>", "</button>", "<textarea><p></textarea>", "<title>x</title>",
		"<html>", "<body>", "</body>", "<head>", "<meta charset=utf-8>", "<!DOCTYPE html>", "<object>", "</object>", "<hr/>", "<div/>",
		"<div class=w><a href=1><div class=e>x<a href=2>y</a></div></a></div>", "<p><b>x<div>y</b>z</div>", "<span id=a&amp;b title=\"&#233;&#x41;&lt;&notit;&copy=&raquo;&semi;&hellip;\">", "<a>", "<a id=q>", "\r\n", "<pre>\nx", "<textarea>\r\nt</textarea>", "<!---->", "<!-->", "<!-- &amp; -->", "x &lt; y", "a < b", "<style>p{}</style>", "<h1 class='t' data-x=\"&lt;\">", "</h1>", "&amp; &eacute;", "<time datetime=2020>", "</time>", "<td class=c>", "<i class=x>",
		// upper and mixed case: names, keys and raw-text end tags are read whatever their case
		"<DIV Class=w>", "</Div>", "<P>", "</LI>", "<SCRIPT>a</ScRiPt>", "<Style>p{}</STYLE >", "<script><!--<SCRIPT>x</script>y</SCRIPT>",
		"<Textarea>x</TEXTAREA>", "<span CLASS=\"Comment x\" ID=C itemType=X>", "<svg><Path d=x/></SVG>", "<TABLE>", "<TD>", "<A HREF=x>", "</A>"}
	rng := rand.New(rand.NewSource(outlineSeed()))
	usable := 0
	for range 30000 {
		b := randomMix(rng, parts, 14)
		ok, msg := outlineMismatch([]byte(b))
		if msg != "" {
			t.Fatalf("%q: %s", b, msg)
		}
		if ok {
			usable++
		}
	}
	t.Logf("%d of 30000 usable", usable)
}

// outlineSeed returns the random seed of TestOutlineRandom: OUTLINE_SEED
// when set, else 5.
func outlineSeed() int64 {
	if s, err := strconv.ParseInt(os.Getenv("OUTLINE_SEED"), 10, 64); err == nil {
		return s
	}
	return 5
}

// sameTree reports the first difference between trees a and b ("" when
// none): types, names, namespaces, attributes, data and children.
func sameTree(a, b *html.Node) string {
	if a.Type != b.Type || a.Data != b.Data || a.DataAtom != b.DataAtom || a.Namespace != b.Namespace {
		return fmt.Sprintf("node %d %q %q, want %d %q %q", a.Type, a.Data, a.Namespace, b.Type, b.Data, b.Namespace)
	}
	if len(a.Attr) != len(b.Attr) {
		return fmt.Sprintf("<%s> attributes %v, want %v", a.Data, a.Attr, b.Attr)
	}
	for i := range a.Attr {
		if a.Attr[i] != b.Attr[i] {
			return fmt.Sprintf("<%s> attribute %v, want %v", a.Data, a.Attr[i], b.Attr[i])
		}
	}
	ca, cb := a.FirstChild, b.FirstChild
	for ; ca != nil && cb != nil; ca, cb = ca.NextSibling, cb.NextSibling {
		if msg := sameTree(ca, cb); msg != "" {
			return msg
		}
	}
	if ca != nil || cb != nil {
		return fmt.Sprintf("<%s> has a different number of children", a.Data)
	}
	return ""
}

// FuzzOutline compares outlines, and the trees built from them, with
// html.Parse on any input.
func FuzzOutline(f *testing.F) {
	f.Add("<div class=a><p>x<ul><li>1<li>2</ul><a href=1><div class=b><a>y</a></div></a></div>")
	f.Add("<table><tr><td>x</table><svg><path/></svg><!-- c --><pre>\ny</pre>")
	f.Add("<DIV CLASS=a ID=b><SCRIPT>x</ScRiPt><P>y</Div><STYLE>z</style >")
	f.Fuzz(func(t *testing.T, s string) {
		if _, msg := outlineMismatch([]byte(s)); msg != "" {
			t.Fatalf("%q: %s", s, msg)
		}
	})
}

// TestIsMarkerMatchesNodes checks the outline's reading of comment
// markers against isCommentMarker on the parsed elements, on random ids,
// classes and item types in any case.
func TestIsMarkerMatchesNodes(t *testing.T) {
	tags := []string{"div", "li", "span", "article", "DIV", "section", "p"}
	words := []string{"comment", "Comment", "COMMENT", "dsq-comment", "comment-block", "p-comment", "h-cite", "cite", "x", "comment-1",
		"div-comment-2", "li-comment-3", "comments", " ", "\t", "é", "http://schema.org/Comment", "https://schema.org/UserComments"}
	rng := rand.New(rand.NewSource(8))
	value := func() string {
		var b strings.Builder
		for range rng.Intn(4) {
			b.WriteString(words[rng.Intn(len(words))])
			if rng.Intn(2) == 0 {
				b.WriteByte(' ')
			}
		}
		return b.String()
	}
	checked := 0
	for range 3000 {
		var page strings.Builder
		for range 1 + rng.Intn(4) {
			tag := tags[rng.Intn(len(tags))]
			fmt.Fprintf(&page, "<%s", tag)
			for _, key := range []string{"id", "CLASS", "class", "itemtype"} {
				if rng.Intn(3) > 0 {
					fmt.Fprintf(&page, " %s=%q", key, value())
				}
			}
			fmt.Fprintf(&page, ">x</%s>", tag)
		}
		o := newOutline([]byte(page.String()), nil)
		if !o.ok {
			continue
		}
		var scratch html.Node
		for k := range o.els {
			n, _, ok := tokenizeStartTag(o.page, o.els[k].from)
			if !ok {
				t.Fatalf("%q: element %d does not tokenize", page.String(), k)
			}
			got, ok := o.isMarker(k, &scratch)
			if want := isCommentMarker(n); !ok || got != want {
				t.Fatalf("%q: element %d: isMarker %v (%v), isCommentMarker %v", page.String(), k, got, ok, want)
			}
			checked++
		}
	}
	t.Logf("%d elements checked", checked)
}

// TestHasClassTokenMatchesNaive checks hasClassToken and markerClass
// against splitting class values at HTML spaces, on random values.
func TestHasClassTokenMatchesNaive(t *testing.T) {
	words := []string{"comment", "Comment", "COMMENT", "dsq-comment", "comment-block", "p-comment", "h-cite", "x", "comment-1", "é",
		" ", "\t", "\n", "\f", "\r", "\v", "  "}
	rng := rand.New(rand.NewSource(9))
	for range 20000 {
		v := randomMix(rng, words, 6)
		toks := strings.FieldsFunc(v, isHTMLSpaceRune)
		c := words[rng.Intn(7)]
		if got, want := hasClassToken([]byte(v), c), slices.Contains(toks, c); got != want {
			t.Fatalf("hasClassToken(%q, %q) = %v, want %v", v, c, got, want)
		}
		name := []string{"div", "span", "li", "p"}[rng.Intn(4)]
		want := slices.ContainsFunc(toks, func(s string) bool {
			return s == "dsq-comment" || s == "comment-block" || s == "p-comment" || s == "h-cite" || commentTags[name] && (s == "comment" || s == "Comment")
		})
		if got := markerClass([]byte(v), name); got != want {
			t.Fatalf("markerClass(%q, %q) = %v, want %v", v, name, got, want)
		}
	}
}
