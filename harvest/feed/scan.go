package feed

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Namespaces read by the scanner.
const (
	nsAtom       = "http://www.w3.org/2005/Atom"
	nsThread     = "http://purl.org/syndication/thread/1.0"
	nsWfw        = "http://wellformedweb.org/CommentAPI/"
	nsSlash      = "http://purl.org/rss/1.0/modules/slash/"
	nsFeedBurner = "http://rssnamespace.org/feedburner/ext/1.0"
	nsSy         = "http://purl.org/rss/1.0/modules/syndication/"
	nsCCRSS      = "http://backend.userland.com/creativeCommonsRssModule"
	nsDC         = "http://purl.org/dc/elements/1.1/"
)

// maxDepth bounds element nesting; deeper documents are hostile.
const maxDepth = 256

// link is an Atom link element (in Atom or as atom:link in RSS).
type link struct {
	Rel, Href, Type string
	Count           int // thr:count; -1 when absent
}

// scannedItem is what gofeed does not keep of an item.
type scannedItem struct {
	xml                   itemXML // the item's element and the declarations its document adds
	links                 []link
	inReplyTo, replyHref  string // thr:in-reply-to ref and href
	commentRss, comments  string
	commentCount          int    // slash:comments or thr:total; -1 when absent
	origLink              string // feedburner:origLink: the post's own URL behind a FeedBurner redirect
	authorURI             string
	relatedCommentFeedRef string // Blogger: rel="related" link to the parent comment
	// description and encoded are the offsets of the content of the
	// item's RSS description and content:encoded elements, as in
	// scanned.bodies; zero when absent or empty. Read only when
	// scanned.plainRSS.
	description, encoded [2]int
}

// scanned is what gofeed does not keep of a feed.
type scanned struct {
	root                      string // local name of the root element
	links                     []link
	items                     []scannedItem
	totalResults              int
	genValue, genURI, genVer  string
	updatePeriod, updateFreq  string
	ttl, license, dcRights    string
	managingEditor, webMaster string
	// bodies are the offsets of the content of each item's body elements
	// (isBody), from the end of the start tag to the start of the end
	// tag, in document order.
	bodies [][2]int
	// plainRSS reports that the document is an RSS 2.0 one whose items
	// gofeed's RSS parser reads as the scanner does: one un-namespaced
	// channel under an un-namespaced rss root holding every item (each
	// an un-namespaced <item>), and in each item at most one
	// un-namespaced description and one content:encoded, the only
	// children gofeed takes for the item's Description and Content and
	// the only body elements (isBody) of the item; no namespace
	// declared as empty. parse then has gofeed read the document without
	// the bodies and fills them in itself (bodycut.go).
	plainRSS bool
}

// scanner walks an XML feed once with encoding/xml, which never expands
// DTD entities (so entity bombs stay inert).
type scanner struct {
	d         *xml.Decoder
	body      []byte
	out       *scanned
	stack     []xml.Name
	item      *scannedItem
	itemStart int64
	itemDepth int
	scopes    [][]xml.Attr // namespace declarations of the open elements above any item, by depth
	itemNS    []xml.Attr   // those in scope at the current item's start, its own excluded
	bodyStart int          // where the content of the item's open body element starts; -1 when none is open
	// sawDescription and sawEncoded say whether the current item has had
	// its description or its content:encoded (for scanned.plainRSS).
	sawDescription, sawEncoded bool
	channels                   int // elements under the root named channel in any case (for scanned.plainRSS)
}

// scan reads the UTF-8 XML document body.
func scan(body []byte) (*scanned, error) {
	d := xml.NewDecoder(bytes.NewReader(body))
	d.Strict = false
	d.Entity = xml.HTMLEntity
	d.CharsetReader = passThrough
	s := &scanner{d: d, body: body, out: &scanned{plainRSS: true}, bodyStart: -1}
	for {
		off := d.InputOffset()
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return s.out, s.finish()
		}
		if err != nil {
			return nil, err
		}
		if err := s.token(tok, off); err != nil {
			return nil, err
		}
	}
}

// finish checks the document ended where it should.
func (s *scanner) finish() error {
	if len(s.stack) > 0 {
		return fmt.Errorf("unexpected end of document inside <%s>", s.stack[len(s.stack)-1].Local)
	}
	return nil
}

