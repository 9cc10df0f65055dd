package learn

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// This file reads what one JSON answer of a comment API says of its
// thread beyond the records it holds, so that the crawl can read the rest
// the way the app does when a reader presses "more" (harvest's
// threadmore.go): a next page of the answer (a next link, a page number
// below the pages a pagination object states, a cursor), and comments
// whose stated reply count (count.replies, reply_count, a replies object's
// total, …) exceeds the replies the answer gives. Keys are matched
// lower-cased; nothing here knows one service from another.

// APIMore is what one comment API answer says is left to read.
type APIMore struct {
	// Comments are the ids of the comment records the answer holds, in
	// order (the ids APIComments gives them).
	Comments []string
	// Next is the answer's next page as a link (absolute, root-relative
	// or a query "?…") under a next key; "" when none.
	Next string
	// NextPage is the number of the answer's next page (a pagination
	// object's next, or its page plus one below its pages); 0 when none.
	NextPage int
	// CursorKey and Cursor are a cursor the answer gives for its next
	// page (next_cursor, endCursor, a next that is no link, …); "" when
	// none.
	CursorKey, Cursor string
	// Done is set when the answer says there is nothing more (has_more,
	// hasNextPage, … false): Next, NextPage and Cursor are then empty.
	Done bool
	// Replies are the comments whose stated reply count exceeds the
	// replies the answer gives them.
	Replies []APIReplies
}

// More reports whether the answer names a next page.
func (m APIMore) More() bool { return m.Next != "" || m.NextPage > 0 || m.Cursor != "" }

// APIReplies is a comment whose replies an answer gives in part.
type APIReplies struct {
	ID     string // the comment's id
	Stated int    // the replies the answer says it has
	Given  int    // the replies the answer gives (direct ones)
	Last   string // the id of the last reply given; "" when none
	// URL is a link to its (further) replies the comment names
	// (replies_url, a replies object's next, …); "" when none.
	URL string
}

// JSON keys, lower-cased, of what an answer says is left.
var (
	nextLinkKeys = keySet("next", "next_url", "nexturl", "next_page_url", "nextpageurl", "next_link", "nextlink", "next_href", "nexthref", "next_page", "nextpage")
	cursorKeys   = []string{"next_cursor", "nextcursor", "end_cursor", "endcursor", "next_page_token", "nextpagetoken", "next_token", "nexttoken", "continuation", "cursor", "after"}
	hasMoreKeys  = keySet("has_more", "hasmore", "has_next", "hasnext", "has_next_page", "hasnextpage", "more")
	pageNowKeys  = []string{"page", "current_page", "currentpage", "page_number", "pagenumber"}
	pagesKeys    = []string{"pages", "total_pages", "totalpages", "last_page", "lastpage", "page_count", "pagecount", "num_pages", "numpages"}
	// replyCountKeys: a comment's stated replies; countObjectKeys hold
	// an object of counts whose replyCountNames key is the replies.
	replyCountKeys  = []string{"reply_count", "replies_count", "replycount", "repliescount", "num_replies", "numreplies", "total_replies", "totalreplies", "children_count", "childrencount", "child_count", "childcount", "replies"}
	countObjectKeys = keySet("count", "counts", "_count", "stats", "statistics")
	replyCountNames = []string{"replies", "reply", "children", "responses", "answers"}
	// replyURLKeys: a link to a comment's replies.
	replyURLKeys = []string{"replies_url", "repliesurl", "replies_href", "replieshref", "replies_link", "replieslink", "more_replies_url", "children_url", "childrenurl", "more_url", "moreurl", "next_url", "nexturl"}
	// totalKeys: a replies object's stated size.
	totalKeys = []string{"total", "total_count", "totalcount", "count"}
)

// ReadAPIMore reads what a comment API answer (JSON) says is left of its
// thread; the zero APIMore when it is no JSON or holds no comment.
func ReadAPIMore(body []byte) APIMore {
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return APIMore{}
	}
	m := &moreReader{r: apiReader{seen: map[string]bool{}, parents: map[string][]string{}}}
	m.walk(v)
	out := m.out
	if len(out.Comments) == 0 {
		return APIMore{}
	}
	if m.done {
		out.Next, out.NextPage, out.CursorKey, out.Cursor, out.Done = "", 0, "", "", true
	}
	return out
}

// moreReader walks an answer for ReadAPIMore.
type moreReader struct {
	r    apiReader // reads comment objects (no page: none names another)
	out  APIMore
	done bool // a has-more key said false
}

// walk visits v outside any comment: comment objects are read as such,
// other objects for the answer's paging keys.
func (m *moreReader) walk(v any) {
	switch t := v.(type) {
	case []any:
		for _, x := range t {
			m.walk(x)
		}
	case map[string]any:
		if c, ok := m.r.comment(t); ok {
			m.comment(c.ID, t)
			return
		}
		m.paging(lowerKeys(t))
		for _, k := range slices.Sorted(maps.Keys(t)) {
			m.walk(t[k])
		}
	}
}

