package learn

import (
	"strings"

	"github.com/blogharvest/blogharvest/harvest/textsim"
)

// ldComments returns the schema.org Comment objects of the page's JSON-LD
// scripts (structured.commentScripts: a BlogPosting's "comment" list, replies in
// each comment's own), oldest first as listed; their ids are their @id or
// url, else a digest.
func ldComments(scripts []any, lang string) []Comment {
	var out []Comment
	for _, v := range scripts {
		out = visitLDComments(v, "", lang, out, 0)
	}
	return out
}

// visitLDComments appends the Comment objects under v; parent is the id
// of the comment v answers.
func visitLDComments(v any, parent, lang string, out []Comment, depth int) []Comment {
	if depth > 20 {
		return out
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			out = visitLDComments(e, parent, lang, out, depth+1)
		}
	case map[string]any:
		if isLDComment(x["@type"]) {
			c := ldComment(x, parent, lang)
			out = append(out, c)
			parent = c.ID
		}
		for k, e := range x {
			if k == "comment" || k == "@graph" || k == "mainEntity" || k == "hasPart" {
				out = visitLDComments(e, parent, lang, out, depth+1)
			}
		}
	}
	return out
}

// isLDComment reports whether a JSON-LD @type names a Comment.
func isLDComment(t any) bool {
	switch x := t.(type) {
	case string:
		return x == "Comment" || strings.HasSuffix(x, "schema.org/Comment")
	case []any:
		for _, e := range x {
			if isLDComment(e) {
				return true
			}
		}
	}
	return false
}

// ldComment reads one JSON-LD Comment.
func ldComment(m map[string]any, parent, lang string) Comment {
	c := Comment{ParentID: parent, Author: textsim.CleanAuthor(ldValue(m["author"]))}
	text := firstNonEmpty(ldValue(m["text"]), ldValue(m["commentText"]), ldValue(m["description"]))
	c.ContentText = textsim.Collapse(text)
	c.ContentHTML = textToHTML(text)
	for _, k := range []string{"dateCreated", "datePublished", "commentTime"} {
		if t, p, ok := parseDatePrec(ldValue(m[k]), lang); ok {
			c.Date, c.DatePrecision = t, p
			break
		}
	}
	c.URL = ldValue(m["url"])
	c.ID = firstNonEmpty(ldValue(m["@id"]), c.URL, digestID(c.Author, c.ContentText))
	return c
}

// ldValue returns a JSON-LD value as text: a string, a number, or the
// name of an object.
func ldValue(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case map[string]any:
		return firstNonEmpty(ldValue(x["name"]), ldValue(x["@value"]))
	case []any:
		if len(x) > 0 {
			return ldValue(x[0])
		}
	}
	return ""
}
