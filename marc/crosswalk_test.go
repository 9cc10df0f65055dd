package marc_test

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/marc"
)

// want is one row of DESIGN §6 as this package applies it: attribute attr
// lands in a field tag with indicators ind, whose $3 is label ("" for no
// $3), in subfield code with value. An attr in parentheses is no attribute
// of DESIGN §6 but a field MARC 21 wants (040, 041 $2, 024 $2, 856) or a
// catalogue indexes (264, 336, 337, 338, 347).
type want struct {
	attr  string
	tag   string
	ind   string
	label string
	code  byte
	value string
}

// describedWant are the rows every record carries: 040 from the configured
// organisation code and the 336/337/338/347 description of an online text.
var describedWant = []want{
	{"(cataloguing)", "040", "  ", "", 'a', "XxEL"},
	{"(cataloguing)", "040", "  ", "", 'b', "eng"},
	{"(cataloguing)", "040", "  ", "", 'c', "XxEL"},
	{"(described)", "336", "  ", "", 'a', "text"},
	{"(described)", "336", "  ", "", 'b', "txt"},
	{"(described)", "336", "  ", "", '2', "rdacontent"},
	{"(described)", "337", "  ", "", 'a', "computer"},
	{"(described)", "337", "  ", "", 'b', "c"},
	{"(described)", "337", "  ", "", '2', "rdamedia"},
	{"(described)", "338", "  ", "", 'a', "online resource"},
	{"(described)", "338", "  ", "", 'b', "cr"},
	{"(described)", "338", "  ", "", '2', "rdacarrier"},
	{"(described)", "347", "  ", "", 'a', "text file"},
	{"(described)", "347", "  ", "", 'b', "HTML"},
	{"(described)", "347", "  ", "", '2', "rdaft"},
}

var blogWant = append(slices.Clone(describedWant), []want{
	{"title", "245", "04", "", 'a', "The Olive Grove"},
	{"subtitle", "245", "04", "", 'b', "Notes from a small farm"},
	{"uri", "520", "  ", "uri", 'u', "https://olive.example/"},
	{"aliases", "957", "  ", "", 'g', "https://www.olive.example/"},
	{"aliases", "957", "  ", "", 'g', "http://olive.example/"},
	{"status_code", "952", "  ", "", 'a', "200"},
	{"language", "041", " 7", "", 'a', "el-GR"},
	{"(language source)", "041", " 7", "", '2', "rfc5646"},
	{"(permalink)", "856", "40", "", 'u', "https://olive.example/"},
	{"encoding", "532", "8 ", "", 'a', "UTF-8"},
	{"sitemap_uri", "520", "  ", "sitemap_uri", 'a', "https://olive.example/sitemap.xml"},
	{"platform", "781", "  ", "platform", 'a', "WordPress"},
	{"platform_version", "781", "  ", "platform_version", 'b', "6.4.2"},
	{"webmaster", "955", "  ", "", 'a', "webmaster@olive.example"},
	{"hosting_ip", "956", "  ", "", 'a', "192.0.2.17"},
	{"location_city", "270", "  ", "", 'd', "Kalamata"},
	{"location_country", "270", "  ", "", 'b', "GR"},
	{"last_activity_date", "954", "  ", "last_activity_date", 'a', "2024-03-04T18:05:00+03:00"},
	{"post_frequency", "954", "  ", "post_frequency", 'b', "2.5 posts/week"},
	{"update_frequency", "954", "  ", "update_frequency", 'c', "hourly/1"},
	{"copyright", "542", "  ", "copyright", 'a', "© 2024 Eleni P."},
	{"ownership_rights", "542", "  ", "ownership_rights", 'a', "Eleni P."},
	{"distribution_rights", "542", "  ", "distribution_rights", 'a', "Non-commercial redistribution permitted"},
	{"access_rights", "542", "  ", "access_rights", 'a', "Public"},
	{"license", "542", "  ", "license", 'f', "https://creativecommons.org/licenses/by-nc/4.0/"},
	{"record type", "980", "  ", "", 'a', "BLOG"},
}...)