// comment notes the comment object o (its id id) and its replies, and
// visits the comments nested in it.
func (m *moreReader) comment(id string, o map[string]any) {
	if slices.Contains(m.out.Comments, id) {
		return
	}
	m.out.Comments = append(m.out.Comments, id)
	low := lowerKeys(o)
	rep := APIReplies{ID: id}
	for _, k := range slices.Sorted(maps.Keys(low)) {
		switch v := low[k].(type) {
		case []any:
			if textKeys[k] {
				continue
			}
			for _, x := range v {
				if xo, ok := x.(map[string]any); ok {
					if c, ok := m.r.comment(xo); ok {
						rep.Given++
						rep.Last = c.ID
						m.comment(c.ID, xo)
					}
				}
			}
		case map[string]any:
			inner := lowerKeys(v)
			switch {
			case countObjectKeys[k]:
				if n, ok := firstInt(inner, replyCountNames); ok {
					rep.Stated = max(rep.Stated, n)
				}
			case slices.Contains(replyCountNames, k) || k == "comments":
				// A replies object: its list, its total, its next page.
				for _, lk := range slices.Sorted(maps.Keys(inner)) {
					if list, ok := inner[lk].([]any); ok {
						for _, x := range list {
							if xo, ok := x.(map[string]any); ok {
								if c, ok := m.r.comment(xo); ok {
									rep.Given++
									rep.Last = c.ID
									m.comment(c.ID, xo)
								}
							}
						}
					}
				}
				if n, ok := firstInt(inner, totalKeys); ok {
					rep.Stated = max(rep.Stated, n)
				}
				if u := linkUnder(inner, nextLinkKeys); u != "" && rep.URL == "" {
					rep.URL = u
				}
			}
		}
	}
	if n, ok := firstInt(low, replyCountKeys); ok {
		rep.Stated = max(rep.Stated, n)
	}
	for _, k := range replyURLKeys {
		if s, ok := low[k].(string); ok && isLink(s) && rep.URL == "" {
			rep.URL = strings.TrimSpace(s)
		}
	}
	if rep.Stated > rep.Given || rep.URL != "" && rep.Stated == 0 && rep.Given == 0 {
		m.out.Replies = append(m.out.Replies, rep)
	}
}

// paging reads the paging keys of a non-comment object o (keys
// lower-cased): has-more flags, next links, page numbers, cursors.
func (m *moreReader) paging(o map[string]any) {
	for k := range hasMoreKeys {
		if b, ok := o[k].(bool); ok && !b {
			m.done = true
		}
	}
	for _, k := range slices.Sorted(maps.Keys(o)) {
		if !nextLinkKeys[k] {
			continue
		}
		switch v := o[k].(type) {
		case string:
			s := strings.TrimSpace(v)
			switch n, err := strconv.Atoi(s); {
			case s == "":
			case err == nil && n > 0:
				m.nextPage(n)
			case isLink(s):
				if m.out.Next == "" {
					m.out.Next = s
				}
			case k == "next" && m.out.Cursor == "":
				m.out.CursorKey, m.out.Cursor = k, s // an opaque next token
			}
		case json.Number:
			if n, err := strconv.Atoi(v.String()); err == nil && n > 0 {
				m.nextPage(n)
			}
		case map[string]any:
			if u := linkUnder(lowerKeys(v), keySet("href", "url", "link")); u != "" && m.out.Next == "" {
				m.out.Next = u // HAL and JSON:API links: {"next": {"href": …}}
			}
		}
	}
	if now, ok := firstInt(o, pageNowKeys); ok {
		if pages, ok := firstInt(o, pagesKeys); ok && now < pages {
			m.nextPage(now + 1)
		}
	}
	if m.out.Cursor == "" {
		for _, k := range cursorKeys {
			if s := firstScalar(o, []string{k}); s != "" && s != "null" {
				m.out.CursorKey, m.out.Cursor = k, s
				break
			}
		}
	}
}

// nextPage notes page n as the answer's next page (the first one named).
func (m *moreReader) nextPage(n int) {
	if m.out.NextPage == 0 {
		m.out.NextPage = n
	}
}

// firstInt returns the first of keys o holds as a whole number (or a
// string of one) of 0 or more.
func firstInt(o map[string]any, keys []string) (int, bool) {
	for _, k := range keys {
		switch v := o[k].(type) {
		case json.Number:
			if n, err := strconv.Atoi(v.String()); err == nil && n >= 0 {
				return n, true
			}
		case string:
			if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n >= 0 {
				return n, true
			}
		}
	}
	return 0, false
}

// linkUnder returns the first link (isLink) o holds under one of keys.
func linkUnder(o map[string]any, keys map[string]bool) string {
	for _, k := range slices.Sorted(maps.Keys(o)) {
		if s, ok := o[k].(string); ok && keys[k] && isLink(s) {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

// isLink reports whether s reads as a link to a next page: an http(s)
// URL, a root-relative path or a query.
func isLink(s string) bool {
	s = strings.TrimSpace(s)
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://") ||
		strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "//") || strings.HasPrefix(s, "?")
}
