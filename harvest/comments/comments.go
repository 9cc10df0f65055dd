package comments

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"iter"
	"net/url"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/textsim"
	"github.com/blogharvest/blogharvest/internal/lazyregexp"
)

// FetchComments fetches the comment feed of a job's post once: the feed
// item's (wfw:commentRss, rel=replies, platform conventions) or, for a
// post found by crawling, the per-post feed its page advertises.
//
// UpdateCrawl does not ask for the comments of a post whose feed item
// counts none (slash:comments, thr:total of 0) unless the blog-wide
// comment feed shows it commented since: a new post has no comment feed
// worth a request; nor of a post whose comments the blog-wide comment
// feed lists all of (siteCommentsOf), nor, until its entry is built, of a
// post whose earlier comments the archive holds (deferComments).
func (s *Stage) FetchComments(ctx context.Context, j *Post) {
	if j.run {
		return
	}
	it := j.Item
	if s.cfg.ChangedOnly && it != nil && it.CommentCount == 0 && !s.Commented(j.URL) {
		j.run = true
		return
	}
	if cs, ok := s.siteCommentsOf(j); ok {
		j.run, j.Comments = true, cs
		return
	}
	if s.deferComments(j) {
		return
	}
	if it == nil {
		if j.Page == nil {
			return
		}
		cf := postCommentFeed(j.Page)
		if cf == "" {
			return
		}
		it = &feed.Item{Link: j.Page.FinalURL(), CommentFeedURL: cf}
	}
	j.run = true
	j.Comments, j.Feed, j.cut, j.Err = s.d.Fetch.Comments(ctx, s.blog.Feed, *it, s.cfg.Limits)
	if len(j.Feed) > 0 {
		j.from, j.held = "its comment feed", len(j.Comments)
	}
}

// siteCommentsOf returns the comments of the post of j as the blog-wide
// comment feed lists them, when they are all of its comments (as many as
// its feed item counts): UpdateCrawl then does not ask for the post's own
// comment feed, which would list the same.
func (s *Stage) siteCommentsOf(j *Post) ([]feed.Comment, bool) {
	it := j.Item
	if !s.cfg.ChangedOnly || it == nil || it.CommentCount <= 0 {
		return nil, false
	}
	cs := s.blog.Site.ByPost[j.URL]
	return cs, len(cs) == it.CommentCount
}

// bloggerPostComments matches a Blogger per-post comment feed (not the
// blog-wide /feeds/comments/default).
var bloggerPostComments = lazyregexp.New(`/feeds/\d+/comments/default`)

// IsBloggerPostFeed reports whether u is a Blogger per-post comment feed.
func IsBloggerPostFeed(u string) bool { return bloggerPostComments.MatchString(u) }

// postCommentFeed returns the feed a post page advertises for its own
// comments (WordPress <post>/feed/, Blogger …/comments/default), or "".
func postCommentFeed(p Page) string {
	self := strings.TrimSuffix(p.Ident(), "/")
	for _, f := range p.Feeds() {
		if strings.HasPrefix(f, self+"/") || bloggerPostComments.MatchString(f) {
			return f
		}
	}
	return ""
}

// CommentsAfter reports whether a comment was added after since.
func CommentsAfter(cs []feed.Comment, since time.Time) bool {
	for _, cm := range cs {
		if cm.Published.After(since) {
			return true
		}
	}
	return false
}

// commentNumber finds the platform's numeric comment id in an id or URL:
// "comment-42", "#comment-42", "c42", "#c42", "post-42".
var commentNumber = lazyregexp.New(`(?i)(?:comment[-_]?|post[-_]|^c|#c)(\d+)\b`)

// commentKey returns the platform's numeric id of a comment ("comment-42",
// "…#comment-42", "tag:…post-42") or "".
func commentKey(id string) string {
	if isDigits(id) {
		return id
	}
	all := commentNumber.FindAllStringSubmatch(id, -1)
	if len(all) == 0 {
		return ""
	}
	return all[len(all)-1][1]
}