var entryWant = append(slices.Clone(describedWant), []want{
	{"title", "245", "10", "", 'a', "Harvest time"},
	{"subtitle", "245", "10", "", 'b', "Picking & pressing <by hand>"},
	{"full_content", "520", "  ", "full_content", 'a', "<p>The first olives came in on Monday.</p>"},
	{"full_content_format", "520", "  ", "full_content", 'b', "text/html"},
	{"author", "100", "0 ", "", 'a', "Eleni P."},
	{"uri", "520", "  ", "uri", 'u', "https://olive.example/2013/08/harvest-time/"},
	{"(permalink)", "856", "40", "", 'u', "https://olive.example/2013/08/harvest-time/"},
	{"aliases", "100", "0 ", "", 'g', "https://olive.example/?p=42"},
	{"alt_identifier", "024", "7 ", "", 'a', "https://olive.example/?p=42"},
	{"(identifier source)", "024", "7 ", "", '2', "uri"},
	{"date_created", "269", "  ", "", 'c', "2013-08-28T10:44:08Z"},
	{"(publication date)", "264", " 1", "", 'c', "2013-08-28T10:44:08Z"},
	{"date_modified", "260", "  ", "", 'm', "2013-08-29T07:00:00+03:00"},
	{"version", "950", "  ", "", 'a', "rev-3"},
	{"status_code", "952", "  ", "status_code", 'a', "200"},
	{"response_code", "952", "  ", "response_code", 'b', "200 OK"},
	{"geo_longitude", "342", "00", "", 'g', "22.1142"},
	{"geo_latitude", "342", "00", "", 'h', "37.0389"},
	{"access_restriction", "506", "1 ", "", 'a', "password protected"},
	{"has_reply", "788", "  ", "has_reply", 'a', "true"},
	{"last_reply_date", "788", "  ", "last_reply_date", 'c', "2013-08-30T12:00:00Z"},
	{"num_of_replies", "788", "  ", "num_of_replies", 'b', "2"},
	{"child_of", "760", "0 ", "", 'o', "https://olive.example/"},
	{"child_of", "760", "0 ", "", '4', "http://rdfs.org/sioc/ns#has_container"},
	{"child_of", "760", "0 ", "", 'w', "parent-record"},
	{"categories", "653", "1 ", "", 'a', "Farm"},
	{"categories", "653", "1 ", "", 'a', "Harvest"},
	{"tags", "653", "2 ", "", 'a', "olives"},
	{"record type", "980", "  ", "", 'a', "BLOGPOST"},
	{"kind", "980", "  ", "", 'b', "post"},
}...)

var commentWant = append(slices.Clone(describedWant), []want{
	{"subject", "245", "10", "", 'a', "Lovely"},
	{"author", "100", "0 ", "", 'a', "Nikos"},
	{"(permalink)", "856", "40", "", 'u', "https://olive.example/2013/08/harvest-time/#comment-7"},
	{"full_content", "520", "  ", "full_content", 'a', "<p>What a crop!</p>"},
	{"full_content_format", "520", "  ", "full_content", 'b', "text/html"},
	{"uri", "520", "  ", "uri", 'u', "https://olive.example/2013/08/harvest-time/#comment-7"},
	{"status", "952", "  ", "", 'a', "approved"},
	{"date_added", "269", "  ", "date_added", 'c', "2013-08-28T12:01:02Z"},
	{"(publication date)", "264", " 1", "", 'c', "2013-08-28T12:01:02Z"},
	{"(post's title)", "773", "0 ", "is_child_of_post", 't', "Harvest time"},
	{"date_modified", "269", "  ", "date_modified", 'm', "2013-08-28T13:00:00+03:00"},
	{"addressed_to_uri", "789", "  ", "", 'u', "https://olive.example/2013/08/harvest-time/#comment-5"},
	{"geo_longitude", "342", "00", "", 'g', "151.25"},
	{"geo_latitude", "342", "00", "", 'h', "-33.5"},
	{"has_reply", "788", "  ", "has_reply", 'a', "true"},
	{"num_replies", "788", "  ", "num_replies", 'b', "1"},
	{"is_child_of_post", "773", "0 ", "is_child_of_post", 'o', "https://olive.example/2013/08/harvest-time/"},
	{"is_child_of_post", "773", "0 ", "is_child_of_post", '4', "http://rdfs.org/sioc/ns#reply_of"},
	{"is_child_of_post", "773", "0 ", "is_child_of_post", 'w', "parent-record"},
	{"is_child_of_comment", "773", "0 ", "is_child_of_comment", 'o', "https://olive.example/2013/08/harvest-time/#comment-5"},
	{"is_child_of_comment", "773", "0 ", "is_child_of_comment", '4', "http://rdfs.org/sioc/ns#reply_of"},
	{"is_child_of_comment", "773", "0 ", "is_child_of_comment", 'w', "parent-comment-record"},
	{"record type", "980", "  ", "", 'a', "COMMENT"},
}...)

