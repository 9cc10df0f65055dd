package learn

import (
	"bytes"
	"encoding/json"
	stdhtml "html"
	"maps"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/textsim"
	"golang.org/x/net/html"
)

// This file reads comments from the JSON a comment widget fetched while
// its page rendered (render.Result.API): the service's own records, with
// their ids, exact times and reply parents, are a better source than the
// DOM the widget draws from them. A JSON object is a comment when it
// holds a text (a string under a key such as comment, content, text or
// body) and an author (nick, author, name, … or such a key of a nested
// user object) or a date (an ISO 8601 string or a Unix time under a key
// such as created, insertedAt or time). Replies are the comment objects
// in an array of a comment, or name their parent (pid, parent, replyTo,
// …). The records are used only when they match the rendered DOM: at
// least two thirds of them show their text there, and those that do not
// are dropped (a widget of the site's latest comments elsewhere on the
// page is no thread of this post); a record naming another page (url,
// path) than the one rendered is not this page's.

// APIComments returns the comments the JSON bodies hold that the rendered
// pages show: pages[0] is the rendered page, the others its frames'
// documents. A comment whose id is an element id of one of them gets the
// page's URL with that fragment as its URL. It returns nil when the
// bodies hold no comments, or when too few of them match the DOM.
func APIComments(bodies [][]byte, pages []Page) []Comment {
	return APICommentsMore(bodies, nil, pages, 0)
}

// APICommentsMore is APIComments with the answers the crawl read after
// those the page fetched, following what they said was left (more:
// ReadAPIMore): the records of more need not show in the DOM (no reader
// pressed "more" there), but are kept only when the page's own answers
// match it, and only up to limit comments in all (0: no bound).
func APICommentsMore(bodies [][]byte, more []MoreAnswer, pages []Page, limit int) []Comment {
	if len(bodies) == 0 || len(pages) == 0 {
		return nil
	}
	pageURL := pages[0].URL
	var text strings.Builder
	domIDs := map[string]bool{}
	for _, p := range pages {
		text.WriteString(textsim.NormalizeText(textsim.HTMLText(string(p.HTML))))
		text.WriteByte('\n')
		elementIDs(p.HTML, domIDs)
	}
	domText := text.String()
	page, _ := url.Parse(pageURL)
	r := apiReader{page: page, seen: map[string]bool{}, parents: map[string][]string{}}
	for _, b := range bodies {
		d := json.NewDecoder(bytes.NewReader(b))
		d.UseNumber()
		var v any
		if d.Decode(&v) != nil {
			continue
		}
		r.walk(v, "")
	}
	shown := len(r.out) // records of the page's own answers
	for _, a := range more {
		d := json.NewDecoder(bytes.NewReader(a.Body))
		d.UseNumber()
		var v any
		if d.Decode(&v) != nil {
			continue
		}
		r.walk(v, a.Parent)
	}
	if shown == 0 {
		return nil
	}
	ids := map[string]bool{}
	for _, c := range r.out {
		ids[c.ID] = true
	}
	var kept []Comment
	inDOM := 0 // records of the page's answers the DOM shows
	for k, c := range r.out {
		t := textsim.NormalizeText(c.ContentText)
		if t == "" || k < shown && !strings.Contains(domText, t) || k >= shown && limit > 0 && len(kept) >= limit {
			continue
		}
		if k < shown {
			inDOM++
		}
		c.ParentID = "" // the first candidate the responses hold
		for _, p := range r.parents[c.ID] {
			if ids[p] && p != c.ID {
				c.ParentID = p
				break
			}
		}
		if domIDs[c.ID] && page != nil {
			u := *page
			u.Fragment = c.ID
			c.URL = u.String()
		}
		kept = append(kept, c)
	}
	if 3*inDOM < 2*shown {
		return nil
	}
	return kept
}

// MoreAnswer is an answer the crawl read following a comment API's
// paging (APICommentsMore).
type MoreAnswer struct {
	Body []byte
	// Parent is the comment whose replies were asked for; "" for a page
	// of the thread. Its records that name no parent of their own are
	// its replies.
	Parent string
}

// elementIDs adds the id attributes of the elements of doc to ids.
func elementIDs(doc []byte, ids map[string]bool) {
	z := html.NewTokenizer(bytes.NewReader(doc))
	for {
		switch z.Next() {
		case html.ErrorToken:
			return
		case html.StartTagToken, html.SelfClosingTagToken:
			for {
				k, v, more := z.TagAttr()
				if string(k) == "id" {
					ids[string(v)] = true
				}
				if !more {
					break
				}
			}
		}
	}
}

