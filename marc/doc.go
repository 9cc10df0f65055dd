// Package marc holds the MARC 21 record model, the BlogForever crosswalk from
// blogharvest.Blog, Entry and Comment to MARC (DESIGN §6), the MARCXML
// encoding, and a lint for what MARC21slim.xsd cannot check (leader
// positions, 008 length, required fields, subfield codes).
//
// FromBlog, FromEntry and FromComment apply the crosswalk below;
// Record.MarshalMARCXML and ParseMARCXML encode and decode one MARCXML
// record, ParseCollection a <collection>; Attributes reads a record back
// into attribute names; Lint checks a record before it is archived;
// ToolWarnings lists the MARC::Lint warnings the crosswalk itself causes.
//
// Where to change what: the crosswalk is one table per record type
// (blogTable, entryTable, commentTable in crosswalk.go; the shared row
// shapes in fields.go; table.go writes the rows and turns them round for
// reading). A row names, for each subfield it writes, the attribute it
// holds, and Attributes reads the records back from those same rows, so an
// attribute is added, moved or renamed in one row; TestEveryRowRoundTrips
// fails when a row or a field is written and not read back. report.Post
// reads the attributes by name (its marc tags, checked against the tables).
//
// # Crosswalk
//
// The crosswalk from blogharvest records to MARC 21 follows the BlogForever
// metadata schema (DESIGN §6) field by field. Where the schema names no
// subfield the value goes to $a. Where two attributes of one record type
// share a tag, each attribute gets a field of its own that starts with $3
// holding the attribute name, so the mapping can be read back, in the
// fields where MARC 21 defines $3 (520, 542, 773) and in local ones (269,
// 781, 788, 952, 954). Elsewhere the attributes share one field or are told
// apart by indicator: 100 (author $a and aliases $g), 245 (title and
// subtitle form the one title statement), 270 (city and country form one
// address), 342 (longitude and latitude form one point), 520 full_content
// with $b full_content_format saying what $a is, and 653 (categories and
// tags by first indicator). Fields are in tag order, fields
// with the same tag in the order of the tables below. An empty string, a
// zero time, a zero HTTP status and a nil Geo are absent and write nothing;
// a false has_reply or a zero reply count is written only when the
// attribute's name is in the record's Provenance (it was harvested).
// Dates are ISO 8601 with the time's own zone ("2013-08-28T10:44:08Z").
// Line breaks and tabs in a value become spaces (full_content: see ISO 2709
// below).
//
// Every record:
//
//	Leader  00000nai a22000007n 4500 (Blog), 00000naa a22000007n 4500 (Entry, Comment)
//	001     Options.ID (a stable id, no "urn:uuid:" prefix)
//	003     Options.OrgCode (control number identifier), when set
//	005     Options.Updated, UTC, yyyymmddhhmmss.f
//	008     40 characters, below
//	040 _ _ $a Options.OrgCode (the cataloguing agency's MARC organization
//	        code: the daemon's organization_code key) $b eng (language of
//	        cataloguing: the devised titles are English) $c Options.OrgCode
//	        (transcribing agency); not written without a code, and never
//	        with the free-text organization name
//	264 _ 1 $c the publication date (date_created of an Entry, date_added
//	        of a Comment, as in 269), when known; a Blog has none
//	336 _ _ $a text $b txt $2 rdacontent (RDA content type)
//	337 _ _ $a computer $b c $2 rdamedia (RDA media type)
//	338 _ _ $a online resource $b cr $2 rdacarrier (RDA carrier type)
//	347 _ _ $a text file $b HTML $2 rdaft (digital file characteristics)
//	245 1 n / 0 n  $a title (1 when a 100 $a author is written, else 0).
//	        n, the second indicator, counts the non-filing characters of
//	        an initial article ("The " 4, "A " 2, "L'" 2) in the record's
//	        language (the blog's: Blog.Language, Options.Language) with
//	        English "the" counted in any language and English for an
//	        unknown one; 0 when the title opens with no article.
//	        A record without a title gets a devised title in square brackets
//	        (cataloguing practice), since 245 is required: "[Untitled blog]",
//	        "[Untitled post]", "[Untitled page]", "[Comment by <author>]" or
//	        "[Comment]".
//	856 4 0 $u the record's own URI (permalink of the blog, entry or
//	        comment), as MARC 21 links an online resource, beside the
//	        crosswalk's 520 $3 uri $u
//	980     $a BLOG, BLOGPOST or COMMENT; $b post or page for an Entry (a
//	        page is a BLOGPOST too: it is an entry of the blog), read back
//	        as the attribute kind
//
// 008 follows the MARC 21 bibliographic "All materials" positions: 00-05
// date entered (yymmdd, UTC) from the record's capture date (Blog.Captured,
// Entry.Captured; a Comment uses its Entry's), else Options.Updated; 15-17
// "xx " (place unknown); 35-37 the MARC language code of the record's BCP 47
// language (Blog.Language; Options.Language for entries and comments: the
// blog's, which the harvest copies to Entry.Language and the aip package
// passes on), "und" when unknown; 38 blank (not modified); 39 d (other cataloguing source).
// The Blog is coded as a continuing resource (leader/07 i, integrating):
// 06-14 "uuuuuuuuu" (status unknown, dates unknown), 18-19 " x" (no
// determinable frequency, irregular), 21 w (updating web site), 23 o
// (online), 29 0, 34 2 (integrated entry). An Entry or Comment is coded as a
// component part of language material (leader/06-07 aa, Books positions):
// 06 s with 07-10 the year of date_created (date_added for a comment) and
// 11-14 blank, or 06-10 "nuuuu" when that date is unknown; 18-21 "||||",
// 23 o (online), 29-31 "000", 33-34 "||".
//
// In the tables below "_" is a blank indicator (a space in MARCXML) and
// "$3 name" opens the field with the attribute's name.
//
// Blog:
//
//	attribute            tag ind subfields
//	language             041 _ 7 $a   (the BCP 47 tag as harvested) $2 rfc5646
//	aliases              957 _ _ $g   (one $g per alias; a blog has no author, so no 100)
//	title                245 0 n $a
//	subtitle             245 0 n $b
//	location_city        270 _ _ $d   (one 270 with city and country)
//	location_country     270 _ _ $b
//	uri                  520 _ _ $3 uri $u
//	sitemap_uri          520 _ _ $3 sitemap_uri $a
//	encoding             532 8 _ $a   (8: no display constant)
//	copyright            542 _ _ $3 copyright $a
//	ownership_rights     542 _ _ $3 ownership_rights $a
//	distribution_rights  542 _ _ $3 distribution_rights $a
//	access_rights        542 _ _ $3 access_rights $a
//	license              542 _ _ $3 license $f
//	platform             781 _ _ $3 platform $a
//	platform_version     781 _ _ $3 platform_version $b
//	status_code          952 _ _ $a
//	last_activity_date   954 _ _ $3 last_activity_date $a
//	post_frequency       954 _ _ $3 post_frequency $b
//	update_frequency     954 _ _ $3 update_frequency $c
//	webmaster            955 _ _ $a
//	hosting_ip           956 _ _ $a
//
// Entry (post or page):
//
//	attribute            tag ind subfields
//	alt_identifier       024 7 _ $a $2 uri   (8 _ $a without $2 when not an absolute URI)
//	author               100 i _ $a   (i: 1 for "Surname, Forename", else 0)
//	aliases              100 i _ $g   (after $a, one $g per alias; 957 _ _ $g without an author)
//	title                245 1 n $a   (0 n without an author)
//	subtitle             245 1 n $b
//	date_modified        260 _ _ $m
//	date_created         269 _ _ $c
//	geo_longitude        342 0 0 $g
//	geo_latitude         342 0 0 $h
//	access_restriction   506 1 _ $a
//	full_content         520 _ _ $3 full_content $a   (one or more fields, see ISO 2709)
//	full_content_format  520 _ _ $3 full_content $b   (in the first of them)
//	uri                  520 _ _ $3 uri $u
//	categories           653 1 _ $a   (1: primary term; one field per category)
//	tags                 653 2 _ $a   (2: secondary term; one field per tag)
//	child_of             760 0 _ $o blog URI $4 sioc:has_container $w Options.ParentID
//	has_reply            788 _ _ $3 has_reply $a   (true or false)
//	num_of_replies       788 _ _ $3 num_of_replies $b
//	last_reply_date      788 _ _ $3 last_reply_date $c
//	version              950 _ _ $a
//	status_code          952 _ _ $3 status_code $a
//	response_code        952 _ _ $3 response_code $b
//
// DESIGN's table has no place for categories and tags; they go to 653
// (index term, uncontrolled), which defines no $3: the first indicator,
// level of index term, tells them apart (a category is the blog's primary
// classification, a tag a secondary one).
//
// Comment:
//
//	attribute            tag ind subfields
//	author               100 i _ $a   (i as for an Entry)
//	subject              245 1 n $a   (0 n without an author)
//	date_added           269 _ _ $3 date_added $c
//	date_modified        269 _ _ $3 date_modified $m
//	geo_longitude        342 0 0 $g
//	geo_latitude         342 0 0 $h
//	full_content         520 _ _ $3 full_content $a   (one or more fields, see ISO 2709)
//	full_content_format  520 _ _ $3 full_content $b   (in the first of them)
//	uri                  520 _ _ $3 uri $u
//	is_child_of_post     773 0 _ $3 is_child_of_post $t the post's title $o entry URI $4 sioc:reply_of $w Options.ParentID
//	is_child_of_comment  773 0 _ $3 is_child_of_comment $o parent comment URI $4 sioc:reply_of $w Options.ParentCommentID
//	has_reply            788 _ _ $3 has_reply $a   (true or false)
//	num_replies          788 _ _ $3 num_replies $b
//	addressed_to_uri     789 _ _ $u
//	status               952 _ _ $a
//
// In the linking fields 760 and 773, $t (title) is the post's title in a
// comment's is_child_of_post (when the Entry has one), $o (other item identifier) is the
// parent's URI, $4 (relationship) a SIOC property URI
// (http://rdfs.org/sioc/ns#has_container: the entry is contained in the
// blog; http://rdfs.org/sioc/ns#reply_of: the comment replies to the post
// or to the comment) and $w (record control number) the 001 of the parent's
// record when the caller passes it. A linking field is written when $o or $w
// has a value. is_child_of_post falls back to the Entry's URI when the
// Comment has no PostURL; is_child_of_comment takes the URI of the comment
// named by ParentID among the Entry's comments when ParentURL is empty.
//
// # ISO 2709 and MARC::Lint
//
// Every record converts to ISO 2709 (MARC exchange format) and back with
// yaz-marcdump with every field and subfield intact, and MARC::Lint
// reports nothing on it but ToolWarnings; tests check both over the golden
// records and the demo archive when the tools are installed. ISO 2709
// gives a field at most 9,999 bytes (MaxFieldBytes), so full_content is
// kept whole, as HTML in 520, over as many 520 $3 full_content fields as
// it needs, in order, each within the limit (FieldLen); the parts
// concatenate to the article, and Attributes joins them. A part is cut
// before a tag where it can, never inside a UTF-8 character, and neither
// starts nor ends with a blank. MARC subfields carry no control
// characters, so the article's line breaks and tabs become spaces outside
// <pre>, <listing> and <textarea>, and inside them the character
// references &#10; and &#9;, which an HTML parser reads as the same
// characters (the article cleaner has removed script and style); blanks at
// either end of the article are trimmed.
//
// ISO 2709 also caps a whole record at 99,999 bytes (MaxRecordBytes,
// RecordLen): an article of more than about 95 kB of HTML cannot go out as
// one ISO 2709 record (yaz-marcdump silently drops the fields past the
// limit). The MARCXML record in the archive, which has no such limit, keeps
// the whole article all the same: nothing is cut from the archive to suit
// an exchange format.
//
// Deviations from MARC 21 that the BlogForever schema implies and this
// package keeps: 041 $a holds the BCP 47 tag as harvested (with $2
// rfc5646), not a MARC language code (008/35-37 has the MARC code); 100 $g
// holds the entry's aliases (other URLs), not miscellaneous name
// information, and a record without an author keeps its aliases in the
// local 957 $g, since a 100 is a name; 260 $m (date_modified) is not a
// MARC 21 subfield; 269, 781, 788 (as used here), 789 and 9XX are local;
// 270 $d/$b hold city/country the other way round from MARC's 270 ($b
// city, $d country) because the schema's table says so; punctuation is
// omitted (leader/18 n), so 245 does not end in a period.
package marc
