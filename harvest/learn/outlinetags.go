package learn

import (
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// This file holds the tables of element names the outline (outline.go)
// follows the HTML standard's tree construction with.

// Flags of element names, for the outline's rules.
const (
	fVoid uint16 = 1 << iota
	fHidden
	fClosesP
	fSpecial
	fFormatting
	fHead
	fTablePart
	fUnfollowed
	fScopeStop
	fBlock // not for the outline: blockTags, for writeText
)

// tagFlagMap holds the flags of the names that have some.
var tagFlagMap = func() map[string]uint16 {
	m := map[string]uint16{}
	for _, set := range []struct {
		names map[string]bool
		flag  uint16
	}{{voidTags, fVoid}, {hiddenText, fHidden}, {closesP, fClosesP}, {special, fSpecial}, {formatting, fFormatting},
		{headTags, fHead}, {tableParts, fTablePart}, {unfollowed, fUnfollowed}, {scopeStop, fScopeStop}, {blockTags, fBlock}} {
		for n, ok := range set.names {
			if ok {
				m[n] |= set.flag
			}
		}
	}
	return m
}()

// atomFlag is the flags of one atom in atomFlagTab.
type atomFlag struct {
	a    atom.Atom
	f    uint16
	more bool // other atoms at this offset have flags: look in atomFlagMore
}

// atomFlagTab holds tagFlagMap by atom, indexed by the atom's offset in
// the atom table, which is quicker to look up than a map; atoms that share
// an offset with another one are in atomFlagMore.
var atomFlagTab, atomFlagMore = func() ([]atomFlag, map[atom.Atom]uint16) {
	var tab []atomFlag
	more := map[atom.Atom]uint16{}
	for n, f := range tagFlagMap {
		a := atom.Lookup([]byte(n))
		if a == 0 {
			continue
		}
		i := int(a >> 8)
		for len(tab) <= i {
			tab = append(tab, atomFlag{})
		}
		if tab[i].a == 0 {
			tab[i].a, tab[i].f = a, f
			continue
		}
		more[a] = f
		tab[i].more = true
	}
	return tab, more
}()

// atomFlags returns the flags of the name of atom a.
func atomFlags(a atom.Atom) uint16 {
	i := int(a >> 8)
	if i >= len(atomFlagTab) {
		return 0
	}
	switch e := &atomFlagTab[i]; {
	case e.a == a:
		return e.f
	case e.more:
		return atomFlagMore[a]
	}
	return 0
}

// breakout are the HTML elements that end foreign content.
var breakout = map[string]bool{
	"b": true, "big": true, "blockquote": true, "body": true, "br": true, "center": true, "code": true, "dd": true, "div": true,
	"dl": true, "dt": true, "em": true, "embed": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"head": true, "hr": true, "i": true, "img": true, "li": true, "listing": true, "menu": true, "meta": true, "nobr": true,
	"ol": true, "p": true, "pre": true, "ruby": true, "s": true, "small": true, "span": true, "strong": true, "strike": true,
	"sub": true, "sup": true, "table": true, "tt": true, "u": true, "ul": true, "var": true, "font": true,
	"script": true, "style": true,
}

// closesP are the start tags that close an open p element.
var closesP = map[string]bool{
	"address": true, "article": true, "aside": true, "blockquote": true, "center": true, "details": true, "dialog": true,
	"dir": true, "div": true, "dl": true, "fieldset": true, "figcaption": true, "figure": true, "footer": true, "header": true,
	"hgroup": true, "main": true, "menu": true, "nav": true, "ol": true, "p": true, "search": true, "section": true,
	"summary": true, "ul": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "pre": true,
	"listing": true, "form": true, "table": true, "hr": true, "xmp": true, "dd": true, "dt": true, "li": true, "plaintext": true,
}

// unfollowed are start tags whose handling by the parser the outline does
// not follow.
var unfollowed = map[string]bool{
	"nobr": true, "image": true, "isindex": true, "frameset": true, "frame": true, "caption": true, "colgroup": true,
	"col": true, "template": true, "rb": true, "rp": true, "rt": true, "rtc": true, "keygen": true, "math": true,
}

// tableParts are the elements of a table's structure.
var tableParts = map[string]bool{"table": true, "tbody": true, "thead": true, "tfoot": true, "tr": true}

// scopeStop are the elements that bound the default scopes.
var scopeStop = map[string]bool{"table": true, "td": true, "th": true, "html": true, "svg": true, "math": true,
	"applet": true, "marquee": true, "object": true, "caption": true, "template": true}

// impliedEnd are the elements whose end tag the parser implies.
var impliedEnd = map[string]bool{"p": true, "li": true, "dd": true, "dt": true, "option": true, "optgroup": true, "rb": true, "rp": true, "rt": true, "rtc": true}

// special are the elements the HTML standard calls special, as far as
// the outline follows them.
var special = map[string]bool{
	"address": true, "applet": true, "area": true, "article": true, "aside": true, "base": true, "basefont": true, "bgsound": true,
	"blockquote": true, "body": true, "br": true, "button": true, "caption": true, "center": true, "col": true, "colgroup": true,
	"dd": true, "details": true, "dir": true, "div": true, "dl": true, "dt": true, "embed": true, "fieldset": true,
	"figcaption": true, "figure": true, "footer": true, "form": true, "frame": true, "frameset": true, "h1": true, "h2": true,
	"h3": true, "h4": true, "h5": true, "h6": true, "head": true, "header": true, "hgroup": true, "hr": true, "html": true,
	"iframe": true, "img": true, "input": true, "keygen": true, "li": true, "link": true, "listing": true, "main": true,
	"marquee": true, "menu": true, "meta": true, "nav": true, "noembed": true, "noframes": true, "noscript": true,
	"object": true, "ol": true, "p": true, "param": true, "plaintext": true, "pre": true, "script": true, "search": true,
	"section": true, "select": true, "source": true, "style": true, "summary": true, "table": true, "tbody": true, "td": true,
	"template": true, "textarea": true, "tfoot": true, "th": true, "thead": true, "title": true, "tr": true, "track": true,
	"ul": true, "wbr": true, "xmp": true,
}

// formatting are the formatting elements of the HTML standard.
var formatting = map[string]bool{"a": true, "b": true, "big": true, "code": true, "em": true, "font": true, "i": true,
	"nobr": true, "s": true, "small": true, "strike": true, "strong": true, "tt": true, "u": true}

// headTags are the elements that may stand in a page's head.
var headTags = map[string]bool{"meta": true, "link": true, "title": true, "script": true, "style": true, "noscript": true,
	"base": true, "basefont": true, "bgsound": true, "template": true, "noframes": true}

// hiddenText are the elements whose content the tokenizer reads as text.
var hiddenText = func() map[string]bool {
	m := map[string]bool{}
	for _, t := range hiddenTextTags {
		m[t] = true
	}
	return m
}()

// commonTags are names looked up through atomCache rather than
// atom.Lookup: the elements most pages are made of.
var commonTags = []string{
	"a", "abbr", "article", "aside", "b", "blockquote", "body", "br", "button", "caption", "cite", "code", "dd", "div", "dl", "dt",
	"em", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr", "html", "i",
	"iframe", "img", "input", "label", "li", "link", "main", "meta", "nav", "noscript", "ol", "option", "p", "path", "pre",
	"script", "section", "select", "small", "source", "span", "strong", "style", "sub", "sup", "svg", "table", "tbody", "td",
	"textarea", "th", "thead", "time", "title", "tr", "u", "ul", "video",
}

// atomCacheEntry is one name of atomCache: its bytes packed in a word.
type atomCacheEntry struct {
	key   uint64
	a     atom.Atom
	name  string // a's name
	flags uint16 // atomFlags(a)
}

// atomCache is an open-addressed table of the atoms of commonTags, keyed
// by their names (at most 7 bytes) packed into a word.
var atomCache = func() *[256]atomCacheEntry {
	var t [256]atomCacheEntry
	for _, n := range commonTags {
		k, ok := packName([]byte(n))
		if !ok || atom.Lookup([]byte(n)) == 0 {
			continue
		}
		for h := atomSlot(k); ; h = (h + 1) & 255 {
			if t[h].key == 0 {
				a := atom.Lookup([]byte(n))
				t[h] = atomCacheEntry{key: k, a: a, name: a.String(), flags: tagFlagMap[n]}
				break
			}
		}
	}
	return &t
}()

// packName packs a name of 1 to 7 bytes into a word: its length in the
// top byte, its bytes below; false for other lengths.
func packName(b []byte) (uint64, bool) {
	if len(b) == 0 || len(b) > 7 {
		return 0, false
	}
	var k uint64
	for i := len(b) - 1; i >= 0; i-- {
		k = k<<8 | uint64(b[i])
	}
	return k | uint64(len(b))<<56, true
}

// atomSlot is the first slot of key k in atomCache.
func atomSlot(k uint64) int { return int((k * 0x9E3779B97F4A7C15) >> 56) }

// lookupAtom is atom.Lookup, quicker for the names of commonTags.
func lookupAtom(b []byte) atom.Atom {
	if e, ok := cachedAtom(b); ok {
		return e.a
	}
	return atom.Lookup(b)
}

// cachedAtom returns the entry of name b in atomCache, when it has one.
func cachedAtom(b []byte) (*atomCacheEntry, bool) {
	if k, ok := packName(b); ok {
		return atomByKey(k)
	}
	return nil, false
}

// atomByKey returns the entry of atomCache whose name packs to k, when it
// has one.
func atomByKey(k uint64) (*atomCacheEntry, bool) {
	for h := atomSlot(k); atomCache[h].key != 0; h = (h + 1) & 255 {
		if atomCache[h].key == k {
			return &atomCache[h], true
		}
	}
	return nil, false
}

// isBlock reports whether element n is one of blockTags, through its atom
// when it has the one of its name.
func isBlock(n *html.Node) bool {
	if a := n.DataAtom; a != 0 && n.Data == a.String() {
		return atomFlags(a)&fBlock != 0
	}
	return blockTags[n.Data]
}
