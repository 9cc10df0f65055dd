package discover

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// The gone check: an archived post that answers 404 or 410.
//
// Where an update learns it: a post the feed's first page listed last
// time (State.Items) and no longer lists was either pushed off the page
// by newer posts, dropped from the feed, or deleted; only its own URL
// tells. When the page lost more posts than it gained (new posts push as
// many old ones off, which costs no request), an update that read the
// changed feed asks each dropped URL once (Gone.AskDropped;
// conditionally, with its last capture's validators, at most maxGoneAsks
// a run): a 404 or 410 makes the post suspected (State.Gone, First). The
// next update, a different run, asks the suspected posts again before
// anything else (Gone.AskGone), even when the feeds are unchanged: a
// second 404 or 410 confirms the withdrawal (the ledger's fate
// withdrawn); an answer clears the suspicion. A withdrawn post is asked
// again after goneRecheckFirst, then after twice the last wait, up to
// goneRecheckMax: a post that answers again is recorded restored (fate
// restored) and leaves State.Gone. A gone post the feed lists again is
// asked first thing on the next update, as a suspected one is. Each step
// returns State.Gone as it leaves it and the ledger lines (GoneCheck),
// which the crawl keeps and writes (harvest's gone.go).
const (
	maxGoneAsks      = 10                   // URLs AskGone and AskDropped ask per crawl, each at most
	goneRecheckFirst = 7 * 24 * time.Hour   // the first wait before a withdrawn post is asked again
	goneRecheckMax   = 180 * 24 * time.Hour // the longest wait
)

// GoneConfig is what the gone check reads of the crawl's policy and of
// the last crawl's state, built once by the crawl.
type GoneConfig struct {
	// UseState: an UpdateCrawl that starts from the last crawl's state;
	// no other crawl asks.
	UseState bool
	// Start is the crawl's start: when a post is asked.
	Start time.Time
	// Gone, Items and Pages are the last crawl's State.Gone, State.Items
	// and State.Pages (the validators a post is asked with).
	Gone  map[string]blogharvest.GonePost
	Items map[string]string
	Pages map[string]blogharvest.Validators
}

// Requester asks the web for a URL with the request's validators:
// fetch.Client.Do.
type Requester interface {
	Do(ctx context.Context, req fetch.Request) (*fetch.Response, error)
}

// GoneDeps is what the gone check asks of the crawl: the fetch client,
// its warnings and its logger.
type GoneDeps struct {
	Fetch Requester
	Warn  Warner
	Log   *slog.Logger
}

// Gone is the gone check of an UpdateCrawl: its config and deps.
type Gone struct {
	cfg  GoneConfig
	deps GoneDeps
}

// NewGone returns the gone check with config cfg and deps.
func NewGone(cfg GoneConfig, deps GoneDeps) *Gone {
	return &Gone{cfg: cfg, deps: deps}
}

// GoneCheck is what a step of the gone check leaves: State.Gone as it
// leaves it (Posts), the posts it found withdrawn or restored (Events),
// and the ledger lines to write.
type GoneCheck struct {
	Posts  map[string]blogharvest.GonePost
	Events int
	Lines  []LedgerLine
}

// answer is what u answered: 404 or 410 (gone), any other status of a
// page (back), or nothing usable (a 5xx, no connection: no evidence
// either way).
func (g *Gone) answer(ctx context.Context, u string) (status int, gone, back bool) {
	v := g.cfg.Pages[u]
	resp, err := g.deps.Fetch.Do(ctx, fetch.Request{URL: u, ETag: v.ETag, LastModified: v.LastModified})
	var se *fetch.StatusError
	switch {
	case err == nil && resp != nil:
		return resp.Status, false, true
	case errors.As(err, &se) && (se.Code == http.StatusNotFound || se.Code == http.StatusGone):
		return se.Code, true, false
	case errors.As(err, &se) && se.Code < 500:
		return se.Code, false, false // 401, 403, 429: not a withdrawal, not the post either
	}
	return 0, false, false
}

