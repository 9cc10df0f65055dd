package learn

import "golang.org/x/net/html/atom"

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
)

// tagFlagMap holds the flags of the names that have some.
var tagFlagMap = func() map[string]uint16 {
	m := map[string]uint16{}
	for _, set := range []struct {
		names map[string]bool
		flag  uint16
	}{{voidTags, fVoid}, {hiddenText, fHidden}, {closesP, fClosesP}, {special, fSpecial}, {formatting, fFormatting},
		{headTags, fHead}, {tableParts, fTablePart}, {unfollowed, fUnfollowed}, {scopeStop, fScopeStop}} {
		for n, ok := range set.names {
			if ok {
				m[n] |= set.flag
			}
		}
	}
	return m
}()

// atomFlags holds tagFlagMap by atom, which is quicker to look up.
var atomFlags = func() map[atom.Atom]uint16 {
	m := map[atom.Atom]uint16{}
	for n, f := range tagFlagMap {
		if a := atom.Lookup([]byte(n)); a != 0 {
			m[a] = f
		}
	}
	return m
}()

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
