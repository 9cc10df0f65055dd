package comments

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/textsim"
)

// deferComments decides, for UpdateCrawl, to take the comments of a post
// the blog-wide comment feed shows commented from that feed (the new ones)
// and from the archive (the earlier ones, in CompleteComments) instead of
// asking for the post's own comment feed: when the archive can be read
// (Options.Archived), the feed item counts the comments and the blog-wide
// feed lists some of this post. j.Comments holds the blog-wide feed's
// comments of the post until then.
func (s *Stage) deferComments(j *Post) bool {
	cs := s.blog.Site.ByPost[j.URL]
	if !s.cfg.ChangedOnly || s.d.Archive == nil || j.Item == nil || j.Item.CommentCount <= 0 ||
		!s.Commented(j.URL) || len(cs) == 0 {
		return false
	}
	j.run, j.deferred, j.Comments = true, true, cs
	return true
}

// CompleteComments completes the comments deferComments left: the
// comments of the comment feeds archived with e's latest version, joined
// with the new ones, when they line up with what the post's own comment
// feed gives (archivedComments); otherwise it asks for that feed, as
// NewCrawl does. ex is the page's extraction: an archived comment the page
// shows with another text was edited, and the feed is asked for too. The
// comment feed captures the comments came from are
// added to e.Files (the archived ones as reused captures).
func (s *Stage) CompleteComments(ctx context.Context, j *Post, e *blogharvest.Entry, ex learn.Extraction) {
	if !j.deferred {
		return
	}
	j.deferred = false
	cs, files, err := s.archivedComments(j, e)
	if err == nil {
		err = editedOnPage(cs, ex.Comments)
	}
	if err == nil {
		j.Comments = cs
		e.Files = append(e.Files, files...)
		return
	}
	s.d.Log.Info("archived comments not reused: asking for the post's comment feed", "entry", e.URL, "why", err)
	j.Comments, j.Feed, j.cut, j.Err = s.d.Fetch.Comments(ctx, s.blog.Feed, *j.Item, s.cfg.Limits)
	if len(j.Feed) > 0 {
		j.from, j.held = "its comment feed", len(j.Comments)
	}
	s.FillShortfall(ctx, j, len(ex.Comments)) // a feed that lists the newest comments only: the comments endpoint
}