// FillComments merges the comment feed's comments (MethodFeed) with those
// extracted from the page, so that none is lost, and sets the counts.
func FillComments(e *blogharvest.Entry, j *Post, ex learn.Extraction) {
	m := newCommentMerger(e.URL)
	for _, fc := range j.Comments {
		m.addFeed(fc)
	}
	pageMethod := methodOf(ex, learn.FieldComments)
	for _, pc := range ex.Comments {
		m.addPage(pc, pageMethod)
	}
	e.Comments = m.finish()
	e.NumReplies = len(e.Comments)
	if j.Item != nil && j.Item.CommentCount > e.NumReplies {
		e.NumReplies = j.Item.CommentCount
		e.Provenance.Set("num_of_replies", blogharvest.MethodFeed)
	} else {
		e.Provenance.Set("num_of_replies", blogharvest.MethodComputed)
	}
	e.HasReply = e.NumReplies > 0
	e.Provenance.Set("has_reply", blogharvest.MethodComputed)
	for _, cm := range e.Comments {
		if cm.Added.After(e.LastReplyDate) {
			e.LastReplyDate = cm.Added
		}
	}
	if !e.LastReplyDate.IsZero() {
		e.Provenance.Set("last_reply_date", blogharvest.MethodComputed)
	}
}

// commentMerger joins comments from the feed and the page.
type commentMerger struct {
	postURL string
	list    []*blogharvest.Comment
	parent  []string   // raw parent reference of each comment (feed InReplyTo or page ParentID)
	pageID  []string   // id of each comment's element on the page; "" if not seen there
	keyed   []bool     // whether each comment carries a platform id
	texts   []lazyText // each comment's visible text, read when find first needs it
	byKey   map[string]int
}

func newCommentMerger(postURL string) *commentMerger {
	return &commentMerger{postURL: postURL, byKey: map[string]int{}}
}

// addFeed adds a comment of the comment feed.
func (m *commentMerger) addFeed(fc feed.Comment) {
	id := firstNonEmpty(fc.ID, fc.Link)
	cm := &blogharvest.Comment{ID: id, URL: fc.Link, Subject: commentSubject(fc), Author: unescapedName(fc.Author),
		Content: fc.Content, Added: fc.Published, PostURL: m.postURL}
	for _, f := range []string{"id", "uri", "subject", "author", "full_content", "date_added"} {
		if f != "subject" || cm.Subject != "" {
			cm.Provenance.Set(f, blogharvest.MethodFeed)
		}
	}
	m.add(cm, fc.InReplyTo, fc.ID, fc.Link)
}

// unescapedName returns a name a feed escaped twice ("Tom&amp;#xE1;s"
// in the XML, so "Tom&#xE1;s" once read) as the page shows it (Tomás):
// a character reference left in a plain-text name is always an escaping
// mistake. Names without one are returned as they are.
func unescapedName(s string) string {
	for k := 0; k < 3 && strings.Contains(s, "&") && strings.Contains(s, ";"); k++ {
		u := html.UnescapeString(s)
		if u == s {
			break
		}
		s = u
	}
	return s
}

// commentSubject returns a comment's own title, or "" for the titles
// platforms make up ("By: Ann", "Comment on Post by Ann").
func commentSubject(fc feed.Comment) string {
	t := strings.TrimSpace(fc.Title)
	low := strings.ToLower(t)
	if fc.Author != "" && strings.Contains(t, fc.Author) &&
		(strings.HasPrefix(low, "by:") || strings.HasPrefix(low, "comment on ") || strings.HasPrefix(low, "re:")) {
		return ""
	}
	return t
}

