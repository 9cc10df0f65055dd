package marc

import (
	"net/url"
	"strings"
)

// AliasesTag is the local field that holds a record's aliases ($g, one per
// alias) when the record has no author for a 100 to carry them.
const AliasesTag = "957"

// cataloguing adds 040 with the cataloguing organisation's MARC code in
// $a and $c and the language of cataloguing (of the devised titles) in $b,
// when the code is known.
func (b *builder) cataloguing(o Options) {
	if o.OrgCode != "" {
		b.add("040", ' ', ' ', "", sf('a', o.OrgCode), sf('b', "eng"), sf('c', o.OrgCode))
	}
}

// describe adds what a catalogue indexes about every record of this
// package, a resource read online as an HTML text: the publication date
// (264 _1 $c, when known), the RDA content, media and carrier types
// (336 text, 337 computer, 338 online resource, with their codes and
// vocabularies) and the file characteristics (347 text file, HTML).
func (b *builder) describe(published string) {
	b.add("264", ' ', '1', "", sf('c', published))
	b.add("336", ' ', ' ', "", sf('a', "text"), sf('b', "txt"), sf('2', "rdacontent"))
	b.add("337", ' ', ' ', "", sf('a', "computer"), sf('b', "c"), sf('2', "rdamedia"))
	b.add("338", ' ', ' ', "", sf('a', "online resource"), sf('b', "cr"), sf('2', "rdacarrier"))
	b.add("347", ' ', ' ', "", sf('a', "text file"), sf('b', "HTML"), sf('2', "rdaft"))
}

// names adds the one 100 of a record: the author in $a followed by the
// aliases in $g. Without an author there is no 100 (a 100 is a name), and
// the aliases go to AliasesTag, one $g each.
func (b *builder) names(author string, aliases []string) {
	if author == "" {
		b.add(AliasesTag, ' ', ' ', "", subfields('g', aliases)...)
		return
	}
	b.add("100", nameInd(author), ' ', "", append([]Subfield{sf('a', author)}, subfields('g', aliases)...)...)
}

// subfields returns one subfield with code per value.
func subfields(code byte, vals []string) []Subfield {
	out := make([]Subfield, len(vals))
	for i, v := range vals {
		out[i] = sf(code, v)
	}
	return out
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

// title adds 245 with first indicator ind1, the non-filing characters of
// title in the MARC language lang as second, $a title and $b subtitle.
func (b *builder) title(ind1 byte, lang, title, subtitle string) {
	title = oneLine(title)
	b.add("245", ind1, nonFiling(title, lang), "", sf('a', title), sf('b', subtitle))
}

// identifier adds 024 with an alternative identifier: first indicator 7
// with $2 uri when it is an absolute URI, else 8 (unspecified type).
func (b *builder) identifier(id string) {
	if u, err := url.Parse(id); err == nil && u.Scheme != "" && u.Opaque+u.Host+u.Path != "" {
		b.add("024", '7', ' ', "", sf('a', id), sf('2', "uri"))
		return
	}
	b.add("024", '8', ' ', "", sf('a', id))
}

// contentOverhead is the ISO 2709 length of what a 520 full_content field holds besides its $a:
// the indicators, the $3 label, the delimiters and codes of $a and $b and
// the field terminator; the format's own length comes on top.
const contentOverhead = len("$3full_content$a$b") + 2 + 1

// content adds full_content as one or more 520 fields labelled
// full_content, each under ISO 2709's field limit: the value (line breaks
// normalised by htmlOneLine for HTML, oneLine otherwise, blanks at either
// end trimmed) split by chunks in order, $b the format in the first field
// only.
func (b *builder) content(content, format string) {
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
		b.add("520", ' ', ' ', "full_content", sf('a', part), sf('b', f))
	}
}

// terms adds one 653 per term, first indicator level (1 primary: the
// blog's categories; 2 secondary: its tags).
func (b *builder) terms(level byte, terms []string) {
	for _, t := range terms {
		b.add("653", level, ' ', "", sf('a', t))
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