// AskGone asks the posts of the last crawl's State.Gone that are due (a
// suspected post on every update, a withdrawn one by its backoff), at
// most maxGoneAsks, the longest waiting first, and returns what changed;
// nothing for a crawl not from the last crawl's state (Posts nil).
func (g *Gone) AskGone(ctx context.Context) GoneCheck {
	if !g.cfg.UseState {
		return GoneCheck{}
	}
	start := g.cfg.Start
	out := GoneCheck{Posts: maps.Clone(g.cfg.Gone)}
	var due []string
	for u, p := range out.Posts {
		if p.Next.IsZero() || !start.Before(p.Next) {
			due = append(due, u)
		}
	}
	slices.SortFunc(due, func(a, b string) int { return out.Posts[a].Asked.Compare(out.Posts[b].Asked) })
	for _, u := range due[:min(len(due), maxGoneAsks)] {
		if ctx.Err() != nil {
			return out
		}
		status, gone, back := g.answer(ctx, u)
		p := out.Posts[u]
		switch {
		case gone && p.Confirmed.IsZero():
			p.Confirmed, p.Status, p.Asked, p.Next = start, status, start, start.Add(goneRecheckFirst)
			out.Posts[u] = p
			out.Events++
			out.Lines = append(out.Lines, LedgerLine{URL: u, Fate: FateWithdrawn, Via: "archived", Force: true,
				Detail: fmt.Sprintf("withdrawn from the live blog: HTTP %d on %s, HTTP %d on %s; its archived versions are kept",
					p.FirstStatus, day(p.First), status, day(start))})
			g.deps.Warn.Warnf("post withdrawn from the live blog: %s answered %d on %s and %d now", u, p.FirstStatus, day(p.First), status)
		case gone:
			wait := min(max(2*p.Next.Sub(p.Asked), goneRecheckFirst), goneRecheckMax)
			p.Status, p.Asked, p.Next = status, start, start.Add(wait)
			out.Posts[u] = p
			g.deps.Log.Info("withdrawn post still gone", "url", u, "status", status, "next", p.Next)
		case back && p.Confirmed.IsZero():
			delete(out.Posts, u)
			g.deps.Log.Info("post suspected gone answers again", "url", u, "status", status)
		case back:
			delete(out.Posts, u)
			out.Events++
			out.Lines = append(out.Lines, LedgerLine{URL: u, Fate: FateRestored, Via: "archived", Force: true,
				Detail: fmt.Sprintf("restored on the live blog: answers HTTP %d on %s; withdrawn since %s (HTTP %d), confirmed %s",
					status, day(start), day(p.First), p.FirstStatus, day(p.Confirmed))})
			g.deps.Warn.Warnf("withdrawn post restored on the live blog: %s answers %d", u, status)
		default:
			p.Asked = start // no evidence either way: asked again next time
			out.Posts[u] = p
		}
	}
	return out
}

// AskDropped asks the posts the feed's first page listed last time
// (the config's Items) and no longer lists (now: State.Items of the feed
// read), at most maxGoneAsks, when the page lost more posts than it
// gained: a 404 or 410 makes the post suspected. posts is State.Gone as
// this crawl has it so far (AskGone's; nil: the last crawl's); the crawl
// asks only when the feed was read (it changed) and the blog did not move
// (Moves.Probe asks then). It returns posts as it leaves them, with a
// gone post the feed lists again due first thing next run.
func (g *Gone) AskDropped(ctx context.Context, posts map[string]blogharvest.GonePost, now map[string]string) GoneCheck {
	out := GoneCheck{Posts: posts}
	if !g.cfg.UseState || len(g.cfg.Items) == 0 || len(now) == 0 {
		return out // a feed without items says nothing about posts
	}
	if out.Posts == nil {
		out.Posts = maps.Clone(g.cfg.Gone)
	}
	for u, p := range out.Posts {
		if _, listed := now[u]; listed && !p.Next.IsZero() {
			p.Next = time.Time{} // listed again: asked first thing next run (AskGone), restored if it answers
			out.Posts[u] = p
		}
	}
	var dropped []string
	for u := range g.cfg.Items {
		if _, listed := now[u]; !listed {
			if _, known := out.Posts[u]; !known {
				dropped = append(dropped, u)
			}
		}
	}
	added := 0
	for u := range now {
		if _, was := g.cfg.Items[u]; !was {
			added++
		}
	}
	if added >= len(dropped) {
		return out // as many new posts as posts dropped: pushed off the page, not deleted (no request)
	}
	slices.Sort(dropped)
	for _, u := range dropped[:min(len(dropped), maxGoneAsks)] {
		if ctx.Err() != nil {
			return out
		}
		status, gone, _ := g.answer(ctx, u)
		if !gone {
			continue
		}
		if out.Posts == nil {
			out.Posts = map[string]blogharvest.GonePost{}
		}
		out.Posts[u] = blogharvest.GonePost{First: g.cfg.Start, FirstStatus: status, Status: status, Asked: g.cfg.Start}
		out.Lines = append(out.Lines, LedgerLine{URL: u, Fate: FateFailed, Via: "archived", Force: true,
			Detail: fmt.Sprintf("archived post, gone from the feed, answers HTTP %d: asked again next run before it is recorded withdrawn", status)})
		g.deps.Log.Info("archived post answers gone: asked again next run", "url", u, "status", status)
	}
	return out
}

// day formats t as a UTC date and time for a ledger detail.
func day(t time.Time) string { return t.UTC().Format(time.RFC3339) }
