package aip

import (
	"bytes"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// noRun reports whether content certainly holds no run that sortMediaRuns
// would sort, read from its tokens without building a tree: most posts
// have none, and building the tree of every post's HTML for the content
// digest was a tenth of what a crawl allocated (doc/benchmarks.md,
// "Twelfth pass"). False means "perhaps": unshuffled then parses.
//
// Proof. A run needs, under an element that is not the fragment's top
// level, two adjacent element siblings a and b of the same tag that are
// both media items (each holds an img, picture or video) or hold the same
// words (sameText: the same non-empty fields of their text nodes, which
// requires the same non-space characters in the same order). noRun reads
// the tokens as x/net/html's parser does only where the parser's tree is
// the naive nesting of the tags (every end tag closes the open element it
// names, each start tag opens a child of the open element, void elements
// close at once, the rest at the end), and gives up (false) at every token
// where the parser in the "in body" mode could do otherwise; the cases
// follow inBodyIM of golang.org/x/net v0.60.0 (parse.go):
//   - an end tag that is not the open element's (ignored, closing several
//     elements, or a </p> or </br> making an element), a DOCTYPE;
//   - a start tag that closes open elements: a p-closing tag while a <p>
//     is open (address, div, h1, li, hr, xmp, …: the parser closes the p
//     in button scope; with none of the scope's boundaries allowed, that
//     is any open p), a heading in a heading, an <li> (<dd>, <dt>) that
//     would close an open one (the parser's loop down the open elements,
//     stopped here only at elements special to it), an <a> in an <a>, a
//     <nobr> in a <nobr>;
//   - a start tag with its own mode or restructuring: html, body,
//     frameset, head, form, button, plaintext, template, a table's parts
//     outside their place, select, option, optgroup, ruby's, applet,
//     marquee, object (scope markers), math and svg (foreign content),
//     image (made an img), frame;
//   - in a table's structure (startInTable), any tag but the next level of
//     a well-formed table (thead, tbody, tfoot or colgroup in a table, tr
//     in a section, td or th in a row, col in a column group), and text
//     other than the parser's whitespace (implied elements, foster
//     parenting);
//   - a NUL byte anywhere (the parser drops it from text).
//
// Within that, formatting elements (b, i, a, …) are closed by their own end
// tag, so the list of active formatting elements holds open elements only
// and is never reconstructed; the raw-text elements (script, style,
// textarea, title, …) are tokenized as the parser has them tokenized (it
// changes the tokenizer only in foreign content and with scripting off);
// a leading newline the parser drops after <pre> or <textarea> is a space.
// So the tree's elements, their nesting and each one's text are the
// tokens', and a pair of adjacent siblings under an element that are not
// both media holders and whose non-space text differs, or whose tags
// differ, is no run. TestNoRunCorpus and FuzzNoRun check the claim against
// the parser.
func noRun(content string) bool {
	if strings.IndexByte(content, 0) >= 0 {
		return false
	}
	s := runScan{stack: make([]scanElem, 1, 32)}
	s.text = make([]byte, 0, len(content)/2)
	z := html.NewTokenizer(strings.NewReader(content))
	for {
		switch z.Next() {
		case html.ErrorToken:
			if z.Err() != io.EOF {
				return false
			}
			for len(s.stack) > 1 {
				if !s.pop() {
					return false
				}
			}
			return true
		case html.TextToken:
			if tableMode(s.top()) {
				// The parser keeps only its whitespace there, and moves
				// other text before the table.
				if len(bytes.Trim(z.Text(), parserSpace)) > 0 {
					return false
				}
			} else if len(s.stack) > 1 { // top-level text is in no element
				s.addText(z.Text())
			}
		case html.CommentToken:
		case html.DoctypeToken:
			return false
		case html.StartTagToken, html.SelfClosingTagToken:
			name := s.tagName(z.Raw()[1:])
			if tableMode(s.top()) {
				if !s.startInTable(name) {
					return false
				}
			} else if !s.start(name) {
				return false
			}
		case html.EndTagToken:
			name := s.tagName(z.Raw()[2:])
			top := &s.stack[len(s.stack)-1]
			if len(s.stack) == 1 || !top.is(name) {
				return false
			}
			if !s.pop() {
				return false
			}
		}
	}
}

// runScan is noRun's state: the open elements and the non-space text read.
type runScan struct {
	stack  []scanElem // the open elements; stack[0] stands for the fragment's top level
	text   []byte     // the non-space characters of the elements' text, in document order
	openP  int        // open <p> elements
	openA  int        // open <a> elements
	openBr int        // open <nobr> elements
	name   []byte     // the tag name read last (tagName)
}

// scanElem is an open element.
type scanElem struct {
	atom  atom.Atom
	name  string // the tag name when atom is 0 (a custom element)
	start int    // where its text starts in runScan.text
	media bool   // it or an element under it is an img, picture or video
	// last is the element's last closed element child; hasLast whether it has one.
	last    scanClosed
	hasLast bool
}

// scanClosed is a closed element as compared with its next sibling.
type scanClosed struct {
	atom       atom.Atom
	name       string
	start, end int
	media      bool
}

// is reports whether the element's tag is name (lowercase, as the
// tokenizer gives it).
func (e *scanElem) is(name []byte) bool {
	a := atom.Lookup(name)
	if a != e.atom {
		return false
	}
	return a != 0 || e.name == string(name)
}

// addText appends the non-space characters of t (unicode.IsSpace, as
// strings.Fields splits; an invalid byte is kept as it is) to s.text.
func (s *runScan) addText(t []byte) {
	for i := 0; i < len(t); {
		c := t[i]
		if c < utf8.RuneSelf {
			if asciiSpaceByte(c) {
				i++
				continue
			}
			s.text = append(s.text, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(t[i:])
		if !unicode.IsSpace(r) {
			s.text = append(s.text, t[i:i+n]...)
		}
		i += n
	}
}

// asciiSpaceByte reports whether c is one of the ASCII spaces of
// unicode.IsSpace.
func asciiSpaceByte(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// push opens an element; void ones close at once (pop).
func (s *runScan) push(a atom.Atom, name []byte, void bool) bool {
	e := scanElem{atom: a, start: len(s.text), media: a == atom.Img || a == atom.Picture || a == atom.Video}
	if a == 0 {
		e.name = string(name)
	}
	switch a {
	case atom.P:
		s.openP++
	case atom.A:
		s.openA++
	case atom.Nobr:
		s.openBr++
	}
	s.stack = append(s.stack, e)
	if void {
		return s.pop()
	}
	return true
}

// pop closes the open element, comparing it with its previous element
// sibling: false when the two may be a run.
func (s *runScan) pop() bool {
	e := s.stack[len(s.stack)-1]
	s.stack = s.stack[:len(s.stack)-1]
	switch e.atom {
	case atom.P:
		s.openP--
	case atom.A:
		s.openA--
	case atom.Nobr:
		s.openBr--
	}
	c := scanClosed{atom: e.atom, name: e.name, start: e.start, end: len(s.text), media: e.media}
	parent := &s.stack[len(s.stack)-1]
	if len(s.stack) > 1 && parent.hasLast { // the top level's runs are not sorted
		prev := parent.last
		if prev.atom == c.atom && prev.name == c.name {
			if prev.media && c.media {
				return false
			}
			if prev.end > prev.start && string(s.text[prev.start:prev.end]) == string(s.text[c.start:c.end]) {
				return false
			}
		}
	}
	parent.last, parent.hasLast = c, true
	parent.media = parent.media || c.media
	return true
}

// tagName returns the lowercased tag name at the start of raw, a tag's
// bytes after its "<" or "</", as the tokenizer reads it (readTagName:
// up to a space, "/" or ">"), in a buffer reused for each tag: the
// tokenizer's TagName makes a copy of every name (replacing NUL bytes,
// which noRun refuses before).
func (s *runScan) tagName(raw []byte) []byte {
	s.name = s.name[:0]
	for _, c := range raw {
		switch c {
		case ' ', '\n', '\r', '\t', '\f', '/', '>':
			return s.name
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		s.name = append(s.name, c)
	}
	return s.name
}

// parserSpace is x/net/html's whitespace, the only text it keeps inside
// a table's structure.
const parserSpace = " \t\r\n\f"

// top returns the open element's tag (0 at the top level or for a custom
// element).
func (s *runScan) top() atom.Atom { return s.stack[len(s.stack)-1].atom }

// tableMode reports whether the parser reads a token after the open
// element top in a table's modes ("in table", "in table body", "in row",
// "in column group"): with every element closed by its own end tag, the
// mode follows the open element, these being opened only in their
// table's structure (startInTable).
func tableMode(top atom.Atom) bool {
	switch top {
	case atom.Table, atom.Tbody, atom.Thead, atom.Tfoot, atom.Tr, atom.Colgroup:
		return true
	}
	return false
}

// startInTable reads a start tag in a table's structure: only the next
// level of a well-formed table (a section or column group in a table, a
// row in a section, a cell in a row, a column in a column group) is the
// tags' nesting; the parser implies elements for the others, or moves them
// before the table (false). A cell's content is read as the body's
// (start): the parser's "in cell" mode reads it so but for the table tags
// start refuses, and with scope markers that only make start's refusals
// cautious.
func (s *runScan) startInTable(name []byte) bool {
	a := atom.Lookup(name)
	switch s.top() {
	case atom.Table:
		if a == atom.Tbody || a == atom.Thead || a == atom.Tfoot || a == atom.Colgroup {
			return s.push(a, name, false)
		}
	case atom.Tbody, atom.Thead, atom.Tfoot:
		if a == atom.Tr {
			return s.push(a, name, false)
		}
	case atom.Tr:
		if a == atom.Td || a == atom.Th {
			return s.push(a, name, false)
		}
	case atom.Colgroup:
		if a == atom.Col {
			return s.push(a, name, true)
		}
	}
	return false
}

// start reads a start tag: false where the parser's tree may not be the
// tags' nesting (noRun).
func (s *runScan) start(name []byte) bool {
	a := atom.Lookup(name)
	switch a {
	case atom.Html, atom.Body, atom.Frameset, atom.Head, atom.Form, atom.Button, atom.Plaintext, atom.Template,
		atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Td, atom.Tfoot, atom.Th, atom.Thead, atom.Tr,
		atom.Select, atom.Option, atom.Optgroup, atom.Rb, atom.Rtc, atom.Rp, atom.Rt,
		atom.Applet, atom.Marquee, atom.Object, atom.Math, atom.Svg, atom.Image, atom.Frame:
		return false
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Center, atom.Details, atom.Dialog, atom.Dir,
		atom.Div, atom.Dl, atom.Fieldset, atom.Figcaption, atom.Figure, atom.Footer, atom.Header, atom.Hgroup,
		atom.Main, atom.Menu, atom.Nav, atom.Ol, atom.P, atom.Search, atom.Section, atom.Summary, atom.Ul,
		atom.Pre, atom.Listing, atom.Xmp, atom.Table:
		if s.openP > 0 {
			return false
		}
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		if s.openP > 0 {
			return false
		}
		switch s.stack[len(s.stack)-1].atom {
		case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
			return false
		}
	case atom.Li:
		if s.openP > 0 || s.closesItem(atom.Li, 0) {
			return false
		}
	case atom.Dd, atom.Dt:
		if s.openP > 0 || s.closesItem(atom.Dd, atom.Dt) {
			return false
		}
	case atom.Hr:
		if s.openP > 0 {
			return false
		}
		return s.push(a, name, true)
	case atom.A:
		if s.openA > 0 {
			return false
		}
	case atom.Nobr:
		if s.openBr > 0 {
			return false
		}
	case atom.Area, atom.Br, atom.Embed, atom.Img, atom.Keygen, atom.Wbr, atom.Input, atom.Param, atom.Source,
		atom.Track, atom.Base, atom.Basefont, atom.Bgsound, atom.Link, atom.Meta:
		return s.push(a, name, true)
	}
	return s.push(a, name, false)
}

// closesItem reports whether a start tag of a list item (li, or dd and
// dt) may close an open one: walking down the open elements as the
// parser does, an item of x or y before an element that stops the
// parser's walk. Only elements special to the parser stop this one, and
// not all of them: it may say yes where the parser would not close.
func (s *runScan) closesItem(x, y atom.Atom) bool {
	for i := len(s.stack) - 1; i >= 1; i-- {
		switch a := s.stack[i].atom; a {
		case x:
			return true
		case atom.Li, atom.Dd, atom.Dt:
			if y != 0 && a == y {
				return true
			}
			return false // an item of the other kind: special
		case atom.Ul, atom.Ol, atom.Menu, atom.Dir, atom.Dl, atom.Blockquote, atom.Section, atom.Article,
			atom.Aside, atom.Nav, atom.Header, atom.Footer, atom.Main, atom.Figure, atom.Figcaption,
			atom.Details, atom.Summary, atom.Center, atom.Fieldset, atom.Hgroup:
			return false
		}
	}
	return false // the top level: html, special
}
