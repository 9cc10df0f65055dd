package comments

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"unicode"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/render"
)

// This file reads a rendered page's comment threads whole. A comment app
// often gives part of a thread (three replies of a comment, the first
// page of comments) and the rest only when a reader presses "more": the
// render presses the app's own controls (render's "load more" table and
// labels, as "Show 2 more replies"), and what that leaves, the crawl
// reads from the API the way the app does. The JSON answers the page's
// scripts fetched and the page shows (learn.APIComments) are read for
// what they say is left (learn.ReadAPIMore): a next page (a next link,
// a page number, a cursor) is asked for at the same URL with the page or
// cursor set; the further replies of a comment whose stated reply count
// exceeds the replies given at the link the comment names, or at the
// app's own replies endpoint, learned from an answer the app fetched for
// another comment during the render (its URL holds that comment's id, and
// maybe the id of its last reply given: both are filled in for the next
// comment). Every request goes to the origin of the answer it continues
// (an origin the page's scripts already used), passes the browser's scope
// decision (Deps.Scope) and is archived with the entry (role
// comment-feed); an answer that adds no comment ends its chain. The
// post's comment bounds hold: max_comments_per_post (no request once the
// thread holds that many, and no record past it), max_comments_per_answer
// (a longer answer is not read), max_comment_answer_bytes (per answer)
// and max_comment_bytes (all answers). What stays unread of what the
// answers state goes to the ledger's comments column (NoteThreadShort).

// More is what FollowThreads read for one rendered page.
type More struct {
	Answers []learn.MoreAnswer // the answers read, for learn.APICommentsMore
	Files   []blogharvest.File // the same, archived with the entry
	replies []learn.APIReplies // every comment an answer gave in part, by the largest count stated
	left    int                // next pages and reply lists the answers named and were not read
	unknown int                // comments with unread replies at no endpoint known
	cut     string             // the bound that stopped the reading; "" when none did
	asked   int                // requests made
}

// threadAnswer is an answer holding comments: one the page fetched, or one
// read following it.
type threadAnswer struct {
	url    string
	more   learn.APIMore
	parent string // the comment whose replies it holds; "" when unknown or none
}