// addPage adds a comment extracted from the page unless the feed has it;
// values the feed lacks are filled from the page.
func (m *commentMerger) addPage(pc learn.Comment, method blogharvest.Method) {
	if i, ok := m.find(pc); ok {
		cm := m.list[i]
		if cm.Author == "" && pc.Author != "" {
			cm.Author = pc.Author
			cm.Provenance.Set("author", method)
		}
		if cm.URL == "" && pc.URL != "" {
			cm.URL = pc.URL
		}
		if m.parent[i] == "" {
			m.parent[i] = pc.ParentID
		}
		m.pageID[i] = pc.ID
		return
	}
	cm := &blogharvest.Comment{ID: pc.ID, URL: pc.URL, Author: pc.Author, Content: pc.ContentHTML,
		Added: pc.Date, AddedPrecision: pc.DatePrecision, PostURL: m.postURL}
	for _, f := range []string{"id", "author", "full_content", "date_added"} {
		cm.Provenance.Set(f, method)
	}
	m.add(cm, pc.ParentID, pc.ID, pc.URL)
	m.pageID[len(m.pageID)-1] = pc.ID
}

// add appends a comment and indexes it by its keys.
func (m *commentMerger) add(cm *blogharvest.Comment, parent string, keys ...string) {
	m.list = append(m.list, cm)
	m.parent = append(m.parent, parent)
	m.pageID = append(m.pageID, "")
	m.keyed = append(m.keyed, false)
	m.texts = append(m.texts, lazyText{})
	for _, k := range keys {
		if k == "" {
			continue
		}
		m.byKey[k] = len(m.list) - 1
		if n := commentKey(k); n != "" {
			m.byKey["#"+n] = len(m.list) - 1
			m.keyed[len(m.list)-1] = true
		}
	}
}

// find returns the comment already merged that pc is: the same platform
// id, else the same comment (sameComment). Two comments that both carry
// other platform ids must have the same author and text: threads of short
// replies ("Comment Depth 03", "Comment Depth 04") look alike. Time
// proximity alone never makes two comments one: the same author may write
// twice in a minute, and a page that gives only the day puts all of a
// day's comments at the same time.
func (m *commentMerger) find(pc learn.Comment) (int, bool) {
	if pc.URL != "" && fragment(pc.URL) != "" {
		if i, ok := m.byKey[pc.URL]; ok { // the same permalink
			return i, true
		}
	}
	keyed := false
	for _, k := range []string{pc.ID, pc.URL} {
		if n := commentKey(k); n != "" {
			if i, ok := m.byKey["#"+n]; ok {
				return i, true
			}
			keyed = true
		}
	}
	text := strings.TrimSpace(pc.ContentText)
	var normText, normAuthor string
	if keyed {
		normText, normAuthor = normName(text), normName(pc.Author)
	}
	for i, cm := range m.list {
		if keyed && m.keyed[i] {
			// Both carry platform ids, and they differ: the same comment
			// only if numbered apart (a comment system beside the feed's).
			if m.normText(i) == normText && normName(cm.Author) == normAuthor {
				return i, true
			}
			continue
		}
		if text != "" && sameComment(cm, m.textOf(i), pc, text) { // an empty text matches none: spare cm's
			return i, true
		}
	}
	return 0, false
}

// lazyText is a merged comment's visible text (textsim.HTMLText) and its
// normName, each computed when first asked for: a page comment found by
// its platform id needs neither.
type lazyText struct {
	text, norm       string
	hasText, hasNorm bool
}

// textOf returns the visible text of the i-th merged comment.
func (m *commentMerger) textOf(i int) string {
	t := &m.texts[i]
	if !t.hasText {
		t.text, t.hasText = textsim.HTMLText(m.list[i].Content), true
	}
	return t.text
}

// normText returns normName of the text of the i-th merged comment:
// find compares it with every page comment's.
func (m *commentMerger) normText(i int) string {
	t := &m.texts[i]
	if !t.hasNorm {
		t.norm, t.hasNorm = normName(m.textOf(i)), true
	}
	return t.norm
}

