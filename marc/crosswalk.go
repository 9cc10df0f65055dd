package marc

import (
	"strings"

	"github.com/blogharvest/blogharvest"
)

// Relationship URIs written to $4 of the linking fields 760 and 773.
const (
	RelContainer = "http://rdfs.org/sioc/ns#has_container"
	RelReplyOf   = "http://rdfs.org/sioc/ns#reply_of"
)

// Record types written to 980 $a.
const (
	TypeBlog     = "BLOG"
	TypeBlogPost = "BLOGPOST"
	TypeComment  = "COMMENT"
)

// FromBlog returns the MARC record of b (the crosswalk above).
func FromBlog(b *blogharvest.Blog, o Options) *Record {
	var w builder
	lang := LanguageCode(b.Language)
	w.cataloguing(o)
	w.add("041", ' ', '7', "", sf('a', b.Language), sf('2', languageSource(b.Language)))
	w.names("", b.Aliases)
	w.title('0', lang, orDevised(b.Title, "[Untitled blog]"), b.Subtitle)
	w.add("270", ' ', ' ', "", sf('d', b.LocationCity), sf('b', b.LocationCountry))
	w.add("520", ' ', ' ', "uri", sf('u', b.URL))
	w.add("520", ' ', ' ', "sitemap_uri", sf('a', b.SitemapURL))
	w.add("532", '8', ' ', "", sf('a', b.Encoding))
	w.add("542", ' ', ' ', "copyright", sf('a', b.Copyright))
	w.add("542", ' ', ' ', "ownership_rights", sf('a', b.OwnershipRights))
	w.add("542", ' ', ' ', "distribution_rights", sf('a', b.DistributionRights))
	w.add("542", ' ', ' ', "access_rights", sf('a', b.AccessRights))
	w.add("542", ' ', ' ', "license", sf('f', b.License))
	w.add("781", ' ', ' ', "platform", sf('a', b.Platform))
	w.add("781", ' ', ' ', "platform_version", sf('b', b.PlatformVersion))
	w.add("952", ' ', ' ', "", sf('a', status(b.StatusCode)))
	w.add("954", ' ', ' ', "last_activity_date", sf('a', date(b.LastActivity)))
	w.add("954", ' ', ' ', "post_frequency", sf('b', b.PostFrequency))
	w.add("954", ' ', ' ', "update_frequency", sf('c', b.UpdateFrequency))
	w.add("955", ' ', ' ', "", sf('a', b.Webmaster))
	w.add("956", ' ', ' ', "", sf('a', b.HostingIP))
	w.describe("")
	w.add("856", '4', '0', "", sf('u', b.URL))
	w.add("980", ' ', ' ', "", sf('a', TypeBlog))
	entered := firstTime(b.Captured, o.Updated)
	return w.record(LeaderBlog, o, fixed008Blog(entered, b.Language))
}

// FromEntry returns the MARC record of e (the crosswalk above). Its
// comments are not included: each has a record of its own (FromComment).
func FromEntry(e *blogharvest.Entry, o Options) *Record {
	var w builder
	p := e.Provenance
	w.identifier(e.AltIdentifier)
	w.cataloguing(o)
	w.names(e.Author, e.Aliases)
	w.title(titleInd(e.Author), LanguageCode(o.Language), orDevised(e.Title, untitled(e.Kind)), e.Subtitle)
	w.add("260", ' ', ' ', "", sf('m', preciseDate(e.Modified, e.ModifiedPrecision)))
	w.add("269", ' ', ' ', "", sf('c', preciseDate(e.Created, e.CreatedPrecision)))
	w.geo(e.Geo)
	w.add("506", '1', ' ', "", sf('a', e.AccessRestriction))
	w.content(e.Content, e.ContentFormat)
	w.add("520", ' ', ' ', "uri", sf('u', e.URL))
	w.terms('1', e.Categories)
	w.terms('2', e.Tags)
	w.link("760", "", e.ChildOf, RelContainer, o.ParentID)
	w.add("788", ' ', ' ', "has_reply", sf('a', boolean(e.HasReply, p, "has_reply")))
	w.add("788", ' ', ' ', "num_of_replies", sf('b', number(e.NumReplies, p, "num_of_replies")))
	w.add("788", ' ', ' ', "last_reply_date", sf('c', date(e.LastReplyDate)))
	w.add("950", ' ', ' ', "", sf('a', e.Version))
	w.add("952", ' ', ' ', "status_code", sf('a', status(e.StatusCode)))
	w.add("952", ' ', ' ', "response_code", sf('b', e.ResponseCode))
	w.describe(preciseDate(e.Created, e.CreatedPrecision))
	w.add("856", '4', '0', "", sf('u', e.URL))
	w.add("980", ' ', ' ', "", sf('a', TypeBlogPost), sf('b', string(e.Kind)))
	entered := firstTime(e.Captured, o.Updated)
	return w.record(LeaderComponent, o, fixed008Part(entered, e.Created, o.Language))
}