// archivedComments returns the comments of the post of j as its own
// comment feed would list them now: those of the comment feed captures
// archived with e's latest version (the post's feed, and the blog-wide
// feed's pages an earlier update took them from) joined with the new ones
// of the blog-wide feed (j.Comments), ordered by date as the archived
// feed orders them; with the captures they come from. It fails when
// anything does not line up: no archived comment feed or one that cannot
// be read, a comment that differs between two sources (edited), more or
// fewer comments than the feed item counts, more than the blog-wide feed's
// first page holds (the post's feed, as long, would not list them all),
// an order the archived feeds do not tell or two comments of one date.
func (s *Stage) archivedComments(j *Post, e *blogharvest.Entry) ([]feed.Comment, []blogharvest.File, error) {
	var all []feed.Comment
	seen := map[string]int{}
	add := func(c feed.Comment) error {
		k := commentKey(c.ID)
		if k == "" {
			k = c.ID
		}
		if i, ok := seen[k]; ok {
			if o := all[i]; o.Content != c.Content || o.Author != c.Author || !o.Published.Equal(c.Published) {
				return fmt.Errorf("comment %s edited", c.ID)
			}
			return nil
		}
		seen[k] = len(all)
		all = append(all, c)
		return nil
	}
	var files []blogharvest.File
	order := 0 // -1 newest first, +1 oldest first
	for _, f := range s.d.Archive.Archived(e) {
		if f.Role != blogharvest.RoleCommentFeed {
			continue
		}
		body, err := f.Content() // through the archive's store (File.Stored)
		if err != nil {
			return nil, nil, err
		}
		cs, err := feed.ParseComments(body, f.URL)
		if err != nil {
			return nil, nil, fmt.Errorf("archived comment feed %s: %w", f.URL, err)
		}
		cs = commentsOfPost(cs, j.URL, s.d.Posts)
		if order, err = commentOrder(cs, order); err != nil {
			return nil, nil, err
		}
		for _, c := range cs {
			if err := add(c); err != nil {
				return nil, nil, err
			}
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return nil, nil, errors.New("no archived comment feed")
	}
	if order == 0 {
		return nil, nil, errors.New("the archived comment feeds do not tell their order")
	}
	for _, c := range j.Comments {
		if err := add(c); err != nil {
			return nil, nil, err
		}
	}
	if len(all) != j.Item.CommentCount {
		return nil, nil, fmt.Errorf("%d comments archived and new, the feed item counts %d", len(all), j.Item.CommentCount)
	}
	if limit := s.siteFeedLength(); len(all) > limit {
		return nil, nil, fmt.Errorf("%d comments, more than the %d of the blog-wide feed's first page", len(all), limit)
	}
	slices.SortStableFunc(all, func(a, b feed.Comment) int { return order * a.Published.Compare(b.Published) })
	for i := 1; i < len(all); i++ {
		if all[i].Published.Equal(all[i-1].Published) {
			return nil, nil, errors.New("two comments of the same date")
		}
	}
	return all, append(files, s.siteFilesOf(j.URL)...), nil
}

// editedOnPage fails when a comment of cs shows on the page (pcs, by its
// platform id) with another text: it was edited after the capture cs
// comes from.
func editedOnPage(cs []feed.Comment, pcs []learn.Comment) error {
	text := map[string]string{}
	for _, c := range cs {
		if k := commentKey(c.ID); k != "" {
			text[k] = textsim.HTMLText(c.Content)
		}
	}
	for _, pc := range pcs {
		k := commentKey(pc.ID)
		if k == "" {
			k = commentKey(pc.URL)
		}
		if t, ok := text[k]; ok && normName(t) != normName(pc.ContentText) {
			return fmt.Errorf("comment %s shows another text on the page: edited", pc.ID)
		}
	}
	return nil
}

// commentsOfPost returns the comments of cs on the post at post (by
// the post each comment's link names: posts).
func commentsOfPost(cs []feed.Comment, post string, posts Posts) []feed.Comment {
	var out []feed.Comment
	for _, c := range cs {
		if p := posts.PostOf(c.Link); p != nil && p.String() == post {
			out = append(out, c)
		}
	}
	return out
}

// commentOrder returns the order of cs by date (-1 newest first, +1
// oldest first), or the order known so far when cs has fewer than two
// comments; it fails when cs is in neither order or in the other.
func commentOrder(cs []feed.Comment, known int) (int, error) {
	if len(cs) < 2 {
		return known, nil
	}
	o := cs[0].Published.Compare(cs[1].Published) * -1
	for i := 1; i < len(cs); i++ {
		if cs[i-1].Published.Compare(cs[i].Published)*-1 != o || o == 0 {
			return 0, errors.New("an archived comment feed not ordered by date")
		}
	}
	if known != 0 && known != o {
		return 0, errors.New("archived comment feeds in different orders")
	}
	return o, nil
}

// siteFeedLength returns how many comments the first page of the
// blog-wide comment feed lists: a platform lists as many in a post's own
// comment feed (WordPress's posts_per_rss, Blogger's max-results).
func (s *Stage) siteFeedLength() int {
	if len(s.blog.Site.Parsed) == 0 {
		return 0
	}
	return len(s.blog.Site.Parsed[0])
}

// siteFilesOf returns the pages of the blog-wide comment feed that list
// comments of the post at post.
func (s *Stage) siteFilesOf(post string) []blogharvest.File {
	var out []blogharvest.File
	for i, f := range s.blog.Site.Files {
		if len(commentsOfPost(s.blog.Site.Parsed[i], post, s.d.Posts)) > 0 {
			f.Role = blogharvest.RoleCommentFeed // the next update reads the comments of the post in it
			out = append(out, f)
		}
	}
	return out
}
