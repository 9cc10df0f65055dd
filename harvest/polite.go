package harvest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/learn"
)

// DefaultRecheckPosts is how often UpdateCrawl re-reads the posts of the
// feed's first page that give no change signal, when
// Options.RecheckPosts is zero.
const DefaultRecheckPosts = 24 * time.Hour

// State is what one crawl leaves for the next UpdateCrawl of the blog
// (Result.State, given back as Options.State), so that UpdateCrawl stays
// stateless and yet polite: it asks for the feeds conditionally, stops
// there when neither changed, reuses robots.txt for its lifetime and the
// learned rules, and re-reads only the posts whose feed item changed. Its
// metadata (validators, digests, dates) is blogharvest.CrawlState, which
// the daemon keeps in the schedule store as it is; Robots and Rules are
// content, which a caller may keep in memory only: without them the next
// crawl fetches robots.txt and training pages again.
type State struct {
	blogharvest.CrawlState
	// Robots are the robots.txt captures of the crawl, used again until
	// fetch.RobotsLifetime after their capture.
	Robots []blogharvest.File
	// Rules are the extraction rules learned (Result.Rules): UpdateCrawl
	// uses them instead of fetching training pages again.
	Rules json.RawMessage
}

// recheckDue reports whether this crawl re-reads the posts of the feed's
// first page that give no change signal (NewCrawl reads them all): when
// Options.RecheckPosts has passed since State.PostsChecked (or that was
// never done).
func recheckDue(o Options, now time.Time) bool {
	every := o.RecheckPosts
	if every == 0 {
		every = DefaultRecheckPosts
	}
	if every < 0 {
		return false
	}
	last := o.State.PostsChecked
	return last.IsZero() || !now.Before(last.Add(every))
}

// homeDue reports whether this crawl reads the home page, and so emits
// the Blog record it is captured in: NewCrawl, and UpdateCrawl when the
// daily recheck is due (recheckDue), or, when rechecks are off (a negative
// RecheckPosts), once DefaultRecheckPosts has passed since the last one. A
// settled UpdateCrawl reads the feeds and the changed posts only; the Blog
// record archived last stands until the next recheck, which also notices
// changes of the blog's title or description in its feed. Without the home
// page the blog-wide comment feed is the one the last crawl found
// (State.CommentFeed).
func (c *crawl) homeDue() bool {
	if !c.pol.settled || c.move.feedFrom != "" || c.move.stage.Moving() || c.gone.events > 0 {
		return true
	}
	last := c.o.State.PostsChecked
	return c.o.RecheckPosts < 0 && (last.IsZero() || !c.start.Before(last.Add(DefaultRecheckPosts)))
}

// twinDated reports whether the last crawl dated the items of the feed's
// first page (State.Items holds a dated signature): a settled UpdateCrawl
// asks for a WordPress RSS feed's Atom twin (feed.FillUpdated) only then,
// since a platform without one would answer 404 to every update; a crawl
// that reads the home page (homeDue) asks again.
func (c *crawl) twinDated() bool {
	for _, sig := range c.o.State.Items {
		if strings.HasPrefix(sig, "d:") {
			return true
		}
	}
	return false
}

// feedsUnchanged is UpdateCrawl's first step when the last crawl left the
// feed's validators: the feed stage asks for the posts feed, and then for
// the blog-wide comment feed, conditionally (discover.Feeds.Unchanged).
// When neither changed (304, or a body identical to the last one) nor a
// watched comment thread, it fills the Result and reports true: the crawl
// stops there, having sent one request per feed (and robots.txt unless
// State.Robots holds it). A posts feed that did change is kept by the
// stage for readFeed, so that it is not fetched twice.
func (c *crawl) feedsUnchanged(ctx context.Context) bool {
	st := c.o.State
	if c.gone.events > 0 {
		return false // a post withdrawn or restored: the Blog AIP records it (gone.go)
	}
	u := c.disc.feeds.Unchanged(ctx, st.Feed, st.CommentFeed)
	if !u.Same {
		return false
	}
	if c.threads.Poll(ctx) {
		return false // a comment thread drawn by script changed (comments/threads.go)
	}
	fv, cv := u.Feed, u.CommentFeed
	c.stopped = true
	c.res.Unchanged = true
	c.res.Watermark = c.pol.since // nothing was read: the next crawl looks back as far
	c.res.Rules = st.Rules
	c.res.State = State{CrawlState: blogharvest.CrawlState{Feed: fv, CommentFeed: cv, Items: st.Items,
		PostsChecked: st.PostsChecked, Pages: st.Pages, Threads: c.threads.State(itemKeys(c.site.feed)), CommentShapes: st.CommentShapes, WidgetScripts: c.w.result().widgets, Moved: st.Moved, Gone: c.goneState()}, Rules: st.Rules}
	c.log.Info("feeds unchanged: nothing more fetched", "feed", fv.URL, "comment_feed", cv.URL)
	return true
}

