package comments

import (
	"context"
	"log/slog"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"

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
// them conditionally (Poll), after the feeds and even when the
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

// ThreadWatch returns the validators of the thread API responses of a
// page rendered for its comments (see the file comment): those the
// comments were read from; when none held comments, the JSON answers its
// scripts fetched with GET as candidates (threadState keeps those of a
// thread's shape). Both are nil when its scripts fetched none.
func ThreadWatch(res *render.Result, lang string) (holding, cands []blogharvest.Validators) {
	pages := RenderedPages(res, lang)
	for _, a := range res.API {
		if a.Method != "" && a.Method != http.MethodGet || a.Status != http.StatusOK || len(cands) >= maxThreadURLs*4 {
			continue
		}
		v := blogharvest.Validators{URL: a.URL, ETag: a.ETag, LastModified: a.LastModified, Digest: blogharvest.DigestOf(a.Body)}
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

// Watcher is the watch of the comment thread APIs between crawls
// (see the file comment): what the last crawl watched (State.Threads),
// what this crawl's poll found, and what its renders drew from. The
// coordinator polls it during set-up (Poll) and notes each rendered
// page's watch as the outcome comes back (Note); the comment stage reads
// which posts' threads changed (Changed, comments.Threads) once set-up is
// done; State is State.Threads. It asks through the fetcher handed to it
// once the crawl's client is built (UseFetcher).
type Watcher struct {
	last     map[string][]blogharvest.Validators // State.Threads: the last crawl's watch
	useState bool                                // policy.useState: an update polls the watch
	log      *slog.Logger
	fetch    APIFetcher // what Poll asks through (UseFetcher); nil before
	// polled says Poll ran; polls holds what each watched thread API
	// answered, changedPosts the posts whose thread answered differently,
	// dropped the thread API URLs that change by themselves.
	polled       bool
	polls        map[string][]blogharvest.Validators
	changedPosts map[string]bool
	dropped      map[string]bool
	// vals is the watch of the posts rendered, cands the candidates of
	// those rendered showing no comment (Note).
	vals, cands map[string][]blogharvest.Validators
}

// NewWatcher returns the watch of a crawl that starts from last
// (State.Threads), polled when useState.
func NewWatcher(last map[string][]blogharvest.Validators, useState bool, log *slog.Logger) *Watcher {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Watcher{last: last, useState: useState, log: log}
}

// UseFetcher hands the watch what Poll asks through: the crawl's client,
// once it is built.
func (t *Watcher) UseFetcher(f APIFetcher) {
	t.fetch = f
}

// Changed reports whether Poll found the thread API of the post at raw
// changed; false for a nil watch (comments.Threads).
func (t *Watcher) Changed(raw string) bool {
	return t != nil && t.changedPosts[raw]
}

// Poll asks, once per UpdateCrawl given State.Threads, for every
// watched thread API conditionally through its fetcher (UseFetcher; with
// none, Poll asks nothing and a later one may ask), before the posts feed
// is read (it is then read on to the items of the posts whose thread
// changed: wantItems), and returns whether one of them changed; t.polls
// keeps what each answered, t.changedPosts the posts to read again. A
// failed request counts as no change: the post is asked about again next
// time.
func (t *Watcher) Poll(ctx context.Context) bool {
	if t.polled || !t.useState || len(t.last) == 0 || t.fetch == nil {
		return len(t.changedPosts) > 0
	}
	t.polled = true
	t.polls, t.changedPosts = map[string][]blogharvest.Validators{}, map[string]bool{}
	polls := 0
	for _, post := range slices.Sorted(maps.Keys(t.last)) {
		for _, v := range t.last[post] {
			if polls >= maxThreadPolls || ctx.Err() != nil {
				break
			}
			polls++
			nv, same, volatile := t.ask(ctx, t.fetch, v)
			switch {
			case volatile:
				t.log.Info("comment thread API changes by itself: no longer watched", "post", post, "url", v.URL)
				if t.dropped == nil {
					t.dropped = map[string]bool{}
				}
				t.dropped[v.URL] = true
				continue
			case !same:
				t.changedPosts[post] = true
			}
			t.polls[post] = append(t.polls[post], nv)
		}
	}
	if len(t.changedPosts) > 0 {
		t.log.Info("comment threads changed", "posts", len(t.changedPosts), "asked", polls)
	}
	return len(t.changedPosts) > 0
}

// ask asks for a watched thread API with its validators and reports
// whether it is unchanged, with its validators now (v on failure), and
// whether it changes by itself (a changed answer asked again differs
// again).
func (t *Watcher) ask(ctx context.Context, f APIFetcher, v blogharvest.Validators) (nv blogharvest.Validators, same, volatile bool) {
	nv, ok := t.answer(ctx, f, v)
	if !ok || nv.Digest == v.Digest {
		return nv, true, false
	}
	again, ok := t.answer(ctx, f, blogharvest.Validators{URL: v.URL})
	return nv, false, ok && again.Digest != nv.Digest
}

// answer asks for the thread API v.URL, conditionally when v has
// validators, and returns its validators now; ok is false when it did not
// answer with a body (v is returned: a 304, a failure, another status).
func (t *Watcher) answer(ctx context.Context, f APIFetcher, v blogharvest.Validators) (blogharvest.Validators, bool) {
	resp, err := f.Do(ctx, fetch.Request{URL: v.URL, ETag: v.ETag, LastModified: v.LastModified,
		Accept: "application/json", Kind: fetch.Subresource})
	switch {
	case err != nil:
		t.log.Info("comment thread not asked", "url", v.URL, "err", err)
		return v, false
	case resp.NotModified:
		return v, false
	case resp.Status != http.StatusOK:
		t.log.Info("comment thread not asked", "url", v.URL, "status", resp.Status)
		return v, false
	}
	return blogharvest.Validators{URL: v.URL, ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified"), Digest: blogharvest.DigestOf(resp.Body)}, true
}

// Note keeps the thread watch of the rendered page of the post at post
// (in the coordinator), for State.Threads: the comment threads it drew
// from, or the candidates of a page that showed none (ThreadWatch).
func (t *Watcher) Note(post string, threads, cands []blogharvest.Validators) {
	if len(threads) == 0 && len(cands) == 0 {
		return
	}
	if t.vals == nil {
		t.vals, t.cands = map[string][]blogharvest.Validators{}, map[string][]blogharvest.Validators{}
	}
	if len(threads) > 0 {
		t.vals[post] = threads
		delete(t.cands, post)
		return
	}
	delete(t.vals, post)
	t.cands[post] = cands
}

// ChangedPosts returns the posts whose thread API Poll found changed, by
// URL.
func (t *Watcher) ChangedPosts() []string {
	if t == nil {
		return nil
	}
	return slices.Sorted(maps.Keys(t.changedPosts))
}

// State returns State.Threads (see the file comment): for each post of
// every feed page read (items: the keys of the feed's items, in the
// feed's order) and each
// post the last watch held, the watch of this crawl's render (with the
// digests the Go client saw when it asked for the same URLs, so that the
// next poll compares like with like; for a post that showed no comment,
// its candidates of a thread's shape), else what this crawl's poll saw of
// a thread that did not change, else the last crawl's (a changed thread
// whose post was not rendered again is asked about again); at most
// maxThreadPolls URLs, the first posts first.
func (t *Watcher) State(items []string) map[string][]blogharvest.Validators {
	shapes := t.shapes()
	out := map[string][]blogharvest.Validators{}
	n := 0
	for _, k := range t.watchPosts(items) {
		var vs []blogharvest.Validators
		switch rendered, cands, polled := t.vals[k], t.cands[k], t.polls[k]; {
		case len(rendered) > 0:
			vs = withPolled(rendered, polled)
		case cands != nil:
			vs = withPolled(ofShape(cands, shapes), polled)
		case len(polled) > 0 && !t.changedPosts[k]:
			vs = polled
		default:
			vs = t.last[k]
		}
		vs = slices.DeleteFunc(slices.Clone(vs), func(v blogharvest.Validators) bool { return t.dropped[v.URL] })
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
// are given room: the items of every feed page the crawl read (items, the
// keys of the feed's items as the feed lists them, newest first), then
// the other posts the last watch held, by URL.
func (t *Watcher) watchPosts(items []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, k := range items {
		if k != "" && !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(t.last)) {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// shapes returns the shapes (threadShape) of the thread APIs the blog
// answered with comments: in this crawl's renders and in the last
// crawl's watch.
func (t *Watcher) shapes() map[string]bool {
	out := map[string]bool{}
	for _, m := range []map[string][]blogharvest.Validators{t.vals, t.last} {
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