func (s *scanner) token(tok xml.Token, off int64) error {
	switch t := tok.(type) {
	case xml.StartElement:
		if len(s.stack) >= maxDepth {
			return fmt.Errorf("elements nested deeper than %d", maxDepth)
		}
		if s.out.root == "" {
			s.out.root = t.Name.Local
		}
		return s.start(t, off)
	case xml.EndElement:
		s.end(off)
	}
	return nil
}

// start handles an opening tag; text-valued elements are consumed whole.
func (s *scanner) start(t xml.StartElement, off int64) error {
	depth := len(s.stack)
	if s.out.plainRSS {
		s.out.plainRSS = s.plain(t, depth)
	}
	if s.item == nil && depth <= 2 && (t.Name.Local == "item" || t.Name.Local == "entry") {
		s.item, s.itemStart, s.itemDepth = &scannedItem{commentCount: -1}, off, depth
		s.sawDescription, s.sawEncoded = false, false
		s.itemNS = inScope(s.scopes[:min(depth, len(s.scopes))], t.Attr)
	} else if s.item == nil {
		s.scopes = append(s.scopes[:min(depth, len(s.scopes))], nsDecls(t.Attr))
	}
	consumed, err := s.element(t)
	if !consumed {
		if s.item != nil && depth == s.itemDepth+1 && isBody(t.Name) {
			s.bodyStart = int(s.d.InputOffset())
		}
		s.stack = append(s.stack, t.Name)
	}
	return err
}

// plain reports whether the start tag t, depth elements deep, keeps the
// document what scanned.plainRSS says, given that it was so far. It runs
// before the item t may open is set up: s.item is the item t is in.
func (s *scanner) plain(t xml.StartElement, depth int) bool {
	for _, a := range t.Attr {
		if (a.Name.Space == "xmlns" || a.Name.Space == "" && a.Name.Local == "xmlns") && strings.TrimSpace(a.Value) == "" {
			return false // gofeed's parser would take un-namespaced elements for an extension's
		}
	}
	n := t.Name
	lower := strings.ToLower(n.Local)
	switch {
	case depth == 0:
		return n.Local == "rss" && n.Space == ""
	case depth == 1:
		switch lower {
		case "item", "entry":
			return false
		case "channel":
			s.channels++
			return s.channels == 1 && n.Local == "channel" && n.Space == ""
		}
	case depth == 2 && s.item == nil:
		if lower == "item" || lower == "entry" {
			return n.Local == "item" && n.Space == "" && s.stack[1].Local == "channel" && s.stack[1].Space == ""
		}
	case s.item != nil && depth == s.itemDepth+1:
		if !isBody(n) && lower != "description" && lower != "encoded" {
			return true
		}
		switch {
		case n.Local == "description" && n.Space == "" && !s.sawDescription:
			s.sawDescription = true
			return true
		case n.Local == "encoded" && n.Space == nsRSSContent && !s.sawEncoded:
			s.sawEncoded = true
			return true
		}
		return false
	}
	return true
}

// nsRSSContent is the namespace of RSS's content:encoded.
const nsRSSContent = "http://purl.org/rss/1.0/modules/content/"

// isBody reports whether an item's child element named n holds the item's
// text: RSS description and content:encoded, Atom content and summary.
func isBody(n xml.Name) bool {
	switch n.Local {
	case "description":
		return true
	case "encoded":
		return n.Space == nsRSSContent
	case "content", "summary":
		return n.Space == nsAtom
	}
	return false
}

// end handles a closing tag, which starts at off, closing the current
// item or its body element if it is the one.
func (s *scanner) end(off int64) {
	if len(s.stack) == 0 {
		return
	}
	closed := s.stack[len(s.stack)-1]
	s.stack = s.stack[:len(s.stack)-1]
	if s.item != nil && s.bodyStart >= 0 && len(s.stack) == s.itemDepth+1 {
		if int(off) > s.bodyStart {
			span := [2]int{s.bodyStart, int(off)}
			s.out.bodies = append(s.out.bodies, span)
			switch closed.Local {
			case "description":
				s.item.description = span
			case "encoded":
				s.item.encoded = span
			}
		}
		s.bodyStart = -1
	}
	if s.item != nil && len(s.stack) == s.itemDepth {
		end := int(s.d.InputOffset())
		s.item.xml = itemXML{src: s.body[s.itemStart:end:end], decls: s.itemNS}
		s.out.items = append(s.out.items, *s.item)
		s.item = nil
	}
}

