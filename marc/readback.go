package marc

import "strings"

// readers are the crosswalk tables turned round (readerOf), by record
// type (980 $a).
var readers = map[string]reader{
	TypeBlog:     readerOf(blogTable),
	TypeBlogPost: readerOf(entryTable),
	TypeComment:  readerOf(commentTable),
}

// Attributes reads the crosswalk back: it returns the values of r by
// attribute name of DESIGN §6 ("title", "full_content_format",
// "is_child_of_post" …, and an entry's kind, 980 $b), in record order, from the places the tables of
// the crosswalk write them. The 520 full_content fields a long article is
// split over give one value, joined. A linking field gives its $o, a
// devised title in square brackets is left out, and fields and subfields
// that hold no attribute (980 among them) are ignored. It returns nil when
// r has no 980 $a naming a record type of this package.
func Attributes(r *Record) map[string][]string {
	var kind string
	if f := r.Fields("980"); len(f) > 0 {
		kind = f[0].Value('a')
	}
	rd, ok := readers[kind]
	if !ok {
		return nil
	}
	return rd.read(r)
}

// HasAttribute reports whether the crosswalk of records of recordType
// (980 $a: TypeBlog, TypeBlogPost, TypeComment) writes attribute attr,
// which Attributes then reads back.
func HasAttribute(recordType, attr string) bool {
	for _, a := range readers[recordType].attrs {
		if a == attr {
			return true
		}
	}
	return false
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
