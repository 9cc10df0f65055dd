package harvest

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/harvest/learn"
	"github.com/blogharvest/blogharvest/harvest/render"
)

// This file gives UpdateCrawl a change signal for comments a script draws
// from a service's API (a self-hosted comment server, a JSON file per
// post): a comment added there changes no feed of the blog and not the
// post's static page, so the feeds' change signals never name the post.
//
// When a post's page is rendered for its comments, the JSON responses its
// scripts fetched with GET are candidates; the watch is the comment
// threads among them: the answers comments were read from
// (learn.APIComments finds records in them that the page shows), at most
// maxThreadURLs per post. The comment app's other calls (counts,
// settings, the member, tiers, newsletters) hold no comments and are not
// watched. A post that shows no comment yet is watched through the
// answers of its render that have the shape of a thread API the blog
// answered with comments (threadShape: the same origin, path but for the
// segments naming a post, and query keys), on another post of this crawl
// or in the last crawl's watch: the thread's first comment will change
// that one; a blog none of whose threads holds a comment has nothing
// watched.
//
// State.Threads keeps the watch of the posts of every feed page the crawl
// read, and what the last crawl watched of posts it no longer read, newest
// first, at most maxThreadPolls URLs in all, each URL with its ETag,
// Last-Modified and the SHA-256 of its body. The next UpdateCrawl asks for
// them conditionally (pollThreads), after the feeds and even when the
// feeds did not change; a post whose thread answers differently is read
// again and rendered (ReasonThreadChanged), and its entry is archived when
// it changed; the watch then holds what it answered now. An unchanged blog
// costs the two feed requests plus one request per watched URL. A URL that
// answers differently is asked once more at once: when the two answers
// differ too (a counter, a timestamp, a token in the JSON), it changes by
// itself, tells nothing, and is no longer watched. The caller keeps
// State.Threads (the daemon's schedule store; for `crawl -out`, the
// archive: the Blog AIP's state file and the state the archive keeps
// beside the bags, Watch).

// Bounds of the thread watch.
const (
	maxThreadURLs  = 3  // JSON responses watched per post
	maxThreadPolls = 50 // watched URLs kept in State.Threads, all asked for by one UpdateCrawl
)

// threadWatch returns the validators of the thread API responses of a
// page rendered for its comments (see the file comment): those the
// comments were read from; when none held comments, the JSON answers its
// scripts fetched with GET as candidates (threadState keeps those of a
// thread's shape). Both are nil when its scripts fetched none.
func threadWatch(res *render.Result, lang string) (holding, cands []blogharvest.Validators) {
	pages := renderedPages(res, lang)
	for _, a := range res.API {
		if a.Method != "" && a.Method != http.MethodGet || a.Status != http.StatusOK || len(cands) >= maxThreadURLs*4 {
			continue
		}
		v := blogharvest.Validators{URL: a.URL, ETag: a.ETag, LastModified: a.LastModified, Digest: digestOf(a.Body)}
		if slices.ContainsFunc(cands, func(o blogharvest.Validators) bool { return o.URL == v.URL }) {
			continue
		}
		cands = append(cands, v)
		if len(holding) < maxThreadURLs && len(learn.APIComments([][]byte{a.Body}, pages)) > 0 {
			holding = append(holding, v)
		}
	}
	if len(holding) > 0 {
		return holding, nil
	}
	return nil, cands
}

// threadShape returns the shape of a thread API URL, the same for the
// thread of every post of a blog: its origin, its path with each segment
// that names a post (one holding a digit, '-', '_', '.' or '%', or longer
// than 20 bytes: an id, a slug, a file) as "*", and its query's keys,
// sorted (their values name the post); "" when it does not parse.
func threadShape(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return ""
	}
	segs := strings.Split(u.EscapedPath(), "/")
	for i, s := range segs {
		if len(s) > 20 || strings.ContainsAny(s, "0123456789-_.%") {
			segs[i] = "*"
		}
	}
	keys := slices.Sorted(maps.Keys(u.Query()))
	return strings.ToLower(u.Scheme+"://"+u.Host) + strings.Join(segs, "/") + "?" + strings.Join(keys, "&")
}

// pollThreads asks, once per UpdateCrawl given State.Threads, for every
// watched thread API conditionally (before the posts feed is read, which
// is then read on to the items of the posts whose thread changed:
// wantItems), and returns whether one of them changed; c.threadPolls keeps what each
// answered, c.threadsChanged the posts to read again. A failed request
// counts as no change: the post is asked about again next time.
func (c *crawl) pollThreads(ctx context.Context) bool {
	if c.threadsPolled || !c.pol.useState || len(c.o.State.Threads) == 0 {
		return len(c.threadsChanged) > 0
	}
	c.threadsPolled = true
	c.threadPolls, c.threadsChanged = map[string][]blogharvest.Validators{}, map[string]bool{}
	polls := 0
	for _, post := range slices.Sorted(maps.Keys(c.o.State.Threads)) {
		for _, v := range c.o.State.Threads[post] {
			if polls >= maxThreadPolls || ctx.Err() != nil {
				break
			}
			polls++
			nv, same, volatile := c.askThread(ctx, v)
			switch {
			case volatile:
				c.log.Info("comment thread API changes by itself: no longer watched", "post", post, "url", v.URL)
				if c.threadDropped == nil {
					c.threadDropped = map[string]bool{}
				}
				c.threadDropped[v.URL] = true
				continue
			case !same:
				c.threadsChanged[post] = true
			}
			c.threadPolls[post] = append(c.threadPolls[post], nv)
		}
	}
	if len(c.threadsChanged) > 0 {
		c.log.Info("comment threads changed", "posts", len(c.threadsChanged), "asked", polls)
	}
	return len(c.threadsChanged) > 0
}