// element records t if it is one the scanner wants; it reports whether it
// consumed the element through its end tag.
func (s *scanner) element(t xml.StartElement) (bool, error) {
	if s.item != nil && len(s.stack) > s.itemDepth {
		return s.itemElement(t)
	}
	if s.item == nil {
		return s.feedElement(t)
	}
	return false, nil
}

// itemElement records the extension elements of an item.
func (s *scanner) itemElement(t xml.StartElement) (bool, error) {
	it := s.item
	n := t.Name
	switch {
	case n.Local == "link" && n.Space == nsAtom:
		l := atomLink(t)
		it.links = append(it.links, l)
		if l.Rel == "related" && strings.Contains(l.Href, "/comments/default/") {
			it.relatedCommentFeedRef = l.Href
		}
	case n.Space == nsThread && n.Local == "in-reply-to":
		it.inReplyTo, it.replyHref = attr(t, "ref"), attr(t, "href")
	case n.Space == nsWfw && n.Local == "commentRss", n.Space == nsWfw && n.Local == "commentRSS":
		return s.text(&it.commentRss)
	case n.Space == nsSlash && n.Local == "comments", n.Space == nsThread && n.Local == "total":
		var v string
		ok, err := s.text(&v)
		if c, cerr := strconv.Atoi(strings.TrimSpace(v)); cerr == nil && c >= 0 {
			it.commentCount = c
		}
		return ok, err
	case n.Local == "comments" && n.Space == "":
		return s.text(&it.comments)
	case n.Local == "origLink" && n.Space == nsFeedBurner:
		return s.text(&it.origLink)
	case n.Local == "uri" && n.Space == nsAtom && s.parent() == "author" && len(s.stack) == s.itemDepth+2:
		return s.text(&it.authorURI)
	}
	return false, nil
}

// feedElement records the feed-level elements gofeed does not keep.
func (s *scanner) feedElement(t xml.StartElement) (bool, error) {
	o, n := s.out, t.Name
	switch {
	case n.Local == "link" && n.Space == nsAtom:
		o.links = append(o.links, atomLink(t))
	case n.Local == "totalResults" && strings.Contains(strings.ToLower(n.Space), "opensearch"):
		var v string
		ok, err := s.text(&v)
		o.totalResults, _ = strconv.Atoi(strings.TrimSpace(v))
		return ok, err
	case n.Local == "generator":
		o.genURI, o.genVer = firstNonEmpty(attr(t, "uri"), attr(t, "url")), attr(t, "version")
		return s.text(&o.genValue)
	case n.Space == nsSy && n.Local == "updatePeriod":
		return s.text(&o.updatePeriod)
	case n.Space == nsSy && n.Local == "updateFrequency":
		return s.text(&o.updateFreq)
	case n.Local == "license" && n.Space == nsCCRSS:
		return s.text(&o.license)
	case n.Local == "license" && attr(t, "resource") != "":
		o.license = attr(t, "resource")
	case n.Space == "" && n.Local == "ttl":
		return s.text(&o.ttl)
	case n.Space == nsDC && n.Local == "rights":
		return s.text(&o.dcRights)
	case n.Space == "" && n.Local == "managingEditor":
		return s.text(&o.managingEditor)
	case n.Space == "" && n.Local == "webMaster":
		return s.text(&o.webMaster)
	}
	return false, nil
}

// text reads the character data of the element just opened, through its
// end tag, into *dst (trimmed).
func (s *scanner) text(dst *string) (bool, error) {
	var b strings.Builder
	for depth := 1; depth > 0; {
		tok, err := s.d.Token()
		if err != nil {
			return true, err
		}
		switch t := tok.(type) {
		case xml.CharData:
			b.Write(t)
		case xml.StartElement:
			depth++
		case xml.EndElement:
			depth--
		}
	}
	*dst = strings.TrimSpace(b.String())
	return true, nil
}

func (s *scanner) parent() string {
	if len(s.stack) == 0 {
		return ""
	}
	return s.stack[len(s.stack)-1].Local
}

func atomLink(t xml.StartElement) link {
	l := link{Rel: attr(t, "rel"), Href: strings.TrimSpace(attr(t, "href")), Type: attr(t, "type"), Count: -1}
	if l.Rel == "" {
		l.Rel = "alternate"
	}
	if c, err := strconv.Atoi(attr(t, "count")); err == nil {
		l.Count = c
	}
	return l
}

// attr returns the value of t's attribute with local name local.
func attr(t xml.StartElement, local string) string {
	for _, a := range t.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}
