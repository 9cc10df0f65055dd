// Package marc holds the MARC 21 record model, the BlogForever crosswalk from
// blogharvest.Blog, Entry and Comment to MARC (DESIGN §6), the MARCXML
// encoding, and a lint for what MARC21slim.xsd cannot check (leader
// positions, 008 length, required fields, subfield codes).
//
// FromBlog, FromEntry and FromComment apply the crosswalk below;
// Record.MarshalMARCXML and ParseMARCXML encode and decode one MARCXML
// record; Attributes reads a record back into attribute names; Lint checks
// a record before it is archived.
//
// # Crosswalk
//
// The crosswalk from blogharvest records to MARC 21 follows the BlogForever
// metadata schema (DESIGN §6) field by field. Where the schema names no
// subfield the value goes to $a. Where two attributes of one record type
// share a tag, each attribute gets a field of its own that starts with $3
// holding the attribute name, so the mapping can be read back; the three
// exceptions are 245 (title and subtitle form the one title statement),
// 342 (longitude and latitude form one point) and 520 full_content, whose
// $b full_content_format says what $a is. Fields are in tag order, fields
// with the same tag in the order of the tables below. An empty string, a
// zero time, a zero HTTP status and a nil Geo are absent and write nothing;
// a false has_reply or a zero reply count is written only when the
// attribute's name is in the record's Provenance (it was harvested).
// Dates are ISO 8601 with the time's own zone ("2013-08-28T10:44:08Z").
//
// Every record:
//
//	Leader  00000nai a22000007n 4500 (Blog), 00000naa a22000007n 4500 (Entry, Comment)
//	001     Options.ID (a stable id, no "urn:uuid:" prefix)
//	005     Options.Updated, UTC, yyyymmddhhmmss.f
//	008     40 characters, below
//	245 1 0 / 0 0  $a title (1 when a 100 $a author is written, else 0).
//	        A record without a title gets a devised title in square brackets
//	        (cataloguing practice), since 245 is required: "[Untitled blog]",
//	        "[Untitled post]", "[Untitled page]", "[Comment by <author>]" or
//	        "[Comment]".
//	980     $a BLOG, BLOGPOST or COMMENT; $b post or page for an Entry (a
//	        page is a BLOGPOST too: it is an entry of the blog)
//
// 008 follows the MARC 21 bibliographic "All materials" positions: 00-05
// date entered (yymmdd, UTC) from the record's capture date (Blog.Captured,
// Entry.Captured; a Comment uses its Entry's), else Options.Updated; 15-17
// "xx " (place unknown); 35-37 the MARC language code of the record's BCP 47
// language (Blog.Language; Options.Language for entries and comments), "und"
// when unknown; 38 blank (not modified); 39 d (other cataloguing source).
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
//	language             041 _ _ $a   (the BCP 47 tag as harvested)
//	aliases              100 _ _ $g   (one field per alias)
//	title                245 0 0 $a
//	subtitle             245 0 0 $b
//	location_city        270 _ _ $3 location_city $d
//	location_country     270 _ _ $3 location_country $b
//	uri                  520 _ _ $3 uri $u
//	sitemap_uri          520 _ _ $3 sitemap_uri $a
//	encoding             532 _ _ $a
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
//	alt_identifier       024 7 _ $a
//	author               100 _ _ $3 author $a
//	aliases              100 _ _ $3 aliases $g   (one field per alias)
//	title                245 1 0 $a   (0 0 without an author)
//	subtitle             245 1 0 $b
//	date_modified        260 _ _ $m
//	date_created         269 _ _ $c
//	geo_longitude        342 0 0 $g
//	geo_latitude         342 0 0 $h
//	access_restriction   506 1 _ $a
//	full_content         520 _ _ $3 full_content $a
//	full_content_format  520 _ _ $3 full_content $b   (same field as $a)
//	uri                  520 _ _ $3 uri $u
//	categories           653 _ _ $3 categories $a   (one field per category)
//	tags                 653 _ _ $3 tags $a   (one field per tag)
//	child_of             760 0 _ $o blog URI $4 sioc:has_container $w Options.ParentID
//	has_reply            788 _ _ $3 has_reply $a   (true or false)
//	num_of_replies       788 _ _ $3 num_of_replies $b
//	last_reply_date      788 _ _ $3 last_reply_date $c
//	version              950 _ _ $a
//	status_code          952 _ _ $3 status_code $a
//	response_code        952 _ _ $3 response_code $b
//
// DESIGN's table has no place for categories and tags; they go to 653
// (index term, uncontrolled), labelled because they share the tag.
//
// Comment:
//
//	attribute            tag ind subfields
//	author               100 _ _ $a
//	subject              245 1 0 $a   (0 0 without an author)
//	date_added           269 _ _ $3 date_added $c
//	date_modified        269 _ _ $3 date_modified $m
//	geo_longitude        342 0 0 $g
//	geo_latitude         342 0 0 $h
//	full_content         520 _ _ $3 full_content $a
//	full_content_format  520 _ _ $3 full_content $b
//	uri                  520 _ _ $3 uri $u
//	is_child_of_post     773 0 _ $3 is_child_of_post $o entry URI $4 sioc:reply_of $w Options.ParentID
//	is_child_of_comment  773 0 _ $3 is_child_of_comment $o parent comment URI $4 sioc:reply_of $w Options.ParentCommentID
//	has_reply            788 _ _ $3 has_reply $a   (true or false)
//	num_replies          788 _ _ $3 num_replies $b
//	addressed_to_uri     789 _ _ $u
//	status               952 _ _ $a
//
// In the linking fields 760 and 773, $o (other item identifier) is the
// parent's URI, $4 (relationship) a SIOC property URI
// (http://rdfs.org/sioc/ns#has_container: the entry is contained in the
// blog; http://rdfs.org/sioc/ns#reply_of: the comment replies to the post
// or to the comment) and $w (record control number) the 001 of the parent's
// record when the caller passes it. A linking field is written when $o or $w
// has a value. is_child_of_post falls back to the Entry's URI when the
// Comment has no PostURL; is_child_of_comment takes the URI of the comment
// named by ParentID among the Entry's comments when ParentURL is empty.
//
// Deviations from MARC 21 that the BlogForever schema implies and this
// package keeps: 100 repeats and carries non-name data (100 $g aliases, a
// Blog's 100 has no $a); 041 $a holds the BCP 47 tag as harvested, not a
// MARC language code (008/35-37 has the MARC code); $3 is used as a label
// in fields that do not define it; 260 $m and 269 are local; 270 $d/$b hold
// city/country the other way round from MARC's 270 ($b city, $d country)
// because the schema's table says so; 9XX fields are local.
package marc
