package harvest

import (
	"context"
	"encoding/json"
	"maps"
	"net/http"
	"slices"
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
// scripts fetched with GET are the thread's source (render.Result.API):
// those the comments were read from (learn.APIComments finds records that
// the page shows), or, when the page shows no comment yet, each JSON
// response of the render (at most maxThreadURLs), since the thread's first
// comment will change one of them. State.Threads keeps, for the posts of
// the feed's first page, each such URL with its ETag, Last-Modified and
// the SHA-256 of its body. The next UpdateCrawl asks for them
// conditionally (pollThreads), after the feeds and even when the feeds did
// not change; a post whose thread answers differently is read again and
// rendered (ReasonThreadChanged), and its entry is archived when it
// changed. An unchanged blog costs the two feed requests plus one request
// per watched URL (at most maxThreadPolls). A URL that answers
// differently is asked once more at once: when the two answers differ
// too (a counter, a timestamp, a token in the JSON), it changes by itself,
// tells nothing, and is no longer watched.

// Bounds of the thread watch.
const (
	maxThreadURLs  = 3  // JSON responses watched per post
	maxThreadPolls = 50 // watched URLs asked for by one UpdateCrawl
)

// threadWatch returns the validators of the thread API responses of a
// page rendered for its comments (see the file comment); nil when its
// scripts fetched none with GET.
func threadWatch(res *render.Result, lang string) []blogharvest.Validators {
	var all, holding []blogharvest.Validators
	pages := renderedPages(res, lang)
	for _, a := range res.API {
		if a.Method != "" && a.Method != http.MethodGet || a.Status != http.StatusOK || len(all) >= maxThreadURLs*4 {
			continue
		}
		v := blogharvest.Validators{URL: a.URL, ETag: a.ETag, LastModified: a.LastModified, Digest: digestOf(a.Body)}
		if slices.ContainsFunc(all, func(o blogharvest.Validators) bool { return o.URL == v.URL }) {
			continue
		}
		all = append(all, v)
		if len(learn.APIComments([][]byte{a.Body}, pages)) > 0 {
			holding = append(holding, v)
		}
	}
	if len(holding) > 0 {
		all = holding
	}
	return all[:min(len(all), maxThreadURLs)]
}

// pollThreads asks, once per UpdateCrawl given State.Threads, for every
// watched thread API of the feed's first page posts conditionally, and
// returns whether one of them changed; c.threadPolls keeps what each
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

// threadChanged reports whether pollThreads found the thread API of the
// post at raw changed.
func (w *pageWorker) threadChanged(raw string) bool {
	return w.site != nil && w.threadsChanged[raw]
}

// noteThreads keeps the thread watch of a rendered page (in the
// coordinator), for State.Threads.
func (c *crawl) noteThreads(j *pageJob) {
	if j == nil || len(j.threads) == 0 {
		return
	}
	if c.threadVals == nil {
		c.threadVals = map[string][]blogharvest.Validators{}
	}
	c.threadVals[j.t.url] = j.threads
}

// threadState returns State.Threads for the items keyed in items: the
// watch of this crawl's render (with the digests the Go client saw when
// it asked for the same URLs, so that the next poll compares like with
// like), else what this crawl's poll saw of a thread that did not change,
// else the last crawl's (a changed thread whose post was not rendered
// again is asked about again).
func (c *crawl) threadState(items map[string]string) map[string][]blogharvest.Validators {
	out := map[string][]blogharvest.Validators{}
	for k := range items {
		var vs []blogharvest.Validators
		switch rendered, polled := c.threadVals[k], c.threadPolls[k]; {
		case len(rendered) > 0:
			vs = withPolled(rendered, polled)
		case len(polled) > 0 && !c.threadsChanged[k]:
			vs = polled
		default:
			vs = c.o.State.Threads[k]
		}
		vs = slices.DeleteFunc(slices.Clone(vs), func(v blogharvest.Validators) bool { return c.threadDropped[v.URL] })
		if len(vs) > 0 {
			out[k] = vs
		}
	}
	if len(out) == 0 {
		return nil
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

// threadsFile returns the thread watch and the posts that moved
// (State.Moved) as a file of the Blog record (blogharvest.RoleState), so
// that an update started from the archive (StateFrom, ThreadsFrom,
// MovedFrom) knows them; nil when there is neither.
func threadsFile(threads map[string][]blogharvest.Validators, moved map[string]string, at time.Time) *blogharvest.File {
	if len(threads) == 0 && len(moved) == 0 {
		return nil
	}
	body, err := json.Marshal(archivedState{Threads: threads, Moved: moved})
	if err != nil {
		return nil
	}
	f := &blogharvest.File{Role: blogharvest.RoleState, MediaType: "application/json", Body: body, Captured: at}
	f.Sum()
	return f
}

// archivedState is the content of the Blog record's RoleState file.
type archivedState struct {
	Threads map[string][]blogharvest.Validators `json:"threads"`
	// Moved is State.Moved: the posts that moved, new URL → archived URL.
	Moved map[string]string `json:"moved,omitempty"`
}

// MovedFrom returns State.Moved from the content of a Blog AIP's state
// file (threadsFile); nil when it holds none or does not parse.
func MovedFrom(data []byte) map[string]string {
	var st archivedState
	if len(data) == 0 || json.Unmarshal(data, &st) != nil {
		return nil
	}
	return st.Moved
}

// ThreadsFrom returns State.Threads from the content of a Blog AIP's
// state file (threadsFile); nil when it holds none or does not parse.
func ThreadsFrom(data []byte) map[string][]blogharvest.Validators {
	var st archivedState
	if len(data) == 0 || json.Unmarshal(data, &st) != nil {
		return nil
	}
	return st.Threads
}