// FollowThreads reads what the comment API answers of the rendered page
// res say is left of their threads (see the file comment).
func (s *Stage) FollowThreads(ctx context.Context, res *render.Result, lang string) More {
	var tm More
	pages := RenderedPages(res, lang)
	asked := map[string]bool{}   // URLs fetched by the page or here
	origins := map[string]bool{} // origins the page's scripts fetched JSON from
	var got []threadAnswer
	have := map[string]bool{} // comment ids read
	for _, a := range res.API {
		if a.Method != "" && a.Method != http.MethodGet || a.Status != http.StatusOK {
			continue
		}
		asked[answerKey(a.URL)] = true
		if u, err := url.Parse(a.URL); err == nil {
			origins[strings.ToLower(u.Scheme+"://"+u.Host)] = true
		}
		m := learn.ReadAPIMore(a.Body)
		if len(m.Comments) == 0 || len(learn.APIComments([][]byte{a.Body}, pages)) == 0 {
			continue
		}
		got = append(got, threadAnswer{url: a.URL, more: m})
		for _, id := range m.Comments {
			have[id] = true
		}
	}
	if len(got) == 0 {
		return tm
	}
	templates := replyTemplates(got)
	for k := range got {
		got[k].parent = repliesOf(got, got[k])
	}
	type pending struct{ url, parent string }
	var queue []pending
	next := func(a threadAnswer) {
		if u := nextPageURL(a.url, a.more); u != "" && !asked[answerKey(u)] {
			queue = append(queue, pending{u, a.parent})
		}
		for _, r := range a.more.Replies {
			tm.noteReplies(r)
			if repliesAsked(got, r.ID) {
				continue
			}
			u := r.URL
			if u != "" {
				u = resolveRef(a.url, u)
			} else {
				u = fillTemplate(templates, r)
			}
			switch {
			case u == "":
				tm.unknown++
			case !asked[answerKey(u)]:
				queue = append(queue, pending{u, r.ID})
			}
		}
	}
	for _, a := range got {
		next(a)
	}
	lim := s.cfg.Limits
	var read int64
	for len(queue) > 0 && ctx.Err() == nil {
		p := queue[0]
		queue = queue[1:]
		if asked[answerKey(p.url)] {
			continue
		}
		switch {
		case len(have) >= lim.MaxComments:
			tm.cut = fmt.Sprintf("max_comments_per_post %d reached", lim.MaxComments)
		case read >= lim.MaxBytes:
			tm.cut = fmt.Sprintf("max_comment_bytes %d reached", lim.MaxBytes)
		}
		if tm.cut != "" {
			tm.left += 1 + len(queue)
			break
		}
		asked[answerKey(p.url)] = true
		if !s.threadTarget(origins, p.url) {
			tm.left++
			continue
		}
		tm.asked++
		resp, err := s.d.API.Do(ctx, fetch.Request{URL: p.url, Accept: "application/json", Kind: fetch.Subresource, MaxBody: lim.AnswerBytes})
		if err != nil {
			tm.left++
			if errors.Is(err, blogharvest.ErrTooLarge) {
				tm.cut = fmt.Sprintf("an answer over max_comment_answer_bytes %d", lim.AnswerBytes)
			}
			s.d.Log.Info("comment thread: more not read", "url", p.url, "err", err)
			continue
		}
		tm.Files = append(tm.Files, resp.File(blogharvest.RoleCommentFeed))
		read += int64(len(resp.Body))
		m := learn.ReadAPIMore(resp.Body)
		if len(m.Comments) > lim.PerAnswer {
			tm.left++
			tm.cut = fmt.Sprintf("an answer of %d comments over max_comments_per_answer %d", len(m.Comments), lim.PerAnswer)
			continue
		}
		added := 0
		for _, id := range m.Comments {
			if !have[id] {
				have[id] = true
				added++
			}
		}
		if added == 0 {
			continue // the end of its chain
		}
		a := threadAnswer{url: p.url, more: m, parent: p.parent}
		got = append(got, a)
		tm.Answers = append(tm.Answers, learn.MoreAnswer{Body: resp.Body, Parent: p.parent})
		next(a)
	}
	if tm.asked > 0 {
		s.d.Log.Info("comment thread: read more from its API", "url", pages[0].URL, "requests", tm.asked, "comments", len(have), "cut", tm.cut)
	}
	return tm
}

// noteReplies keeps r, the largest stated count per comment.
func (tm *More) noteReplies(r learn.APIReplies) {
	for k := range tm.replies {
		if tm.replies[k].ID == r.ID {
			tm.replies[k].Stated = max(tm.replies[k].Stated, r.Stated)
			return
		}
	}
	tm.replies = append(tm.replies, r)
}

// threadTarget reports whether the crawl may ask u for more of a thread:
// an origin the page's scripts fetched JSON from, and the browser's scope
// decision.
func (s *Stage) threadTarget(origins map[string]bool, u string) bool {
	t, err := url.Parse(u)
	if err != nil || !origins[strings.ToLower(t.Scheme+"://"+t.Host)] {
		s.d.Log.Info("comment thread: more not asked: an origin the page's scripts did not use", "url", u)
		return false
	}
	if !s.d.Scope.MayLoad(u) {
		s.d.Log.Info("comment thread: more not asked: out of the browser's scope", "url", u)
		return false
	}
	return true
}

// repliesOf returns the comment whose replies the answer a holds: one an
// answer gave in part whose id a's URL names (and a does not hold); ""
// when none.
func repliesOf(got []threadAnswer, a threadAnswer) string {
	for _, b := range got {
		for _, r := range b.more.Replies {
			if len(r.ID) >= 3 && containsToken(a.url, r.ID) && !slices.Contains(a.more.Comments, r.ID) {
				return r.ID
			}
		}
	}
	return ""
}

