package marc

import (
	"strings"
	"sync"
)

// plain maps tag+code of the fields without $3 to their attribute, by
// record type (980 $a).
var plain = sync.OnceValue(func() map[string]map[string]string {
	return map[string]map[string]string{
		TypeBlog: {
			"041a": "language", "100g": "aliases", "957g": "aliases", "245a": "title", "245b": "subtitle",
			"270d": "location_city", "270b": "location_country", "532a": "encoding",
			"952a": "status_code", "955a": "webmaster", "956a": "hosting_ip",
		},
		TypeBlogPost: {
			"024a": "alt_identifier", "100a": "author", "100g": "aliases", "957g": "aliases", "245a": "title", "245b": "subtitle", "260m": "date_modified",
			"269c": "date_created", "342g": "geo_longitude", "342h": "geo_latitude", "506a": "access_restriction",
			"760o": "child_of", "950a": "version",
		},
		TypeComment: {
			"100a": "author", "245a": "subject", "342g": "geo_longitude", "342h": "geo_latitude",
			"789u": "addressed_to_uri", "952a": "status",
		},
	}
})

// Attributes reads the crosswalk back: it returns the values of r by
// attribute name of DESIGN §6 ("title", "full_content_format",
// "is_child_of_post" …), in record order. The 520 full_content fields a
// long article is split over give one value, joined. A linking field gives its $o,
// a devised title in square brackets is left out, and fields the crosswalk
// does not write (980 among them) are ignored. It returns nil when r has no
// 980 $a naming a record type of this package.
func Attributes(r *Record) map[string][]string {
	var kind string
	if f := r.Fields("980"); len(f) > 0 {
		kind = f[0].Value('a')
	}
	table, ok := plain()[kind]
	if !ok {
		return nil
	}
	out := make(map[string][]string)
	for _, f := range r.Data {
		label := f.Value('3')
		if label == "" && f.Tag == "653" {
			label = termLabel[f.Ind1]
		}
		for _, s := range f.Subfields {
			if attr := attribute(table, f.Tag, label, s.Code); attr != "" && !devised(attr, s.Value) {
				out[attr] = append(out[attr], s.Value)
			}
		}
	}
	if parts := out["full_content"]; len(parts) > 1 {
		out["full_content"] = []string{strings.Join(parts, "")}
	}
	return out
}

// termLabel names the attribute of a 653 without $3 by its first
// indicator (level of index term).
var termLabel = map[byte]string{'1': "categories", '2': "tags"}

// attribute names the attribute a subfield holds, or "" for none.
func attribute(table map[string]string, tag, label string, code byte) string {
	switch {
	case label == "":
		return table[tag+string(code)]
	case code == '3' || code == '4' || code == 'w' || code == 't':
		return "" // the label, relationship, parent's 001 and title of a linking field

	case label == "full_content" && code == 'b':
		return "full_content_format"
	}
	return label
}

// devised reports whether v is a title the crosswalk made up.
func devised(attr, v string) bool {
	if attr != "title" && attr != "subject" {
		return false
	}
	switch v {
	case "[Untitled blog]", "[Untitled post]", "[Untitled page]", "[Comment]":
		return true
	}
	return strings.HasPrefix(v, "[Comment by ") && strings.HasSuffix(v, "]")
}
