package harvest

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
// and from the archive (the earlier ones, in completeComments) instead of
// asking for the post's own comment feed: when the archive can be read
// (Options.Archived), the feed item counts the comments and the blog-wide
// feed lists some of this post. j.comments holds the blog-wide feed's
// comments of the post until then.
func (s *commentStage) deferComments(j *pageJob) bool {
	cs := s.site.byPost[j.t.url]
	if !s.cfg.changedOnly || s.archived == nil || j.item == nil || j.item.CommentCount <= 0 ||
		!s.commented(j.t.url) || len(cs) == 0 {
		return false
	}
	j.commentsRun, j.deferred, j.comments = true, true, cs
	return true
}

// completeComments completes the comments deferComments left: the
// comments of the comment feeds archived with e's latest version, joined
// with the new ones, when they line up with what the post's own comment
// feed gives (archivedComments); otherwise it asks for that feed, as
// NewCrawl does. ex is the page's extraction: an archived comment the page
// shows with another text was edited, and the feed is asked for too. The
// comment feed captures the comments came from are
// added to e.Files (the archived ones as reused captures).
func (s *commentStage) completeComments(ctx context.Context, j *pageJob, e *blogharvest.Entry, ex learn.Extraction) {
	if !j.deferred {
		return
	}
	j.deferred = false
	cs, files, err := s.archivedComments(j, e)
	if err == nil {
		err = editedOnPage(cs, ex.Comments)
	}
	if err == nil {
		j.comments = cs
		e.Files = append(e.Files, files...)
		return
	}
	s.log.Info("archived comments not reused: asking for the post's comment feed", "entry", e.URL, "why", err)
	j.comments, j.commentFile, j.commentsCut, j.commentsErr = s.fetch.comments(ctx, s.feed, *j.item, s.cfg.limits)
	if j.commentFile != nil {
		j.commentsFrom, j.feedHeld = "its comment feed", len(j.comments)
	}
	s.fillShortfall(ctx, j, len(ex.Comments)) // a feed that lists the newest comments only: the comments endpoint
}

// archivedComments returns the comments of the post of j as its own
// comment feed would list them now: those of the comment feed captures
// archived with e's latest version (the post's feed, and the blog-wide
// feed's pages an earlier update took them from) joined with the new ones
// of the blog-wide feed (j.comments), ordered by date as the archived
// feed orders them; with the captures they come from. It fails when
// anything does not line up: no archived comment feed or one that cannot
// be read, a comment that differs between two sources (edited), more or
// fewer comments than the feed item counts, more than the blog-wide feed's
// first page holds (the post's feed, as long, would not list them all),
// an order the archived feeds do not tell or two comments of one date.
func (s *commentStage) archivedComments(j *pageJob, e *blogharvest.Entry) ([]feed.Comment, []blogharvest.File, error) {
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
	for _, f := range s.archived(e) {
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
		cs = commentsOfPost(cs, j.t.url)
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
	for _, c := range j.comments {
		if err := add(c); err != nil {
			return nil, nil, err
		}
	}
	if len(all) != j.item.CommentCount {
		return nil, nil, fmt.Errorf("%d comments archived and new, the feed item counts %d", len(all), j.item.CommentCount)
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
	return all, append(files, s.siteFilesOf(j.t.url)...), nil
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

// commentsOfPost returns the comments of cs on the post at post.
func commentsOfPost(cs []feed.Comment, post string) []feed.Comment {
	var out []feed.Comment
	for _, c := range cs {
		if p := commentedPost(c.Link); p != nil && p.String() == post {
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
func (s *commentStage) siteFeedLength() int {
	if len(s.site.parsed) == 0 {
		return 0
	}
	return len(s.site.parsed[0])
}

// siteFilesOf returns the pages of the blog-wide comment feed that list
// comments of the post at post.
func (s *commentStage) siteFilesOf(post string) []blogharvest.File {
	var out []blogharvest.File
	for i, f := range s.site.files {
		if len(commentsOfPost(s.site.parsed[i], post)) > 0 {
			f.Role = blogharvest.RoleCommentFeed // the next update reads the comments of the post in it
			out = append(out, f)
		}
	}
	return out
}
