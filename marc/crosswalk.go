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

// Short names of the records the tables read.
type (
	blog    = blogharvest.Blog
	entry   = blogharvest.Entry
	comment = blogharvest.Comment
)

// FromBlog returns the MARC record of b (the crosswalk above).
func FromBlog(b *blogharvest.Blog, o Options) *Record {
	var w builder
	write(&w, blogTable, b, &ctx{o: o, lang: LanguageCode(b.Language)})
	return w.record(LeaderBlog, o, fixed008Blog(firstTime(b.Captured, o.Updated), b.Language))
}

// FromEntry returns the MARC record of e (the crosswalk above). Its
// comments are not included: each has a record of its own (FromComment).
func FromEntry(e *blogharvest.Entry, o Options) *Record {
	var w builder
	write(&w, entryTable, e, &ctx{o: o, lang: LanguageCode(o.Language)})
	return w.record(LeaderComponent, o, fixed008Part(firstTime(e.Captured, o.Updated), e.Created, o.Language))
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
	write(&w, commentTable, c, &ctx{o: o, lang: LanguageCode(o.Language), e: e})
	return w.record(LeaderComponent, o, fixed008Part(firstTime(e.Captured, o.Updated), c.Added, o.Language))
}

// blogTable is the Blog crosswalk (the table above).
var blogTable = append([]field[blog]{
	{tag: "041", ind1: ' ', ind2: '7', subs: []sub[blog]{
		one('a', "language", func(b *blog, _ *ctx) string { return b.Language }),
		one('2', "", func(b *blog, _ *ctx) string { return languageSource(b.Language) })}},
	aliases(func(*blog) string { return "" }, func(b *blog) []string { return b.Aliases }),
	{tag: "245", ind: func(b *blog, c *ctx) (byte, byte) { return '0', nonFiling(blogTitle(b), c.lang) }, subs: []sub[blog]{
		one('a', "title", func(b *blog, _ *ctx) string { return blogTitle(b) }),
		one('b', "subtitle", func(b *blog, _ *ctx) string { return b.Subtitle })}},
	{tag: "270", ind1: ' ', ind2: ' ', subs: []sub[blog]{
		one('d', "location_city", func(b *blog, _ *ctx) string { return b.LocationCity }),
		one('b', "location_country", func(b *blog, _ *ctx) string { return b.LocationCountry })}},
	labelled("520", "uri", 'u', func(b *blog, _ *ctx) string { return b.URL }),
	labelled("520", "sitemap_uri", 'a', func(b *blog, _ *ctx) string { return b.SitemapURL }),
	{tag: "532", ind1: '8', ind2: ' ', subs: []sub[blog]{one('a', "encoding", func(b *blog, _ *ctx) string { return b.Encoding })}},
	labelled("542", "copyright", 'a', func(b *blog, _ *ctx) string { return b.Copyright }),
	labelled("542", "ownership_rights", 'a', func(b *blog, _ *ctx) string { return b.OwnershipRights }),
	labelled("542", "distribution_rights", 'a', func(b *blog, _ *ctx) string { return b.DistributionRights }),
	labelled("542", "access_rights", 'a', func(b *blog, _ *ctx) string { return b.AccessRights }),
	labelled("542", "license", 'f', func(b *blog, _ *ctx) string { return b.License }),
	labelled("781", "platform", 'a', func(b *blog, _ *ctx) string { return b.Platform }),
	labelled("781", "platform_version", 'b', func(b *blog, _ *ctx) string { return b.PlatformVersion }),
	plain("952", "status_code", 'a', func(b *blog, _ *ctx) string { return status(b.StatusCode) }),
	labelled("954", "last_activity_date", 'a', func(b *blog, _ *ctx) string { return date(b.LastActivity) }),
	labelled("954", "post_frequency", 'b', func(b *blog, _ *ctx) string { return b.PostFrequency }),
	labelled("954", "update_frequency", 'c', func(b *blog, _ *ctx) string { return b.UpdateFrequency }),
	plain("955", "webmaster", 'a', func(b *blog, _ *ctx) string { return b.Webmaster }),
	plain("956", "hosting_ip", 'a', func(b *blog, _ *ctx) string { return b.HostingIP }),
}, every(TypeBlog, func(*blog, *ctx) string { return "" }, func(b *blog) string { return b.URL }, nil)...)

