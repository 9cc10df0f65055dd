package report

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// PlainText returns content as plain text. HTML (format text/html, or
// empty format with markup) loses its tags: block elements become
// paragraphs separated by one blank line, <br> a line break, runs of
// white space one space; script, style, noscript and the like are
// dropped. Other formats are
// returned with their lines trimmed.
func PlainText(content, format string) string {
	if !strings.Contains(format, "html") && !(format == "" && strings.Contains(content, "<")) {
		return tidy(content)
	}
	z := html.NewTokenizer(strings.NewReader(content))
	var b strings.Builder
	skip := 0
	for {
		switch z.Next() {
		case html.ErrorToken:
			return tidy(b.String())
		case html.TextToken:
			if skip == 0 {
				collapse(&b, z.Text())
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			switch {
			case hidden[a]:
				skip++
			case a == atom.Br:
				b.WriteString("\n")
			case block[a]:
				b.WriteString("\n\n")
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			a := atom.Lookup(name)
			switch {
			case hidden[a] && skip > 0:
				skip--
			case block[a]:
				b.WriteString("\n\n")
			}
		}
	}
}

// collapse writes t with each run of white space as one space.
func collapse(b *strings.Builder, t []byte) {
	space := false
	for _, c := range string(t) {
		if c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(c)
	}
	if space {
		b.WriteByte(' ')
	}
}

// hidden lists the elements whose content is not text a reader sees.
var hidden = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Iframe: true, atom.Noembed: true,
	atom.Noframes: true, atom.Template: true,
}

// block lists the elements that start a paragraph of their own.
var block = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.H1: true, atom.H2: true, atom.H3: true, atom.H4: true, atom.H5: true,
	atom.H6: true, atom.Li: true, atom.Ul: true, atom.Ol: true, atom.Blockquote: true, atom.Pre: true,
	atom.Figure: true, atom.Figcaption: true, atom.Table: true, atom.Tr: true, atom.Section: true,
	atom.Article: true, atom.Hr: true, atom.Dd: true, atom.Dt: true,
}

// tidy trims every line, keeps at most one blank line between paragraphs
// and none at either end.
func tidy(s string) string {
	var out []string
	blank := false
	for _, line := range strings.Split(s, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, "")
			blank = false
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}