// itemKeys returns the keys (itemKey) of f's items, in the feed's order;
// nil for a nil feed.
func itemKeys(f *feed.Feed) []string {
	if f == nil {
		return nil
	}
	out := make([]string, len(f.Items))
	for i := range f.Items {
		out[i] = itemKey(&f.Items[i])
	}
	return out
}

// itemKey is the key of a feed item in State.Items: the canonical URL of
// its link, else of its GUID; "" when neither is a URL.
func itemKey(it *feed.Item) string {
	for _, raw := range []string{it.Link, it.GUID} {
		if u := mustCanonical(raw); u != nil && u.Host != "" {
			return u.String()
		}
	}
	return ""
}

// itemSignature digests what a feed says of an item that tells a change:
// with a modification date (the feed's, or the Atom twin's), that date, its
// link and its comment count (slash:comments, thr:total) — the date is the
// platform's own word on edits, while the content may change by itself
// (WordPress renders "latest posts" blocks into it); without one, the item
// as served (its XML or JSON: content, dates, comment count), else its
// fields. Two crawls that see the same signature see the same item. The
// signature starts with its kind ("d:" dated, "r:" raw): an item dated in
// one crawl and not in the other (the Atom twin covers the first page only)
// cannot be compared.
func itemSignature(it *feed.Item) string {
	// The pieces go into the hash one by one: a full-text feed's item is
	// the whole post, and a copy of it built to be digested (and grown
	// while it was built) cost more than the digest.
	// An XML item is written to the hash from the feed's text, not copied
	// (feed.Item.WriteXML).
	h := sha256.New()
	kind := "r:"
	switch {
	case !it.Updated.IsZero():
		kind = "d:"
		io.WriteString(h, it.Link+"\x00"+strconv.Itoa(it.CommentCount)+"\x00")
	default:
		if it.WriteXML(h) {
			break
		}
		for _, s := range []string{it.GUID, it.Link, it.Title, it.Author, it.Content, it.Summary,
			strconv.Itoa(it.CommentCount), it.Published.UTC().String(), strings.Join(it.Categories, "\x00")} {
			io.WriteString(h, s)
			h.Write([]byte{0})
		}
	}
	io.WriteString(h, it.Updated.UTC().String())
	return kind + hex.EncodeToString(h.Sum(nil))[:32]
}

// itemSignatures returns State.Items for the items of the feed's first
// page, "" for those whose page failed. The signatures are made once a
// crawl (itemSigs): the gone check asks for them after the feed is read,
// the crawl's state at its end, and a full-text feed's items are the
// whole posts.
func (c *crawl) itemSignatures() map[string]string {
	if c.site.feed == nil {
		return nil
	}
	n := min(c.site.feed.FirstPage, len(c.site.feed.Items))
	if c.sigs.feed != c.site.feed || c.sigs.n != n {
		made := make(map[string]string, n)
		for i := range c.site.feed.Items[:n] {
			it := &c.site.feed.Items[i]
			if k := itemKey(it); k != "" {
				made[k] = itemSignature(it)
			}
		}
		c.sigs = itemSigs{feed: c.site.feed, n: n, made: made}
	}
	out := maps.Clone(c.sigs.made)
	for k := range out {
		if c.failed[k] {
			out[k] = ""
		}
	}
	return out
}

// itemSigs keeps the signatures of the first n items of a feed
// (itemSignatures), by item key.
type itemSigs struct {
	feed *feed.Feed
	n    int
	made map[string]string
}