// TestCrosswalk checks that every attribute lands in its tag, indicators,
// $3 and subfield, that nothing else is written, and that the record
// survives MARCXML and back.
func TestCrosswalk(t *testing.T) {
	cases := []struct {
		name string
		rec  *marc.Record
		want []want
	}{
		{"blog", marc.FromBlog(fullBlog(), fullOptions("b")), blogWant},
		{"entry", marc.FromEntry(fullEntry(), fullOptions("e")), entryWant},
		{"comment", marc.FromComment(fullComment(), fullEntry(), fullOptions("c")), commentWant},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := flatten(c.rec)
			for _, w := range c.want {
				key := fmt.Sprintf("%s %s $3=%q $%c=%q", w.tag, w.ind, w.label, w.code, w.value)
				if got[key] == 0 {
					t.Errorf("%s: no %s", w.attr, key)
				}
				got[key]--
			}
			for key, n := range got {
				if n > 0 {
					t.Errorf("unexpected subfield %s", key)
				}
			}
			roundTrip(t, c.rec)
		})
	}
}

// flatten counts the subfields of r other than $3 by tag, indicators, $3
// and code=value.
func flatten(r *marc.Record) map[string]int {
	out := make(map[string]int)
	for _, f := range r.Data {
		label := f.Value('3')
		for _, s := range f.Subfields {
			if s.Code != '3' {
				out[fmt.Sprintf("%s %c%c $3=%q $%c=%q", f.Tag, f.Ind1, f.Ind2, label, s.Code, s.Value)]++
			}
		}
	}
	return out
}

func roundTrip(t *testing.T, r *marc.Record) {
	t.Helper()
	b, err := r.MarshalMARCXML()
	if err != nil {
		t.Fatal(err)
	}
	back, err := marc.ParseMARCXML(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back, r) {
		t.Errorf("round trip:\n got %+v\nwant %+v", back, r)
	}
}

// TestCrosswalkAbsent checks that a record with nothing set holds only the
// control fields, a devised 245 and 980.
func TestCrosswalkAbsent(t *testing.T) {
	cases := []struct {
		name  string
		rec   *marc.Record
		title string
	}{
		{"blog", marc.FromBlog(&blogharvest.Blog{}, marc.Options{}), "[Untitled blog]"},
		{"post", marc.FromEntry(&blogharvest.Entry{}, marc.Options{}), "[Untitled post]"},
		{"page", marc.FromEntry(&blogharvest.Entry{Kind: blogharvest.KindPage}, marc.Options{}), "[Untitled page]"},
		{"comment", marc.FromComment(&blogharvest.Comment{}, nil, marc.Options{}), "[Comment]"},
		{"comment by", marc.FromComment(&blogharvest.Comment{Author: "Ann"}, nil, marc.Options{}), "[Comment by Ann]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var tags []string
			for _, f := range c.rec.Data {
				if f.Tag != "100" && f.Tag != marc.AliasesTag {
					tags = append(tags, f.Tag)
				}
			}
			// Without a MARC organization code no 003 nor 040: never free text.
			if want := []string{"245", "336", "337", "338", "347", "980"}; !reflect.DeepEqual(tags, want) {
				t.Errorf("data fields %v, want %v", tags, want)
			}
			if got := c.rec.Fields("245")[0].Value('a'); got != c.title {
				t.Errorf("245 $a = %q, want %q", got, c.title)
			}
			if len(c.rec.Control) != 1 || c.rec.Control[0].Tag != "008" {
				t.Errorf("control fields %v, want only 008", c.rec.Control)
			}
		})
	}
}