// apiReader collects the comment objects of JSON documents, each once (by
// id).
type apiReader struct {
	page *url.URL
	seen map[string]bool
	out  []Comment
	// parents holds, by comment id, the ids its object names as its
	// parent, best first, then the comment it is nested in.
	parents map[string][]string
}

// walk visits v, a decoded JSON value; parent is the id of the comment v
// lies in ("" outside any).
func (r *apiReader) walk(v any, parent string) {
	switch t := v.(type) {
	case []any:
		for _, x := range t {
			r.walk(x, parent)
		}
	case map[string]any:
		c, ok := r.comment(t)
		if !ok {
			for _, k := range slices.Sorted(maps.Keys(t)) {
				r.walk(t[k], parent)
			}
			return
		}
		if !r.seen[c.ID] {
			r.seen[c.ID] = true
			r.out = append(r.out, c)
			r.parents[c.ID] = append(scalars(lowerKeys(t), parentKeys), parent)
		}
		for _, k := range slices.Sorted(maps.Keys(t)) {
			if _, isList := t[k].([]any); isList && !textKeys[strings.ToLower(k)] {
				r.walk(t[k], c.ID) // replies
			}
		}
	}
}

// JSON keys, lower-cased, of a comment's parts.
var (
	textKeys   = keySet("comment", "content", "text", "body", "message", "html", "content_html", "contenthtml", "body_html", "bodyhtml", "rendered")
	authorKeys = []string{"nick", "nickname", "author_name", "authorname", "display_name", "displayname", "author", "name", "screen_name", "username", "user_name"}
	userKeys   = keySet("user", "author", "commenter", "member", "owner", "profile")
	dateKeys   = keySet("created", "created_at", "createdat", "insertedat", "inserted_at", "time", "date", "published", "published_at", "publishedat", "timestamp", "posted", "posted_at", "postedat", "datetime", "ctime")
	idKeys     = []string{"objectid", "id", "_id", "cid", "comment_id", "commentid", "uuid", "key"}
	// parentKeys: the comment answered first (a service that shows
	// replies flat under their thread's first comment names both, as
	// in_reply_to_id and parent_id), then the thread's parent.
	parentKeys = []string{"in_reply_to_id", "inreplytoid", "in_reply_to", "inreplyto", "reply_to_id", "replytoid", "reply_to", "replyto",
		"pid", "parent", "parent_id", "parentid", "parentcomment"}
	pageKeys = keySet("url", "path", "page", "uri", "locator", "post_url", "posturl")
)

func keySet(keys ...string) map[string]bool {
	m := make(map[string]bool, len(keys))
	for _, k := range keys {
		m[k] = true
	}
	return m
}

// comment reads o as a comment: a text and an author or a date; false
// when o is none, or names another page than the one rendered.
func (r *apiReader) comment(o map[string]any) (Comment, bool) {
	low := lowerKeys(o)
	var c Comment
	for k, v := range low {
		s, ok := v.(string)
		if !ok || !textKeys[k] || len(strings.TrimSpace(s)) == 0 {
			continue
		}
		if len(s) > len(c.ContentHTML) {
			c.ContentHTML = s
		}
	}
	if c.ContentHTML == "" {
		return Comment{}, false
	}
	if !strings.Contains(c.ContentHTML, "<") {
		c.ContentHTML = "<p>" + stdhtml.EscapeString(c.ContentHTML) + "</p>"
	}
	c.ContentText = textsim.HTMLText(c.ContentHTML)
	c.Author = apiAuthor(low)
	c.Date, c.DatePrecision = apiDate(low)
	if c.Author == "" && c.Date.IsZero() || strings.TrimSpace(c.ContentText) == "" {
		return Comment{}, false
	}
	for k, v := range low {
		if pageKeys[k] && r.otherPage(v) {
			return Comment{}, false
		}
	}
	c.ID = firstScalar(low, idKeys)
	if c.ID == "" {
		c.ID = digestID(c.Author, c.ContentText)
	}
	return c, true
}

