package marc

import (
	"net/url"
	"strings"

	"github.com/blogharvest/blogharvest"
)

// AliasesTag is the local field that holds a record's aliases ($g, one per
// alias) when the record has no author for a 100 to carry them.
const AliasesTag = "957"

// The rows below are the shapes the tables of crosswalk.go share.

// every returns the fields every record of type rtype carries besides its
// attributes: 040 with the cataloguing organisation's MARC code in $a and
// $c and the language of cataloguing (of the devised titles) in $b, when
// the code is known; what a catalogue indexes about a resource read online
// as an HTML text: the publication date (264 _1 $c, when known), the RDA
// content, media and carrier types (336 text, 337 computer, 338 online
// resource, with their codes and vocabularies) and the file
// characteristics (347 text file, HTML); 856 40 $u the record's own URI;
// 980 $a the record type and $b the attribute kind (nil: none).
func every[T any](rtype string, published func(*T, *ctx) string, uri, kind func(*T) string) []field[T] {
	org := func(_ *T, c *ctx) string { return c.o.OrgCode }
	typ := field[T]{tag: "980", ind1: ' ', ind2: ' ', subs: []sub[T]{lit[T]('a', rtype)}}
	if kind != nil {
		typ.subs = append(typ.subs, one('b', "kind", func(x *T, _ *ctx) string { return kind(x) }))
	}
	return []field[T]{
		{tag: "040", ind1: ' ', ind2: ' ', when: func(_ *T, c *ctx) bool { return c.o.OrgCode != "" },
			subs: []sub[T]{one('a', "", org), lit[T]('b', "eng"), one('c', "", org)}},
		{tag: "264", ind1: ' ', ind2: '1', subs: []sub[T]{one('c', "", published)}},
		described[T]("336", "text", "txt", "rdacontent"),
		described[T]("337", "computer", "c", "rdamedia"),
		described[T]("338", "online resource", "cr", "rdacarrier"),
		described[T]("347", "text file", "HTML", "rdaft"),
		{tag: "856", ind1: '4', ind2: '0', subs: []sub[T]{one('u', "", func(x *T, _ *ctx) string { return uri(x) })}},
		typ,
	}
}

// described is a field of constants: $a term, $b code, $2 vocabulary.
func described[T any](tag, term, code, source string) field[T] {
	return field[T]{tag: tag, ind1: ' ', ind2: ' ', subs: []sub[T]{lit[T]('a', term), lit[T]('b', code), lit[T]('2', source)}}
}

// author is the one 100 of a record with an author: the author in $a
// followed by the aliases in $g (aliases nil: none), first indicator
// nameInd.
func author[T any](name func(*T) string, aliases func(*T) []string) field[T] {
	f := field[T]{tag: "100", ind: func(x *T, _ *ctx) (byte, byte) { return nameInd(name(x)), ' ' },
		when: func(x *T, _ *ctx) bool { return name(x) != "" },
		subs: []sub[T]{one('a', "author", func(x *T, _ *ctx) string { return name(x) })}}
	if aliases != nil {
		f.subs = append(f.subs, sub[T]{code: 'g', attr: "aliases", get: func(x *T, _ *ctx) []string { return aliases(x) }})
	}
	return f
}

// aliases holds the aliases of a record without an author (a 100 is a
// name) in AliasesTag, one $g each.
func aliases[T any](name func(*T) string, list func(*T) []string) field[T] {
	return field[T]{tag: AliasesTag, ind1: ' ', ind2: ' ', when: func(x *T, _ *ctx) bool { return name(x) == "" },
		subs: []sub[T]{{code: 'g', attr: "aliases", get: func(x *T, _ *ctx) []string { return list(x) }}}}
}

// nameInd is 100's first indicator: 1 (surname first) for an inverted
// name such as "Doe, Jane", else 0 (forename or direct order: "Jane Doe",
// a nickname).
func nameInd(name string) byte {
	if strings.Contains(name, ",") {
		return '1'
	}
	return '0'
}