// sameComment reports whether merged comment cm and page comment pc (whose
// text is text) are one: nearly the same text, the same author when both
// name one, and the same time to the precision both give (sameTime).
func sameComment(cm *blogharvest.Comment, cmText string, pc learn.Comment, text string) bool {
	if text == "" || textsim.Dice(cmText, text) < 0.85 {
		return false
	}
	if cm.Author != "" && pc.Author != "" && normName(cm.Author) != normName(pc.Author) {
		return false
	}
	return sameTime(cm.Added, cm.AddedPrecision, pc.Date, pc.DatePrecision)
}

// sameTime reports whether two dates can be the same moment, compared to
// the coarser of their precisions; a missing date matches any. A day
// matches the instants of that day in either date's zone; a wall clock
// without a zone matches an instant some zone shows at that minute (up to
// 14 hours apart, in quarter hours).
func sameTime(a time.Time, ap blogharvest.Precision, b time.Time, bp blogharvest.Precision) bool {
	if a.IsZero() || b.IsZero() {
		return true
	}
	switch blogharvest.Coarser(ap, bp) {
	case blogharvest.PrecisionDay:
		return textsim.SameDay(a, b)
	case blogharvest.PrecisionLocalMinute, blogharvest.PrecisionLocalSecond:
		if !ap.HasZone() && !bp.HasZone() {
			return wallClock(a).Equal(wallClock(b))
		}
		if ap.HasZone() {
			a, b = b, a // a is the wall clock, b the instant
		}
		d := absDur(wallClock(a).Sub(b.Truncate(time.Minute)))
		return d <= 14*time.Hour && d%(15*time.Minute) == 0
	case blogharvest.PrecisionMinute:
		return a.Truncate(time.Minute).Equal(b.Truncate(time.Minute))
	}
	return a.Equal(b)
}

// wallClock returns t's wall clock to the minute, as if it were UTC.
func wallClock(t time.Time) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), 0, 0, time.UTC)
}