// entryTable is the Entry crosswalk (the table above).
var entryTable = append([]field[entry]{
	{tag: "024", ind: func(e *entry, _ *ctx) (byte, byte) { return identifierInd(e.AltIdentifier), ' ' }, subs: []sub[entry]{
		one('a', "alt_identifier", func(e *entry, _ *ctx) string { return e.AltIdentifier }),
		one('2', "", func(e *entry, _ *ctx) string { return identifierSource(e.AltIdentifier) })}},
	author(func(e *entry) string { return e.Author }, func(e *entry) []string { return e.Aliases }),
	aliases(func(e *entry) string { return e.Author }, func(e *entry) []string { return e.Aliases }),
	{tag: "245", ind: func(e *entry, c *ctx) (byte, byte) { return titleInd(e.Author), nonFiling(entryTitle(e), c.lang) }, subs: []sub[entry]{
		one('a', "title", func(e *entry, _ *ctx) string { return entryTitle(e) }),
		one('b', "subtitle", func(e *entry, _ *ctx) string { return e.Subtitle })}},
	plain("260", "date_modified", 'm', func(e *entry, _ *ctx) string { return preciseDate(e.Modified, e.ModifiedPrecision) }),
	plain("269", "date_created", 'c', func(e *entry, _ *ctx) string { return preciseDate(e.Created, e.CreatedPrecision) }),
	geo(func(e *entry) *blogharvest.Geo { return e.Geo }),
	{tag: "506", ind1: '1', ind2: ' ', subs: []sub[entry]{one('a', "access_restriction", func(e *entry, _ *ctx) string { return e.AccessRestriction })}},
	content(func(e *entry) (string, string) { return e.Content, e.ContentFormat }),
	labelled("520", "uri", 'u', func(e *entry, _ *ctx) string { return e.URL }),
	terms('1', "categories", func(e *entry) []string { return e.Categories }),
	terms('2', "tags", func(e *entry) []string { return e.Tags }),
	link("760", "", "child_of", RelContainer, func(e *entry, c *ctx) (string, string, string) { return e.ChildOf, c.o.ParentID, "" }),
	labelled("788", "has_reply", 'a', func(e *entry, _ *ctx) string { return boolean(e.HasReply, e.Provenance, "has_reply") }),
	labelled("788", "num_of_replies", 'b', func(e *entry, _ *ctx) string { return number(e.NumReplies, e.Provenance, "num_of_replies") }),
	labelled("788", "last_reply_date", 'c', func(e *entry, _ *ctx) string { return date(e.LastReplyDate) }),
	plain("950", "version", 'a', func(e *entry, _ *ctx) string { return e.Version }),
	labelled("952", "status_code", 'a', func(e *entry, _ *ctx) string { return status(e.StatusCode) }),
	labelled("952", "response_code", 'b', func(e *entry, _ *ctx) string { return e.ResponseCode }),
}, every(TypeBlogPost, func(e *entry, _ *ctx) string { return preciseDate(e.Created, e.CreatedPrecision) },
	func(e *entry) string { return e.URL }, func(e *entry) string { return string(e.Kind) })...)

// commentTable is the Comment crosswalk (the table above).
var commentTable = append([]field[comment]{
	author(func(c *comment) string { return c.Author }, nil),
	{tag: "245", ind: func(c *comment, x *ctx) (byte, byte) { return titleInd(c.Author), nonFiling(commentSubject(c), x.lang) }, subs: []sub[comment]{
		one('a', "subject", func(c *comment, _ *ctx) string { return commentSubject(c) })}},
	labelled("269", "date_added", 'c', func(c *comment, _ *ctx) string { return preciseDate(c.Added, c.AddedPrecision) }),
	labelled("269", "date_modified", 'm', func(c *comment, _ *ctx) string { return date(c.Modified) }),
	geo(func(c *comment) *blogharvest.Geo { return c.Geo }),
	content(func(c *comment) (string, string) { return c.Content, c.ContentFormat }),
	labelled("520", "uri", 'u', func(c *comment, _ *ctx) string { return c.URL }),
	link("773", "is_child_of_post", "is_child_of_post", RelReplyOf, func(c *comment, x *ctx) (string, string, string) {
		return orDevised(c.PostURL, x.e.URL), x.o.ParentID, x.e.Title
	}),
	link("773", "is_child_of_comment", "is_child_of_comment", RelReplyOf, func(c *comment, x *ctx) (string, string, string) {
		return parentURL(c, x.e), x.o.ParentCommentID, ""
	}),
	labelled("788", "has_reply", 'a', func(c *comment, _ *ctx) string { return boolean(c.HasReply, c.Provenance, "has_reply") }),
	labelled("788", "num_replies", 'b', func(c *comment, _ *ctx) string { return number(c.NumReplies, c.Provenance, "num_replies") }),
	plain("789", "addressed_to_uri", 'u', func(c *comment, _ *ctx) string { return c.AddressedTo }),
	plain("952", "status", 'a', func(c *comment, _ *ctx) string { return c.Status }),
}, every(TypeComment, func(c *comment, _ *ctx) string { return preciseDate(c.Added, c.AddedPrecision) },
	func(c *comment) string { return c.URL }, nil)...)

// blogTitle is a blog's title, or the devised one.
func blogTitle(b *blog) string { return oneLine(orDevised(b.Title, "[Untitled blog]")) }

// entryTitle is an entry's title, or the devised one.
func entryTitle(e *entry) string { return oneLine(orDevised(e.Title, untitled(e.Kind))) }

// commentSubject is a comment's subject, or the devised title.
func commentSubject(c *comment) string { return oneLine(orDevised(c.Subject, commentTitle(c.Author))) }

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