// geo is 342 with $g longitude and $h latitude, when the point is known.
func geo[T any](point func(*T) *blogharvest.Geo) field[T] {
	return field[T]{tag: "342", ind1: '0', ind2: '0', when: func(x *T, _ *ctx) bool { return point(x) != nil },
		subs: []sub[T]{
			one('g', "geo_longitude", func(x *T, _ *ctx) string { return coord(point(x).Longitude) }),
			one('h', "geo_latitude", func(x *T, _ *ctx) string { return coord(point(x).Latitude) })}}
}

// content is full_content with its format: 520 $3 full_content, split
// over as many fields as it needs (builder.content).
func content[T any](get func(*T) (text, format string)) field[T] {
	return field[T]{tag: "520", ind1: ' ', ind2: ' ', label: "full_content", split: true, subs: []sub[T]{
		one('a', "full_content", func(x *T, _ *ctx) string { text, _ := get(x); return text }),
		one('b', "full_content_format", func(x *T, _ *ctx) string { _, format := get(x); return format })}}
}

// terms is one 653 per term, first indicator level (1 primary: the blog's
// categories; 2 secondary: its tags), which tells them apart.
func terms[T any](level byte, attr string, list func(*T) []string) field[T] {
	return field[T]{tag: "653", ind1: level, ind2: ' ', each: true, byInd: true,
		subs: []sub[T]{{code: 'a', attr: attr, get: func(x *T, _ *ctx) []string { return list(x) }}}}
}

// link is a linking entry field (760, 773) labelled label: $t the
// parent's title (when given), $o the parent's URI (attribute attr), $4
// the relationship rel and $w the parent record's 001, written when the
// URI or the 001 is known.
func link[T any](tag, label, attr, rel string, parent func(*T, *ctx) (uri, id, title string)) field[T] {
	return field[T]{tag: tag, ind1: '0', ind2: ' ', label: label,
		when: func(x *T, c *ctx) bool { uri, id, _ := parent(x, c); return uri != "" || id != "" },
		subs: []sub[T]{
			one('t', "", func(x *T, c *ctx) string { _, _, title := parent(x, c); return title }),
			one('o', attr, func(x *T, c *ctx) string { uri, _, _ := parent(x, c); return uri }),
			lit[T]('4', rel),
			one('w', "", func(x *T, c *ctx) string { _, id, _ := parent(x, c); return id })}}
}

// isURI reports whether id is an absolute URI.
func isURI(id string) bool {
	u, err := url.Parse(id)
	return err == nil && u.Scheme != "" && u.Opaque+u.Host+u.Path != ""
}

// identifierInd is 024's first indicator: 7 (source in $2) for an
// absolute URI, else 8 (unspecified type).
func identifierInd(id string) byte {
	if isURI(id) {
		return '7'
	}
	return '8'
}

// identifierSource is 024 $2: uri for an absolute URI, else none.
func identifierSource(id string) string {
	if isURI(id) {
		return "uri"
	}
	return ""
}

// contentOverhead is the ISO 2709 length of what a 520 full_content field holds besides its $a:
// the indicators, the $3 label, the delimiters and codes of $a and $b and
// the field terminator; the format's own length comes on top.
const contentOverhead = len("$3full_content$a$b") + 2 + 1

// content adds full_content as one or more fields tag labelled label,
// each under ISO 2709's field limit: the value (line breaks normalised by
// htmlOneLine for HTML, oneLine otherwise, blanks at either end trimmed)
// split by chunks in order, $b the format in the first field only.
func (b *builder) content(tag, label, content, format string) {
	if content == "" {
		return
	}
	if format == "" || strings.HasPrefix(strings.ToLower(format), "text/html") {
		content = htmlOneLine(content)
	}
	content = strings.TrimSpace(oneLine(content))
	for i, part := range chunks(content, MaxFieldBytes-contentOverhead-len(format)) {
		f := format
		if i > 0 {
			f = ""
		}
		b.add(tag, ' ', ' ', label, sf('a', part), sf('b', f))
	}
}

// languageSource is 041 $2 for a language tag: the code source of BCP 47
// tags, or "" when there is no tag.
func languageSource(tag string) string {
	if tag == "" {
		return ""
	}
	return "rfc5646"
}