func normName(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// finish resolves parents, gives every comment a stable id and counts
// replies.
func (m *commentMerger) finish() []blogharvest.Comment {
	for i, cm := range m.list {
		cm.ID = stableCommentID(cm, m.pageID[i])
		cm.ContentFormat = "text/html"
		cm.AddressedTo = m.postURL
	}
	out := make([]blogharvest.Comment, len(m.list))
	for i, cm := range m.list {
		if p, ok := m.resolve(m.parent[i]); ok && p != i {
			cm.ParentID, cm.ParentURL = m.list[p].ID, m.list[p].URL
			cm.AddressedTo = firstNonEmpty(cm.ParentURL, m.postURL)
			m.list[p].NumReplies++
			m.list[p].HasReply = true
		}
	}
	for i, cm := range m.list {
		out[i] = *cm
	}
	return out
}

// resolve finds the comment a parent reference names.
func (m *commentMerger) resolve(ref string) (int, bool) {
	if ref == "" {
		return 0, false
	}
	if i, ok := m.byKey[ref]; ok {
		return i, true
	}
	if n := commentKey(ref); n != "" {
		i, ok := m.byKey["#"+n]
		return i, ok
	}
	return 0, false
}

// fragment returns the fragment of a URL, or "".
func fragment(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Fragment
}

// wrappedCommentID finds the comment anchor in the ids of the elements
// WordPress wraps a comment in.
var wrappedCommentID = lazyregexp.New(`(?:^|[-_])(comment-\d+)$`)

// stableCommentID returns the id the platform gives a comment in its
// pages: the fragment of its permalink ("comment-42", "c42"), else the id
// of its element on the page, else "comment-N" for a numeric platform id,
// else the given id when it is short and plain, else a digest.
func stableCommentID(cm *blogharvest.Comment, pageID string) string {
	for _, id := range []string{fragment(cm.URL), pageID} {
		if m := wrappedCommentID.FindStringSubmatch(id); m != nil {
			return m[1] // li-comment-42, div-comment-42: the anchor is comment-42
		}
		if commentKey(id) != "" && !strings.ContainsAny(id, "/:?#") {
			return id
		}
	}
	if n := commentKey(cm.ID); n != "" {
		return "comment-" + n
	}
	if cm.ID != "" && len(cm.ID) <= 64 && !strings.ContainsAny(cm.ID, "/:?#") {
		return cm.ID
	}
	sum := sha256.Sum256([]byte(cm.Author + "\x00" + cm.Added.String() + "\x00" + cm.Content))
	return "c" + hex.EncodeToString(sum[:6])
}

// commentPageRE matches WordPress comment pages (<post>/comment-page-N/).
var commentPageRE = lazyregexp.New(`/comment-page-\d+/?$`)

// IsCommentPage reports whether path is a WordPress comment page's
// (<post>/comment-page-N/), read with its post.
func IsCommentPage(path string) bool { return commentPageRE.MatchString(path) }

// PostPath returns the path of the post a WordPress comment page's
// escaped path esc is under (<post>/ of <post>/comment-page-N/) and true,
// or esc and false when it is no comment page.
func PostPath(esc string) (string, bool) {
	if loc := commentPageRE.FindStringIndex(esc); loc != nil {
		return esc[:loc[0]+1], true
	}
	return esc, false
}

// CommentPages fetches a post's further comment pages, those its page
// links to and those each page that brought new comments links to in
// turn (every page of a thread that shows a few page numbers at a time),
// adds their comments to ex and keeps the pages that bring new ones, until
// the post's comments reach Options.MaxComments or the pages kept
// MaxCommentBytes (noted in the entry's problems); failures become
// Problems.
func (s *Stage) CommentPages(ctx context.Context, j *Post, e *blogharvest.Entry, ex *learn.Extraction) {
	lim := s.cfg.Limits
	prefix := strings.TrimSuffix(j.Page.Ident(), "/") + "/comment-page-"
	seen := map[string]bool{}
	var queue []string
	add := func(links iter.Seq[string]) {
		for l := range links {
			if strings.HasPrefix(l, prefix) && commentPageRE.MatchString(l) && !seen[l] {
				seen[l] = true
				queue = append(queue, l)
			}
		}
	}
	add(j.Page.Links())
	var kept int64
	for len(queue) > 0 {
		if why := commentPagesBound(lim, len(ex.Comments), kept); why != "" {
			e.Problems = append(e.Problems, fmt.Sprintf("comment pages: %d not read: %s", len(queue), why))
			return
		}
		u := queue[0]
		queue = queue[1:]
		p, more, err := s.d.Pages.ReadPage(ctx, u)
		if err != nil {
			e.Problems = append(e.Problems, fmt.Sprintf("comment page %s: %v", u, err))
			continue
		}
		if !addNewComments(ex, more.Comments) {
			continue // the post's own page (WordPress shows the last comment page there)
		}
		f := p.Capture()
		kept += f.Size
		e.Files = append(e.Files, f)
		add(p.Links())
	}
}

// commentPagesBound says which bound of lim the comments held (n) and the
// comment pages kept (bytes) reach, or "".
func commentPagesBound(lim feed.CommentLimits, n int, bytes int64) string {
	switch {
	case lim.MaxComments > 0 && n >= lim.MaxComments:
		return fmt.Sprintf("max_comments_per_post %d reached", lim.MaxComments)
	case lim.MaxBytes > 0 && bytes >= lim.MaxBytes:
		return fmt.Sprintf("max_comment_bytes %d reached", lim.MaxBytes)
	}
	return ""
}

// addNewComments appends to ex the comments of cs whose ids it does not
// hold yet, and reports whether there were any.
func addNewComments(ex *learn.Extraction, cs []learn.Comment) bool {
	have := make(map[string]bool, len(ex.Comments))
	for _, cm := range ex.Comments {
		have[cm.ID] = true
	}
	added := false
	for _, cm := range cs {
		if cm.ID == "" || !have[cm.ID] {
			ex.Comments = append(ex.Comments, cm)
			added = true
		}
	}
	return added
}