// nextPageURL returns the URL of the next page an answer at raw names
// (m): its next link, else raw with its page number or cursor set; ""
// when none.
func nextPageURL(raw string, m learn.APIMore) string {
	switch {
	case m.Next != "":
		return resolveRef(raw, m.Next)
	case m.NextPage > 0:
		return withParam(raw, pageParam(raw), fmt.Sprint(m.NextPage))
	case m.Cursor != "":
		return withParam(raw, cursorParam(raw, m.CursorKey), m.Cursor)
	}
	return ""
}

// pageParam is the query parameter of a page number in raw: one it holds
// (page, p, pg), else page.
func pageParam(raw string) string {
	if u, err := url.Parse(raw); err == nil {
		q := u.Query()
		for _, k := range []string{"page", "p", "pg", "pagenum", "page_number"} {
			if q.Has(k) {
				return k
			}
		}
	}
	return "page"
}

// cursorParam is the query parameter of a cursor in raw: one it holds
// (cursor, after, page_token, …), else one named after the answer's key.
func cursorParam(raw, key string) string {
	if u, err := url.Parse(raw); err == nil {
		q := u.Query()
		for _, k := range []string{"cursor", "after", "page_token", "pageToken", "continuation", "next", "token", "start_cursor"} {
			if q.Has(k) {
				return k
			}
		}
	}
	switch k := strings.ToLower(key); {
	case k == "after", k == "continuation":
		return k
	case strings.Contains(k, "token"):
		return "page_token"
	}
	return "cursor"
}

// withParam returns raw with its query parameter key set to v.
func withParam(raw, key, v string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	q := u.Query()
	q.Set(key, v)
	u.RawQuery = q.Encode()
	return u.String()
}

// answerKey is raw with its query parameters in order, so that the same
// request written two ways is asked for once.
func answerKey(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	u.RawQuery, u.Fragment = u.Query().Encode(), ""
	return u.String()
}

// resolveRef resolves ref against base; "" when either does not parse.
func resolveRef(base, ref string) string {
	b, err := url.Parse(base)
	if err != nil {
		return ""
	}
	r, err := url.Parse(strings.TrimSpace(ref))
	if err != nil {
		return ""
	}
	return b.ResolveReference(r).String()
}

// Markers of a replies endpoint template (replyTemplates).
const (
	idMark   = "\x00id\x00"
	lastMark = "\x00last\x00"
)

// replyTemplates returns the app's replies endpoints learned from the
// answers the page fetched: an answer whose URL names a comment another
// answer gave in part (and not holding that comment itself) is that
// comment's replies, its URL the template, with the id of the last reply
// given marked too when it holds it.
func replyTemplates(got []threadAnswer) []string {
	var out []string
	for _, a := range got {
		for _, b := range got {
			for _, r := range b.more.Replies {
				if len(r.ID) < 3 || !containsToken(a.url, r.ID) || slices.Contains(a.more.Comments, r.ID) {
					continue
				}
				t := a.url
				if len(r.Last) >= 3 {
					t = replaceToken(t, r.Last, lastMark)
				}
				t = replaceToken(t, r.ID, idMark)
				if !slices.Contains(out, t) {
					out = append(out, t)
				}
			}
		}
	}
	return out
}

// fillTemplate returns the replies URL of r by the first template it
// fills (one naming the last reply needs r to give one); "" when none.
func fillTemplate(templates []string, r learn.APIReplies) string {
	for _, t := range templates {
		if strings.Contains(t, lastMark) && r.Last == "" {
			continue
		}
		return strings.ReplaceAll(strings.ReplaceAll(t, idMark, url.PathEscape(r.ID)), lastMark, url.PathEscape(r.Last))
	}
	return ""
}

// repliesAsked reports whether an answer read names comment id in its
// URL: the comment's replies were asked for (their own paging follows).
func repliesAsked(got []threadAnswer, id string) bool {
	for _, a := range got {
		if a.parent == id || len(id) >= 3 && containsToken(a.url, id) && !slices.Contains(a.more.Comments, id) {
			return true
		}
	}
	return false
}