// FromComment returns the MARC record of c, a comment on e (the crosswalk
// above). e supplies the post's URI when c has no PostURL, the parent
// comment's URI when c has a ParentID but no ParentURL, and the capture
// date for 008; e may be nil.
func FromComment(c *blogharvest.Comment, e *blogharvest.Entry, o Options) *Record {
	if e == nil {
		e = &blogharvest.Entry{}
	}
	var w builder
	p := c.Provenance
	w.cataloguing(o)
	w.names(c.Author, nil)
	w.title(titleInd(c.Author), LanguageCode(o.Language), orDevised(c.Subject, commentTitle(c.Author)), "")
	w.add("269", ' ', ' ', "date_added", sf('c', preciseDate(c.Added, c.AddedPrecision)))
	w.add("269", ' ', ' ', "date_modified", sf('m', date(c.Modified)))
	w.geo(c.Geo)
	w.content(c.Content, c.ContentFormat)
	w.add("520", ' ', ' ', "uri", sf('u', c.URL))
	w.link("773", "is_child_of_post", orDevised(c.PostURL, e.URL), RelReplyOf, o.ParentID, sf('t', e.Title))
	w.link("773", "is_child_of_comment", parentURL(c, e), RelReplyOf, o.ParentCommentID)
	w.add("788", ' ', ' ', "has_reply", sf('a', boolean(c.HasReply, p, "has_reply")))
	w.add("788", ' ', ' ', "num_replies", sf('b', number(c.NumReplies, p, "num_replies")))
	w.add("789", ' ', ' ', "", sf('u', c.AddressedTo))
	w.add("952", ' ', ' ', "", sf('a', c.Status))
	w.describe(preciseDate(c.Added, c.AddedPrecision))
	w.add("856", '4', '0', "", sf('u', c.URL))
	w.add("980", ' ', ' ', "", sf('a', TypeComment))
	entered := firstTime(e.Captured, o.Updated)
	return w.record(LeaderComponent, o, fixed008Part(entered, c.Added, o.Language))
}

// geo adds 342 with $g longitude and $h latitude when g is known.
func (b *builder) geo(g *blogharvest.Geo) {
	if g != nil {
		b.add("342", '0', '0', "", sf('g', coord(g.Longitude)), sf('h', coord(g.Latitude)))
	}
}

// link adds a linking entry field (760, 773) with the subfields first
// (such as $t, the parent's title), $o the parent's URI, $4 the
// relationship and $w the parent record's 001, when uri or id is known.
func (b *builder) link(tag, label, uri, rel, id string, first ...Subfield) {
	if uri == "" && id == "" {
		return
	}
	b.add(tag, '0', ' ', label, append(first, sf('o', uri), sf('4', rel), sf('w', id))...)
}

// orDevised returns s, or devised when s is empty.
func orDevised(s, devised string) string {
	if s == "" {
		return devised
	}
	return s
}

// titleInd is 245's first indicator: 1 (added entry) when a 100 $a author
// is written, else 0.
func titleInd(author string) byte {
	if author == "" {
		return '0'
	}
	return '1'
}

// untitled is the devised title of an entry without one.
func untitled(k blogharvest.Kind) string {
	if k == blogharvest.KindPage {
		return "[Untitled page]"
	}
	return "[Untitled post]"
}

// commentTitle is the devised title of a comment without a subject.
func commentTitle(author string) string {
	if author == "" {
		return "[Comment]"
	}
	return "[Comment by " + strings.TrimSpace(author) + "]"
}

// parentURL returns the URI of the comment c answers: ParentURL, else the
// URL of the comment of e whose ID is ParentID.
func parentURL(c *blogharvest.Comment, e *blogharvest.Entry) string {
	if c.ParentURL != "" || c.ParentID == "" {
		return c.ParentURL
	}
	for i := range e.Comments {
		if e.Comments[i].ID == c.ParentID {
			return e.Comments[i].URL
		}
	}
	return ""
}
