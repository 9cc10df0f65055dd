package feed

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/platform"
)

// This file reads a platform's comments REST endpoint
// (platform.Platform.CommentsAPI): the comments of one post as JSON
// objects, page after page, with their ids and the ids of the comments
// they answer. The crawl asks it only after the post's own comment feed,
// when the blog states more comments than that feed holds (a WordPress
// comment feed lists the newest posts_per_rss comments only).

// PostID returns the platform's id of a post (the last group of
// platform.Platform.PostID) found in its GUID or, failing that, in its
// shortlink; "" when neither holds one.
func PostID(p platform.Platform, guid, shortlink string) string {
	if p.PostID == "" {
		return ""
	}
	re := postIDPattern(p.PostID)
	for _, s := range []string{guid, shortlink} {
		if m := re.FindStringSubmatch(s); len(m) >= 2 && m[len(m)-1] != "" {
			return m[len(m)-1]
		}
	}
	return ""
}

// CommentsAPIURL returns the URL of page n of the platform's comments
// REST endpoint for the post with the given id on the blog whose home is
// site; "" when the platform has none or the id is unknown.
func CommentsAPIURL(p platform.Platform, site, postID string, n int) string {
	if p.CommentsAPI == "" || postID == "" || site == "" {
		return ""
	}
	if !strings.HasSuffix(site, "/") {
		site += "/"
	}
	r := strings.NewReplacer("{site}", site, "{postid}", url.QueryEscape(postID), "{page}", strconv.Itoa(n))
	return r.Replace(p.CommentsAPI)
}

// FetchCommentsAPI reads every page of the post's comments from the
// platform's REST endpoint (CommentsAPIURL), until a page is empty, adds
// no comment, is past the total the server announces (X-WP-TotalPages),
// is refused (a 400 past the last page) or a bound of lim is reached
// (the comments or bytes of the post, the comments of one answer): cut
// says which. Each answer is read element by element, never held parsed
// whole. The files are the pages' responses, each a RoleCommentFeed
// capture (JSON); every comment keeps its own object in Raw. An endpoint
// the blog does not have (404/410 on the first page) yields nothing and
// no error.
func FetchCommentsAPI(ctx context.Context, c *fetch.Client, p platform.Platform, site, postID string, lim CommentLimits) (all []Comment, files []blogharvest.File, cut Cut, err error) {
	lim = lim.withDefaults()
	seen := map[string]bool{}
	var read int64
	partial := false // an answer was read in part (CommentLimits.PerAnswer)
	for n := 1; ; n++ {
		u := CommentsAPIURL(p, site, postID, n)
		if u == "" {
			return nil, nil, cut, nil
		}
		resp, err := c.Do(ctx, fetch.Request{URL: u, Accept: "application/json", MaxBody: lim.AnswerBytes})
		if err != nil {
			var se *fetch.StatusError
			switch {
			case errors.Is(err, blogharvest.ErrTooLarge):
				cut.Reason = cutReason(partial, lim.PerAnswer, fmt.Sprintf("answer %d over max_comment_answer_bytes %d: not read", n, lim.AnswerBytes))
				return resolveAPIParents(all), files, cut, nil
			case n == 1 && isNotFound(err):
				return nil, nil, cut, nil
			case n > 1 && errors.As(err, &se) && se.Code == http.StatusBadRequest:
				return resolveAPIParents(all), files, cut, nil // WordPress: rest_post_invalid_page_number
			}
			return resolveAPIParents(all), files, cut, fmt.Errorf("comments API %s: %w", u, err)
		}
		files = append(files, resp.File(blogharvest.RoleCommentFeed))
		cut.Answers++
		read += int64(len(resp.Body))
		room := min(lim.PerAnswer, lim.MaxComments-len(all))
		cs, more, err := parseCommentsAPI(resp.Body, p.CommentsAPIFields, room)
		if err != nil {
			return resolveAPIParents(all), files, cut, fmt.Errorf("comments API %s: %w", u, err)
		}
		added := 0
		for _, cm := range cs {
			if !seen[cm.ID] {
				seen[cm.ID] = true
				all = append(all, cm)
				added++
			}
		}
		total, _ := strconv.Atoi(resp.Header.Get("X-WP-TotalPages"))
		last := added == 0 || total > 0 && n >= total
		stop := ""
		switch {
		case more && room < lim.PerAnswer, !last && len(all) >= lim.MaxComments:
			stop = fmt.Sprintf("max_comments_per_post %d reached", lim.MaxComments)
		case more:
			partial = true
		}
		if stop == "" && !last && read >= lim.MaxBytes {
			stop = fmt.Sprintf("max_comment_bytes %d reached", lim.MaxBytes)
		}
		cut.Reason = cutReason(partial, lim.PerAnswer, stop)
		if last || len(all) >= lim.MaxComments || read >= lim.MaxBytes {
			break
		}
	}
	return resolveAPIParents(all), files, cut, nil
}