// containsToken reports whether s holds tok between characters that are
// neither letters nor digits (or its ends).
func containsToken(s, tok string) bool { return len(tokenAt(s, tok)) > 0 }

// replaceToken replaces the occurrences of tok in s that are tokens
// (containsToken) by mark.
func replaceToken(s, tok, mark string) string {
	at := tokenAt(s, tok)
	for k := len(at) - 1; k >= 0; k-- {
		s = s[:at[k]] + mark + s[at[k]+len(tok):]
	}
	return s
}

// tokenAt returns the offsets of the occurrences of tok in s between
// characters that are neither letters nor digits (an escape such as %27
// before it counts as such a character).
func tokenAt(s, tok string) []int {
	var out []int
	for from := 0; tok != "" && from < len(s); {
		k := strings.Index(s[from:], tok)
		if k < 0 {
			break
		}
		k += from
		before, after := rune(0), rune(0)
		if k > 0 && !(k >= 3 && s[k-3] == '%') {
			before = rune(s[k-1])
		}
		if e := k + len(tok); e < len(s) {
			after = rune(s[e])
		}
		if !isAlnum(before) && !isAlnum(after) {
			out = append(out, k)
		}
		from = k + 1
	}
	return out
}

func isAlnum(r rune) bool { return r != 0 && (unicode.IsLetter(r) || unicode.IsDigit(r)) }

// NoteThreadShort records in the ledger, and in the entry's problems,
// what the comment API answers of a rendered page state and the entry
// lacks: replies of the comments read beyond those archived, next pages
// not read, and the bound that stopped the reading.
func (s *Stage) NoteThreadShort(e *blogharvest.Entry, tm More, comments []learn.Comment) {
	parent := make(map[string]string, len(comments))
	for _, c := range comments {
		parent[c.ID] = c.ParentID
	}
	missing, short := 0, 0
	for _, r := range tm.replies {
		if _, ok := parent[r.ID]; !ok {
			continue // not read from the API: nothing to compare
		}
		n := 0
		for _, c := range comments {
			if descends(parent, c.ID, r.ID) {
				n++
			}
		}
		if r.Stated > n {
			missing += r.Stated - n
			short++
		}
	}
	if missing == 0 && tm.left == 0 {
		return
	}
	var parts []string
	if missing > 0 {
		parts = append(parts, fmt.Sprintf("its comment API states %d replies more than archived, of %d comments", missing, short))
	}
	if tm.left > 0 {
		parts = append(parts, fmt.Sprintf("%d further answers it names not read", tm.left))
	}
	if tm.unknown > 0 {
		parts = append(parts, fmt.Sprintf("no replies endpoint known for %d comments", tm.unknown))
	}
	if tm.cut != "" {
		parts = append(parts, "reading stopped: "+tm.cut)
	}
	note := strings.Join(parts, "; ")
	s.d.Ledger.Shortfall(e.URL, note)
	e.Problems = append(e.Problems, "comments short: "+note)
	s.d.Log.Info("comments short", "url", e.URL, "missing", missing, "unread answers", tm.left, "cut", tm.cut)
}

// descends reports whether comment id lies under ancestor by the parent
// links (bounded against cycles).
func descends(parent map[string]string, id, ancestor string) bool {
	for k := 0; k < 64; k++ {
		p, ok := parent[id]
		if !ok || p == "" {
			return false
		}
		if p == ancestor {
			return true
		}
		id = p
	}
	return false
}

// RenderedPages returns the rendered page and its frames' documents.
func RenderedPages(res *render.Result, lang string) []learn.Page {
	pages := []learn.Page{{URL: firstNonEmpty(res.FinalURL, res.URL), HTML: res.HTML, Lang: lang}}
	for _, f := range res.Frames {
		pages = append(pages, learn.Page{URL: f.URL, HTML: f.HTML, Lang: lang})
	}
	return pages
}