// apiAuthor returns the author's name of a comment object (keys
// lower-cased): a name key of its own, else of a nested user object.
func apiAuthor(o map[string]any) string {
	if a := nameOf(o); a != "" {
		return a
	}
	for _, k := range slices.Sorted(maps.Keys(o)) {
		if u, ok := o[k].(map[string]any); ok && userKeys[k] {
			low := make(map[string]any, len(u))
			for uk, uv := range u {
				low[strings.ToLower(uk)] = uv
			}
			if a := nameOf(low); a != "" {
				return a
			}
		}
	}
	return ""
}

// nameOf returns the first name-like string of o under an author key, in
// the order of authorKeys.
func nameOf(o map[string]any) string {
	for _, k := range authorKeys {
		if s, ok := o[k].(string); ok && isName(strings.TrimSpace(stdhtml.UnescapeString(s))) {
			return textsim.CleanAuthor(stdhtml.UnescapeString(s))
		}
	}
	return ""
}

// apiDate returns the date of a comment object (keys lower-cased): an ISO
// 8601 or RFC 1123 string, or a Unix time in seconds or milliseconds
// between 1995 and 2100, under a date key.
func apiDate(o map[string]any) (time.Time, blogharvest.Precision) {
	for _, k := range slices.Sorted(maps.Keys(o)) {
		if !dateKeys[k] {
			continue
		}
		switch v := o[k].(type) {
		case string:
			if t, p, ok := parseMachineDatePrec(v); ok {
				return t, p
			}
			if n, err := strconv.ParseFloat(v, 64); err == nil {
				if t, ok := unixTime(n); ok {
					return t, blogharvest.PrecisionSecond
				}
			}
		case json.Number:
			if n, err := v.Float64(); err == nil {
				if t, ok := unixTime(n); ok {
					return t, blogharvest.PrecisionSecond
				}
			}
		}
	}
	return time.Time{}, ""
}

// unixTime reads n as Unix seconds or milliseconds of a plausible comment
// date.
func unixTime(n float64) (time.Time, bool) {
	lo, hi := float64(time.Date(1995, 1, 1, 0, 0, 0, 0, time.UTC).Unix()), float64(time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC).Unix())
	switch {
	case n >= lo && n < hi:
		sec, frac := math.Modf(n)
		return time.Unix(int64(sec), int64(frac*1e9)).UTC(), true
	case n >= lo*1000 && n < hi*1000:
		return time.UnixMilli(int64(n)).UTC(), true
	}
	return time.Time{}, false
}

// lowerKeys returns o with its keys lower-cased.
func lowerKeys(o map[string]any) map[string]any {
	low := make(map[string]any, len(o))
	for k, v := range o {
		low[strings.ToLower(k)] = v
	}
	return low
}

// scalars returns the values of keys that o holds as a non-empty,
// non-zero string or number, in the order of keys.
func scalars(o map[string]any, keys []string) []string {
	var out []string
	for _, k := range keys {
		if s := firstScalar(o, []string{k}); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// firstScalar returns the first of keys that o holds as a string or a
// number, as a string; "" when none (or the value is zero or empty: a
// top-level comment's parent is often 0 or null).
func firstScalar(o map[string]any, keys []string) string {
	for _, k := range keys {
		switch v := o[k].(type) {
		case string:
			if s := strings.TrimSpace(v); s != "" && s != "0" {
				return s
			}
		case json.Number:
			if s := v.String(); s != "0" {
				return s
			}
		}
	}
	return ""
}

// otherPage reports whether v, a comment object's page key, names a page
// other than the one rendered: an absolute URL or a path that differs in
// its path (trailing slash and index file aside).
func (r *apiReader) otherPage(v any) bool {
	s, ok := v.(string)
	if !ok || r.page == nil || s == "" {
		return false
	}
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || u.Path == "" || u.Host == "" && !strings.HasPrefix(u.Path, "/") {
		return false // not a URL or path: an avatar name, a title
	}
	if u.Host != "" && !strings.EqualFold(u.Host, r.page.Host) {
		return strings.HasPrefix(u.Scheme, "http") && !strings.Contains(strings.ToLower(s), strings.ToLower(r.page.Host))
	}
	return samePath(u.Path) != samePath(r.page.Path)
}

// samePath is a path without a trailing slash or index file.
func samePath(p string) string {
	p = strings.TrimSuffix(strings.TrimSuffix(p, "index.html"), "/")
	if q, err := url.PathUnescape(p); err == nil {
		p = q
	}
	return p
}