// askThread asks for a watched thread API with its validators and reports
// whether it is unchanged, with its validators now (v on failure), and
// whether it changes by itself (a changed answer asked again differs
// again).
func (c *crawl) askThread(ctx context.Context, v blogharvest.Validators) (nv blogharvest.Validators, same, volatile bool) {
	nv, ok := c.threadAnswer(ctx, v)
	if !ok || nv.Digest == v.Digest {
		return nv, true, false
	}
	again, ok := c.threadAnswer(ctx, blogharvest.Validators{URL: v.URL})
	return nv, false, ok && again.Digest != nv.Digest
}

// threadAnswer asks for the thread API v.URL, conditionally when v has
// validators, and returns its validators now; ok is false when it did not
// answer with a body (v is returned: a 304, a failure, another status).
func (c *crawl) threadAnswer(ctx context.Context, v blogharvest.Validators) (blogharvest.Validators, bool) {
	resp, err := c.client.Do(ctx, fetch.Request{URL: v.URL, ETag: baseETag(v.ETag), LastModified: v.LastModified,
		Accept: "application/json", Kind: fetch.Subresource})
	switch {
	case err != nil:
		c.log.Info("comment thread not asked", "url", v.URL, "err", err)
		return v, false
	case resp.NotModified:
		return v, false
	case resp.Status != http.StatusOK:
		c.log.Info("comment thread not asked", "url", v.URL, "status", resp.Status)
		return v, false
	}
	return blogharvest.Validators{URL: v.URL, ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified"), Digest: digestOf(resp.Body)}, true
}

// noteThreads keeps the thread watch of a rendered page (in the
// coordinator), for State.Threads: the comment threads it drew from, or
// the candidates of a page that showed none (threadWatch).
func (c *crawl) noteThreads(j *pageJob) {
	if j == nil || len(j.threads) == 0 && len(j.threadCands) == 0 {
		return
	}
	if c.threadVals == nil {
		c.threadVals, c.threadCands = map[string][]blogharvest.Validators{}, map[string][]blogharvest.Validators{}
	}
	if len(j.threads) > 0 {
		c.threadVals[j.t.url] = j.threads
		delete(c.threadCands, j.t.url)
		return
	}
	delete(c.threadVals, j.t.url)
	c.threadCands[j.t.url] = j.threadCands
}

// threadState returns State.Threads (see the file comment): for each post
// of every feed page read (in the feed's order) and each post the last
// watch held, the watch of this crawl's render (with the digests the Go
// client saw when it asked for the same URLs, so that the next poll
// compares like with like; for a post that showed no comment, its
// candidates of a thread's shape), else what this crawl's poll saw of a
// thread that did not change, else the last crawl's (a changed thread
// whose post was not rendered again is asked about again); at most
// maxThreadPolls URLs, the first posts first.
func (c *crawl) threadState() map[string][]blogharvest.Validators {
	shapes := c.threadShapes()
	out := map[string][]blogharvest.Validators{}
	n := 0
	for _, k := range c.watchPosts() {
		var vs []blogharvest.Validators
		switch rendered, cands, polled := c.threadVals[k], c.threadCands[k], c.threadPolls[k]; {
		case len(rendered) > 0:
			vs = withPolled(rendered, polled)
		case cands != nil:
			vs = withPolled(ofShape(cands, shapes), polled)
		case len(polled) > 0 && !c.threadsChanged[k]:
			vs = polled
		default:
			vs = c.o.State.Threads[k]
		}
		vs = slices.DeleteFunc(slices.Clone(vs), func(v blogharvest.Validators) bool { return c.threadDropped[v.URL] })
		if len(vs) == 0 || n+len(vs) > maxThreadPolls {
			continue
		}
		n += len(vs)
		out[k] = vs
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// watchPosts returns the posts State.Threads may hold, in the order they
// are given room: the items of every feed page the crawl read, as the
// feed lists them (newest first), then the other posts the last watch
// held, by URL.
func (c *crawl) watchPosts() []string {
	var out []string
	seen := map[string]bool{}
	if c.feed != nil {
		for i := range c.feed.Items {
			if k := itemKey(&c.feed.Items[i]); k != "" && !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(c.o.State.Threads)) {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// threadShapes returns the shapes (threadShape) of the thread APIs the
// blog answered with comments: in this crawl's renders and in the last
// crawl's watch.
func (c *crawl) threadShapes() map[string]bool {
	out := map[string]bool{}
	for _, m := range []map[string][]blogharvest.Validators{c.threadVals, c.o.State.Threads} {
		for _, vs := range m {
			for _, v := range vs {
				if s := threadShape(v.URL); s != "" {
					out[s] = true
				}
			}
		}
	}
	return out
}

// ofShape returns the validators of vs whose URL has one of shapes, at
// most maxThreadURLs.
func ofShape(vs []blogharvest.Validators, shapes map[string]bool) []blogharvest.Validators {
	var out []blogharvest.Validators
	for _, v := range vs {
		if shapes[threadShape(v.URL)] && len(out) < maxThreadURLs {
			out = append(out, v)
		}
	}
	return out
}

// withPolled returns vs with the validators of polled for the same URLs.
func withPolled(vs, polled []blogharvest.Validators) []blogharvest.Validators {
	out := slices.Clone(vs)
	for i := range out {
		for _, p := range polled {
			if p.URL == out[i].URL {
				out[i] = p
			}
		}
	}
	return out
}

// Watch is what a crawl leaves for the next update that an archive keeps
// for `crawl -out`, which starts from the archive (State's
// CrawlState.Threads, CommentShapes, WidgetScripts and Moved): in the Blog record's state file
// (blogharvest.RoleState, stateFile) and, after a crawl that changed it
// without writing a Blog AIP, in the state the archive keeps beside the
// bags (the daemon's aip.PutBlogState). Its JSON is the content of both.
type Watch struct {
	At            time.Time                           `json:"at,omitzero"` // when the crawl that left it started
	Threads       map[string][]blogharvest.Validators `json:"threads"`
	CommentShapes []string                            `json:"comment_shapes,omitempty"`
	// WidgetScripts are the scripts that drew comment widgets
	// (scriptwidget.go; CrawlState.WidgetScripts).
	WidgetScripts []string `json:"widget_scripts,omitempty"`
	// Moved is CrawlState.Moved: the posts that moved, new URL → the URL
	// they were archived under (moves.go).
	Moved map[string]string `json:"moved,omitempty"`
	// Gone is CrawlState.Gone: the archived posts that answered 404 or
	// 410, suspected or withdrawn (gone.go).
	Gone map[string]blogharvest.GonePost `json:"gone,omitempty"`
}

// WatchOf returns the Watch of a crawl's state st, started at at.
func WatchOf(st blogharvest.CrawlState, at time.Time) Watch {
	return Watch{At: at.UTC(), Threads: st.Threads, CommentShapes: st.CommentShapes, WidgetScripts: st.WidgetScripts, Moved: st.Moved, Gone: st.Gone}
}

// JSON returns the content of a state file holding w.
func (w Watch) JSON() []byte {
	body, _ := json.Marshal(w) // strings, times and maps of strings: no error
	return body
}

// WatchFrom returns the Watch a state file holds (Watch.JSON); zero when
// data is empty or does not parse. At is zero for a Blog AIP written
// before it was recorded.
func WatchFrom(data []byte) Watch {
	var w Watch
	if len(data) == 0 || json.Unmarshal(data, &w) != nil {
		return Watch{}
	}
	return w
}

// Same reports whether w and o ask for the same thread URLs and compare
// their answers with the same digests (validators aside: a new ETag of
// the same answer changes nothing the next poll decides), with the same
// comment shapes, so that a caller keeping the watch writes it only when
// it changed.
func (w Watch) Same(o Watch) bool {
	return slices.Equal(w.CommentShapes, o.CommentShapes) && slices.Equal(w.WidgetScripts, o.WidgetScripts) && maps.Equal(w.Moved, o.Moved) && maps.EqualFunc(w.Gone, o.Gone, sameGone) && maps.EqualFunc(w.Threads, o.Threads, func(x, y []blogharvest.Validators) bool {
		return slices.EqualFunc(x, y, func(v, u blogharvest.Validators) bool { return v.URL == u.URL && v.Digest == u.Digest })
	})
}

// stateFile returns w as a file of the Blog record
// (blogharvest.RoleState), so that an update started from the archive
// (StateFrom, WatchFrom) knows it; nil when it holds nothing.
func stateFile(w Watch) *blogharvest.File {
	if len(w.Threads) == 0 && len(w.CommentShapes) == 0 && len(w.WidgetScripts) == 0 && len(w.Moved) == 0 && len(w.Gone) == 0 {
		return nil
	}
	f := &blogharvest.File{Role: blogharvest.RoleState, MediaType: "application/json", Body: w.JSON(), Captured: w.At}
	f.Sum()
	return f
}

// MovedFrom returns State.Moved from the content of a Blog AIP's state
// file (stateFile); nil when it holds none or does not parse.
func MovedFrom(data []byte) map[string]string { return WatchFrom(data).Moved }