// finishState fills Result.State at the end of a crawl that read the feed.
func (c *crawl) finishState(pr pageResult) {
	if c.client != nil {
		c.res.State.Robots = carriedRobots(c.client.RobotsFiles())
	}
	if c.stopped {
		return
	}
	st := &c.res.State
	st.PostsChecked = c.o.State.PostsChecked
	if !c.pol.settled {
		st.PostsChecked = c.start
	}
	st.Rules = c.res.Rules
	st.Items = c.itemSignatures()
	st.Pages = c.pageValidators(st.Items)
	st.Threads = c.threads.State(itemKeys(c.site.feed))
	st.CommentShapes = pr.shapes
	st.WidgetScripts = pr.widgets
	if c.move.stage != nil {
		st.Moved = c.move.stage.Moved()
	} else if len(c.move.cfg.Moved) > 0 { // no client, no stage: the last crawl's
		st.Moved = maps.Clone(c.move.cfg.Moved)
	}
	st.Gone = c.goneState()
}

// recheckOnly reports whether the post of j is read only because the
// recheck is due: UpdateCrawl, a feed item with no change signal, not
// shown commented.
func (w *pageWorker) recheckOnly(j *pageJob) bool {
	it := j.item
	if !w.changes.only || w.changes.settled || it == nil || it.Published.After(w.changes.since) || it.Updated.After(w.changes.since) ||
		w.comments.Commented(j.t.url) || w.comments.ThreadChanged(j.t.url) {
		return false
	}
	changed, _ := w.changes.signatureChanged(it)
	return !changed && w.changes.itemChanged(it)
}

// recheckPage reads a post the recheck is due for conditionally, with the
// validators of its last capture: a 304 leaves it unchanged, anything else
// is processed as a fetched page.
func (w *pageWorker) recheckPage(ctx context.Context, j *pageJob) outcome {
	v := w.o.State.Pages[j.t.url]
	if v.ETag == "" && v.LastModified == "" {
		j.page, j.err = w.fetchPage(ctx, j.t.url)
		return w.finish(ctx, j)
	}
	resp, err := w.fetch.client.Do(ctx, fetch.Request{URL: j.t.url, ETag: v.ETag, LastModified: v.LastModified})
	switch {
	case err != nil:
		j.err = err
	case resp.NotModified:
		return outcome{job: j, unchanged: true}
	default:
		j.page, j.err = w.pageOf(j.t.url, resp)
	}
	return w.finish(ctx, j)
}

// notePage keeps the validators of a fetched page for State.Pages (in the
// coordinator).
func (c *crawl) notePage(j *pageJob) {
	if j == nil || j.page == nil || j.page.resp == nil {
		return
	}
	h := j.page.resp.Header
	v := blogharvest.Validators{ETag: h.Get("ETag"), LastModified: h.Get("Last-Modified")}
	if v.ETag == "" && v.LastModified == "" {
		return
	}
	if c.pageVals == nil {
		c.pageVals = map[string]blogharvest.Validators{}
	}
	c.pageVals[j.t.url] = v
}

// pageValidators returns State.Pages for the items keyed in items: the
// validators of this crawl's capture, else of the last one.
func (c *crawl) pageValidators(items map[string]string) map[string]blogharvest.Validators {
	out := map[string]blogharvest.Validators{}
	for k := range items {
		if v, ok := c.pageVals[k]; ok {
			out[k] = v
		} else if v, ok := c.o.State.Pages[k]; ok {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// reuseRules takes the rules of State.Rules for an UpdateCrawl, so that
// it fetches no training pages; it reports whether it did.
func (c *crawl) reuseRules() bool {
	if !c.pol.useState || len(c.o.State.Rules) == 0 {
		return false
	}
	if c.move.stage.Moving() {
		c.log.Info("the blog moved: learning the rules again")
		return false
	}
	var r learn.Rules
	if err := json.Unmarshal(c.o.State.Rules, &r); err != nil {
		c.log.Info("rules of the last crawl unreadable: learning again", "err", err)
		return false
	}
	c.learned.rules = &r
	c.res.Rules = c.o.State.Rules
	c.learned.file = rulesFile(c.o.State.Rules, c.start)
	return true
}

// markFailed remembers that the page of a feed item could not be read,
// so that the next crawl reads it again.
func (c *crawl) markFailed(out outcome) {
	if out.err == nil || out.job == nil {
		return
	}
	if c.failed == nil {
		c.failed = map[string]bool{}
	}
	if it := out.job.item; it != nil {
		c.failed[itemKey(it)] = true
	}
	c.failed[out.job.t.url] = true
}
