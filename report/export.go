package report

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Formats are the export formats, by name.
var Formats = []string{"jsonl", "txt", "xml"}

// Exporter writes a corpus of Posts in one format.
type Exporter struct {
	w      *bufio.Writer
	format string
	xml    *xml.Encoder
	n      int
}

// NewExporter returns an Exporter writing format ("jsonl", "txt" or
// "xml") to w. Close must be called to finish the document.
func NewExporter(w io.Writer, format string) (*Exporter, error) {
	e := &Exporter{w: bufio.NewWriter(w), format: format}
	switch format {
	case "jsonl", "txt":
	case "xml":
		e.w.WriteString(xml.Header + "<corpus>\n")
		e.xml = xml.NewEncoder(e.w)
		e.xml.Indent("", "  ")
	default:
		return nil, fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats, ", "))
	}
	return e, nil
}

// Write writes one Post with its comments.
func (e *Exporter) Write(p *Post) error {
	e.n++
	switch e.format {
	case "jsonl":
		enc := json.NewEncoder(e.w)
		enc.SetEscapeHTML(false)
		return enc.Encode(p)
	case "xml":
		if err := e.xml.EncodeElement(p, xml.StartElement{Name: xml.Name{Local: "post"}}); err != nil {
			return err
		}
		_, err := e.w.WriteString("\n")
		return err
	}
	return e.writeText(p)
}

// Close finishes the document and flushes it.
func (e *Exporter) Close() error {
	if e.format == "xml" {
		e.w.WriteString("</corpus>\n")
	}
	return e.w.Flush()
}

// Posts returns the number of Posts written.
func (e *Exporter) Posts() int { return e.n }

// The plain-text convention (doc/export.md): every record starts with a
// header line, TextEntry or TextComment and the permalink (or a comment's
// id), then "key: value" lines, one blank line, the text, and one blank
// line. A line of text that starts with the marker or a backslash gets a
// backslash in front, so a header line is never ambiguous.
const (
	TextMarker  = "%%% "
	TextEntry   = TextMarker + "entry "
	TextComment = TextMarker + "comment "
)

func (e *Exporter) writeText(p *Post) error {
	e.w.WriteString(TextEntry + oneLine(p.Permalink) + "\n")
	field(e.w, "blog", p.Blog)
	field(e.w, "aip", p.AIP)
	field(e.w, "version", strconv.Itoa(p.Version))
	field(e.w, "kind", p.Kind)
	field(e.w, "title", p.Title)
	field(e.w, "author", p.Author)
	field(e.w, "created", p.Created)
	field(e.w, "modified", p.Modified)
	field(e.w, "language", p.Language)
	for _, c := range p.Categories {
		field(e.w, "category", c)
	}
	for _, t := range p.Tags {
		field(e.w, "tag", t)
	}
	field(e.w, "comments", strconv.Itoa(len(p.Comments)))
	body(e.w, p.Text)
	for _, c := range p.Comments {
		e.w.WriteString(TextComment + oneLine(c.ID) + "\n")
		field(e.w, "permalink", c.Permalink)
		field(e.w, "author", c.Author)
		field(e.w, "subject", c.Subject)
		field(e.w, "added", c.Added)
		field(e.w, "modified", c.Modified)
		field(e.w, "parent", c.Parent)
		field(e.w, "parent-id", c.ParentID)
		body(e.w, c.Text)
	}
	return nil
}

// field writes "key: value" unless value is empty.
func field(w *bufio.Writer, key, value string) {
	if value != "" {
		w.WriteString(key + ": " + oneLine(value) + "\n")
	}
}

// body writes a blank line, the escaped text and a blank line.
func body(w *bufio.Writer, text string) {
	w.WriteString("\n")
	if text != "" {
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(line, TextMarker) || strings.HasPrefix(line, `\`) {
				w.WriteString(`\`)
			}
			w.WriteString(line + "\n")
		}
	}
	w.WriteString("\n")
}

// oneLine replaces line breaks in a header value by spaces.
func oneLine(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' {
			return ' '
		}
		return r
	}, s)
}
