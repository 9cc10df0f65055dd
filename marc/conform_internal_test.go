package marc

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/blogharvest/blogharvest"
	"golang.org/x/net/html"
)

func TestHTMLOneLine(t *testing.T) {
	cases := []struct{ in, want string }{
		{"<p>a\nb</p>", "<p>a b</p>"},
		{"<p>a\r\nb\rc\td</p>", "<p>a b c d</p>"},
		{"<PRE class=x>a\r\n\tb\n</PRE>\n<p>c\nd</p>", "<PRE class=x>a&#10;&#9;b&#10;</PRE> <p>c d</p>"},
		{"<pre><pre>x\n</pre>y\n</pre>z\n", "<pre><pre>x&#10;</pre>y&#10;</pre>z "},
		{"<preface>a\nb</preface><textarea>c\nd</textarea>", "<preface>a b</preface><textarea>c&#10;d</textarea>"},
		{"no breaks", "no breaks"},
	}
	for _, c := range cases {
		if got := htmlOneLine(c.in); got != c.want {
			t.Errorf("htmlOneLine(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// preText returns the text of every <pre> of an HTML fragment as a parser
// reads it.
func preText(t *testing.T, s string) string {
	doc, err := html.Parse(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	var walk func(n *html.Node, in bool)
	walk = func(n *html.Node, in bool) {
		in = in || n.Type == html.ElementNode && n.Data == "pre"
		if in && n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, in)
		}
	}
	walk(doc, false)
	return b.String()
}

// TestContentChunks checks that a long article is split over 520 fields
// each within ISO 2709's field limit, in order, without raw line breaks,
// the text of its <pre> blocks unchanged for an HTML parser.
func TestContentChunks(t *testing.T) {
	var in strings.Builder
	for in.Len() < 40000 {
		in.WriteString("<p>Ωραίο λάδι, line\r\none.</p>\n<pre>a\tb\n  c\r\n</pre>\n")
	}
	var b builder
	b.content("520", "full_content", in.String(), "text/html")
	if len(b.data) < 4 {
		t.Fatalf("%d fields for %d bytes, want at least 4", len(b.data), in.Len())
	}
	var joined strings.Builder
	for i, f := range b.data {
		if n := FieldLen(f); n > MaxFieldBytes {
			t.Errorf("field %d: %d bytes in ISO 2709, over %d", i, n, MaxFieldBytes)
		}
		if f.Tag != "520" || f.Value('3') != "full_content" || (f.Value('b') != "") != (i == 0) {
			t.Errorf("field %d: %+v, want 520 $3 full_content, $b only in the first", i, f)
		}
		part := f.Value('a')
		if strings.ContainsAny(part, "\r\n\t") || !utf8.ValidString(part) || strings.HasPrefix(part, " ") || strings.HasSuffix(part, " ") {
			t.Errorf("field %d: $a %.40q… has raw breaks, invalid UTF-8 or blank ends", i, part)
		}
		joined.WriteString(part)
	}
	if got, want := joined.String(), strings.TrimSpace(htmlOneLine(in.String())); got != want {
		t.Error("the parts do not join back to the normalised article")
	}
	if got, want := preText(t, joined.String()), preText(t, in.String()); got != want {
		t.Errorf("<pre> text changed: %.60q…, want %.60q…", got, want)
	}
	r := &Record{Leader: LeaderComponent, Data: append(b.data, DataField{Tag: "980", Ind1: ' ', Ind2: ' ', Subfields: []Subfield{sf('a', TypeBlogPost)}})}
	if got := Attributes(r)["full_content"]; len(got) != 1 || got[0] != joined.String() {
		t.Errorf("Attributes gives %d full_content values, want the joined article", len(got))
	}
}

func TestNonFiling(t *testing.T) {
	cases := []struct {
		title, lang string
		want        byte
	}{
		{"The long winter", "eng", '4'},
		{"A day out", "eng", '2'},
		{"An olive", "und", '3'},
		{"\"The\" word", "eng", '6'},
		{"[Untitled post]", "eng", '0'},
		{"Theory", "eng", '0'},
		{"A-frame houses", "eng", '0'},
		{"Le jardin", "fre", '3'},
		{"L'olivier", "fre", '2'},
		{"Le jardin", "eng", '0'},
		{"Die Ernte", "ger", '4'},
		{"The harvest", "gre", '4'},
		{"A casa", "por", '2'},
		{"Los Angeles diary", "spa", '0'},
	}
	for _, c := range cases {
		if got := nonFiling(c.title, c.lang); got != c.want {
			t.Errorf("nonFiling(%q, %s) = %c, want %c", c.title, c.lang, got, c.want)
		}
	}
}

// TestNoRawBreaks checks that no subfield of a record holds a line break or
// a tab, whatever the harvested values hold.
func TestNoRawBreaks(t *testing.T) {
	e := &blogharvest.Entry{Title: "Two\r\nlines", Author: "Ann\nBee", Tags: []string{"a\tb"},
		Content: "<p>x\ny</p><pre>1\n2</pre>", ContentFormat: "text/plain", URL: "https://b.example/p\n"}
	for _, r := range []*Record{FromEntry(e, Options{}), FromComment(&blogharvest.Comment{Subject: "S\nT", Content: "c\r\nd"}, e, Options{})} {
		for _, f := range r.Data {
			for _, s := range f.Subfields {
				if strings.ContainsAny(s.Value, "\r\n\t") {
					t.Errorf("%s $%c = %q", f.Tag, s.Code, s.Value)
				}
			}
		}
	}
}

// FuzzContent checks that any article splits into 520 fields within ISO
// 2709's field limit that join back to the normalised article, without raw
// line breaks, and cut at UTF-8 boundaries.
func FuzzContent(f *testing.F) {
	f.Add("<p>a\nb</p><pre>c\r\nd</pre>", 50)
	f.Add(strings.Repeat("λ<b>x</b>\n", 3000), 3)
	f.Fuzz(func(t *testing.T, s string, repeat int) {
		s = strings.Repeat(s, 1+min(max(repeat, 0), 20000/(len(s)+1)))
		var b builder
		b.content("520", "full_content", s, "text/html")
		var joined strings.Builder
		for i, fd := range b.data {
			part := fd.Value('a')
			if n := FieldLen(fd); n > MaxFieldBytes {
				t.Fatalf("field %d: %d bytes", i, n)
			}
			if strings.ContainsAny(part, "\r\n\t") {
				t.Fatalf("field %d: raw break in %q", i, part)
			}
			if utf8.ValidString(s) && !utf8.ValidString(part) {
				t.Fatalf("field %d: cut inside a character", i)
			}
			joined.WriteString(part)
		}
		if want := strings.TrimSpace(oneLine(htmlOneLine(s))); joined.String() != want {
			t.Fatalf("parts join to %d bytes, want %d", joined.Len(), len(want))
		}
	})
}