// cutReason says what the bounds left out: answers read in part (over
// perAnswer comments), the bound that stopped the paging (stop).
func cutReason(partial bool, perAnswer int, stop string) string {
	var parts []string
	if partial {
		parts = append(parts, fmt.Sprintf("answers holding more than max_comments_per_answer %d read in part", perAnswer))
	}
	if stop != "" {
		parts = append(parts, stop)
	}
	return strings.Join(parts, "; ")
}

// ParseCommentsAPI reads one answer of a comments REST endpoint: a JSON
// array of comment objects whose members fields names. A comment's ID is
// its permalink when it has one (as a comment feed's GUID is), else the
// platform's id; InReplyTo is still the platform's id of the parent here
// (FetchCommentsAPI resolves it).
func ParseCommentsAPI(body []byte, fields platform.APIFields) ([]Comment, error) {
	cs, _, err := parseCommentsAPI(body, fields, math.MaxInt)
	return cs, err
}

// parseCommentsAPI is ParseCommentsAPI reading at most max comments, one
// array element at a time; more says the array holds more.
func parseCommentsAPI(body []byte, fields platform.APIFields, max int) (out []Comment, more bool, err error) {
	d := json.NewDecoder(bytes.NewReader(body))
	if tok, err := d.Token(); err != nil || tok != json.Delim('[') {
		if err == nil {
			err = fmt.Errorf("starts with %v", tok)
		}
		return nil, false, fmt.Errorf("not a JSON array of comments: %w", err)
	}
	for i := 0; d.More(); i++ {
		if len(out) >= max {
			return out, true, nil
		}
		var r json.RawMessage
		if err := d.Decode(&r); err != nil {
			return nil, false, fmt.Errorf("not a JSON array of comments: %w", err)
		}
		c, err := apiComment(r, fields, i)
		if err != nil {
			return nil, false, err
		}
		out = append(out, c)
	}
	if _, err := d.Token(); err != nil {
		return nil, false, fmt.Errorf("not a JSON array of comments: %w", err)
	}
	return out, false, nil
}

// apiComment reads the i-th comment object r of an answer.
func apiComment(r json.RawMessage, fields platform.APIFields, i int) (Comment, error) {
	d := json.NewDecoder(bytes.NewReader(r))
	d.UseNumber()
	var o map[string]any
	if err := d.Decode(&o); err != nil {
		return Comment{}, fmt.Errorf("comment %d: not a JSON object: %w", i, err)
	}
	id := member(o, fields.ID)
	if id == "" {
		return Comment{}, fmt.Errorf("comment %d: no %q", i, fields.ID)
	}
	c := Comment{ID: id, Link: member(o, fields.Link), Author: member(o, fields.Author),
		AuthorURL: member(o, fields.AuthorURL), Content: member(o, fields.Content), Raw: r}
	if p := member(o, fields.Parent); p != "0" {
		c.InReplyTo = p
	}
	if s := member(o, fields.Date); s != "" {
		t, err := apiTime(s)
		if err != nil {
			return Comment{}, fmt.Errorf("comment %s: %s: %w", id, fields.Date, err)
		}
		c.Published = t
	}
	return c, nil
}

// resolveAPIParents turns the platform ids of cs (ID, InReplyTo) into the
// IDs the crawl gives comments: the permalink where there is one. A
// parent the answers do not hold is kept as its platform id.
func resolveAPIParents(cs []Comment) []Comment {
	byID := map[string]string{}
	for i := range cs {
		if cs[i].Link != "" {
			byID[cs[i].ID] = cs[i].Link
		} else {
			byID[cs[i].ID] = cs[i].ID
		}
	}
	for i := range cs {
		if p, ok := byID[cs[i].InReplyTo]; ok {
			cs[i].InReplyTo = p
		}
		cs[i].ID = byID[cs[i].ID]
	}
	return cs
}

// member returns the member of o at a dotted name as a string (numbers
// as written); "" when absent, null or an object.
func member(o map[string]any, name string) string {
	if name == "" {
		return ""
	}
	var v any = o
	for _, k := range strings.Split(name, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		v = m[k]
	}
	switch t := v.(type) {
	case string:
		return t
	case json.Number:
		return t.String()
	}
	return ""
}

// apiTime reads an ISO 8601 time; one without a zone is UTC (WordPress's
// date_gmt).
func apiTime(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	return time.Parse("2006-01-02T15:04:05", s)
}