// TestCrosswalkProvenance checks that a false has_reply and zero reply
// counts are written only when harvested.
func TestCrosswalkProvenance(t *testing.T) {
	e := &blogharvest.Entry{}
	if n := len(marc.FromEntry(e, marc.Options{}).Fields("788")); n != 0 {
		t.Errorf("unharvested: %d 788 fields, want 0", n)
	}
	e.Provenance.Set("has_reply", blogharvest.MethodComputed)
	e.Provenance.Set("num_of_replies", blogharvest.MethodFeed)
	got := flatten(marc.FromEntry(e, marc.Options{}))
	for _, key := range []string{`788    $3="has_reply" $a="false"`, `788    $3="num_of_replies" $b="0"`} {
		if got[key] != 1 {
			t.Errorf("harvested: no %s in %v", key, got)
		}
	}
	c := &blogharvest.Comment{}
	c.Provenance.Set("num_replies", blogharvest.MethodFeed)
	if got := flatten(marc.FromComment(c, nil, marc.Options{})); got[`788    $3="num_replies" $b="0"`] != 1 {
		t.Errorf("comment: no num_replies 0 in %v", got)
	}
}

// TestCrosswalkParentFallbacks checks where a comment's links come from
// when it names its parents only indirectly.
func TestCrosswalkParentFallbacks(t *testing.T) {
	e := fullEntry()
	r := marc.FromComment(replyComment(), e, marc.Options{})
	var post, parent string
	for _, f := range r.Fields("773") {
		switch f.Value('3') {
		case "is_child_of_post":
			post = f.Value('o')
		case "is_child_of_comment":
			parent = f.Value('o')
		}
		if f.Value('w') != "" {
			t.Errorf("773 $w = %q without a parent record id", f.Value('w'))
		}
	}
	if post != e.URL {
		t.Errorf("is_child_of_post = %q, want the entry's URI %q", post, e.URL)
	}
	if want := fullComment().URL; parent != want {
		t.Errorf("is_child_of_comment = %q, want the parent comment's URI %q", parent, want)
	}
}

// TestAttributes reads each full record back into attributes and compares
// with the rows of the crosswalk tables.
func TestAttributes(t *testing.T) {
	cases := []struct {
		name string
		rec  *marc.Record
		want []want
	}{
		{"blog", marc.FromBlog(fullBlog(), fullOptions("b")), blogWant},
		{"entry", marc.FromEntry(fullEntry(), fullOptions("e")), entryWant},
		{"comment", marc.FromComment(fullComment(), fullEntry(), fullOptions("c")), commentWant},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			exp := make(map[string][]string)
			for _, w := range c.want {
				if (w.tag != "980" || w.attr == "kind") && w.code != '4' && w.code != 'w' && w.attr[0] != '(' {
					exp[w.attr] = append(exp[w.attr], w.value)
				}
			}
			if got := marc.Attributes(c.rec); !reflect.DeepEqual(got, exp) {
				t.Errorf("Attributes =\n%v\nwant\n%v", got, exp)
			}
		})
	}
	untitled := marc.FromComment(&blogharvest.Comment{Author: "Ann"}, nil, marc.Options{})
	if got := marc.Attributes(untitled); !reflect.DeepEqual(got, map[string][]string{"author": {"Ann"}}) {
		t.Errorf("devised title read back: %v", got)
	}
	if got := marc.Attributes(&marc.Record{}); got != nil {
		t.Errorf("record without 980: %v, want nil", got)
	}
}
