package harvest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// Withdrawals: an archived post that answers 404 or 410.
//
// Where an update learns it: a post the feed's first page listed last
// time (State.Items) and no longer lists was either pushed off the page
// by newer posts, dropped from the feed, or deleted; only its own URL
// tells. When the page lost more posts than it gained (new posts push as
// many old ones off, which costs no request), an update that read the
// changed feed asks each dropped URL once (askDropped; conditionally, with
// its last capture's validators, at most maxGoneAsks a run): a 404 or 410
// makes the post suspected (State.Gone, First). The next update, a different run, asks the suspected posts
// again before anything else (askGone), even when the feeds are
// unchanged: a second 404 or 410 confirms the withdrawal, which the Blog
// AIP written by that run records (the ledger's fate withdrawn, and
// State.Gone in its state file, kept by every later Blog AIP); an answer
// clears the suspicion. A withdrawn post is asked again after
// goneRecheckFirst, then after twice the last wait, up to goneRecheckMax:
// a post that answers again is recorded restored (fate restored) and
// leaves State.Gone. The archived versions of a withdrawn post are never
// touched. A gone post the feed lists again is asked first thing on the
// next update, as a suspected one is.
const (
	maxGoneAsks      = 10                   // URLs askGone and askDropped ask per crawl, each at most
	goneRecheckFirst = 7 * 24 * time.Hour   // the first wait before a withdrawn post is asked again
	goneRecheckMax   = 180 * 24 * time.Hour // the longest wait
)

// withdrawals is State.Gone as this crawl leaves it (posts) and the count
// of posts it found withdrawn or restored (events): the coordinator's
// alone.
type withdrawals struct {
	posts  map[string]blogharvest.GonePost
	events int
}

// goneAnswer is what a URL answered: 404 or 410 (gone), any other status
// of a page (back), or nothing usable (a 5xx, no connection: no evidence
// either way).
func (c *crawl) goneAnswer(ctx context.Context, u string) (status int, gone, back bool) {
	v := c.o.State.Pages[u]
	resp, err := c.client.Do(ctx, fetch.Request{URL: u, ETag: v.ETag, LastModified: v.LastModified})
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

// askGone asks the posts of State.Gone that are due (a suspected post on
// every update, a withdrawn one by its backoff), at most maxGoneAsks, the
// longest waiting first, and records what changed.
func (c *crawl) askGone(ctx context.Context) {
	if !c.pol.useState || c.emit == nil {
		return
	}
	c.gone.posts = maps.Clone(c.o.State.Gone)
	var due []string
	for u, g := range c.gone.posts {
		if g.Next.IsZero() || !c.start.Before(g.Next) {
			due = append(due, u)
		}
	}
	slices.SortFunc(due, func(a, b string) int { return c.gone.posts[a].Asked.Compare(c.gone.posts[b].Asked) })
	for _, u := range due[:min(len(due), maxGoneAsks)] {
		if ctx.Err() != nil {
			return
		}
		status, gone, back := c.goneAnswer(ctx, u)
		g := c.gone.posts[u]
		switch {
		case gone && g.Confirmed.IsZero():
			g.Confirmed, g.Status, g.Asked, g.Next = c.start, status, c.start, c.start.Add(goneRecheckFirst)
			c.gone.posts[u] = g
			c.gone.events++
			c.ledger.force(u, FateWithdrawn, fmt.Sprintf("withdrawn from the live blog: HTTP %d on %s, HTTP %d on %s; its archived versions are kept",
				g.FirstStatus, day(g.First), status, day(c.start)), "archived")
			c.stats.warnf("post withdrawn from the live blog: %s answered %d on %s and %d now", u, g.FirstStatus, day(g.First), status)
		case gone:
			wait := min(max(2*g.Next.Sub(g.Asked), goneRecheckFirst), goneRecheckMax)
			g.Status, g.Asked, g.Next = status, c.start, c.start.Add(wait)
			c.gone.posts[u] = g
			c.log.Info("withdrawn post still gone", "url", u, "status", status, "next", g.Next)
		case back && g.Confirmed.IsZero():
			delete(c.gone.posts, u)
			c.log.Info("post suspected gone answers again", "url", u, "status", status)
		case back:
			delete(c.gone.posts, u)
			c.gone.events++
			c.ledger.force(u, FateRestored, fmt.Sprintf("restored on the live blog: answers HTTP %d on %s; withdrawn since %s (HTTP %d), confirmed %s",
				status, day(c.start), day(g.First), g.FirstStatus, day(g.Confirmed)), "archived")
			c.stats.warnf("withdrawn post restored on the live blog: %s answers %d", u, status)
		default:
			g.Asked = c.start // no evidence either way: asked again next time
			c.gone.posts[u] = g
		}
	}
}

// askDropped asks the posts the feed's first page listed last time
// (State.Items) and no longer lists, at most maxGoneAsks, when the feed
// was read (it changed) and the blog did not move (probeMoves asks then):
// a 404 or 410 makes the post suspected.
func (c *crawl) askDropped(ctx context.Context) {
	if !c.pol.useState || c.emit == nil || c.site.feed == nil || c.site.moving || len(c.o.State.Items) == 0 {
		return
	}
	now := c.itemSignatures()
	if len(now) == 0 {
		return // a feed without items says nothing about posts
	}
	if c.gone.posts == nil {
		c.gone.posts = maps.Clone(c.o.State.Gone)
	}
	for u, g := range c.gone.posts {
		if _, listed := now[u]; listed && !g.Next.IsZero() {
			g.Next = time.Time{} // listed again: asked first thing next run (askGone), restored if it answers
			c.gone.posts[u] = g
		}
	}
	var dropped []string
	for u := range c.o.State.Items {
		if _, listed := now[u]; !listed {
			if _, known := c.gone.posts[u]; !known {
				dropped = append(dropped, u)
			}
		}
	}
	added := 0
	for u := range now {
		if _, was := c.o.State.Items[u]; !was {
			added++
		}
	}
	if added >= len(dropped) {
		return // as many new posts as posts dropped: pushed off the page, not deleted (no request)
	}
	slices.Sort(dropped)
	for _, u := range dropped[:min(len(dropped), maxGoneAsks)] {
		if ctx.Err() != nil {
			return
		}
		status, gone, _ := c.goneAnswer(ctx, u)
		if !gone {
			continue
		}
		if c.gone.posts == nil {
			c.gone.posts = map[string]blogharvest.GonePost{}
		}
		c.gone.posts[u] = blogharvest.GonePost{First: c.start, FirstStatus: status, Status: status, Asked: c.start}
		c.ledger.force(u, FateFailed, fmt.Sprintf("archived post, gone from the feed, answers HTTP %d: asked again next run before it is recorded withdrawn", status), "archived")
		c.log.Info("archived post answers gone: asked again next run", "url", u, "status", status)
	}
}

// goneState returns State.Gone as this crawl leaves it: the last crawl's
// when this one asked nothing.
func (c *crawl) goneState() map[string]blogharvest.GonePost {
	g := c.gone.posts
	if g == nil {
		g = c.o.State.Gone
	}
	if len(g) == 0 {
		return nil
	}
	return g
}

// sameGone reports whether two records of a gone post say the same.
func sameGone(a, b blogharvest.GonePost) bool {
	return a.First.Equal(b.First) && a.FirstStatus == b.FirstStatus && a.Confirmed.Equal(b.Confirmed) &&
		a.Status == b.Status && a.Asked.Equal(b.Asked) && a.Next.Equal(b.Next)
}

// day formats t as a UTC date and time for a ledger detail.
func day(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// RecordsWithdrawal reports whether b's crawl ledger records a post
// withdrawn from the live blog or restored on it (FateWithdrawn,
// FateRestored): its Blog AIP must then be written as a new version even
// when the blog's content is unchanged (aip.Writer.WriteBlogAgain), since
// the content digest leaves the ledger out.
func RecordsWithdrawal(b *blogharvest.Blog) bool {
	for _, f := range b.Files {
		if f.Role == blogharvest.RoleLedger &&
			(bytes.Contains(f.Body, []byte("\t"+FateWithdrawn+"\t")) || bytes.Contains(f.Body, []byte("\t"+FateRestored+"\t"))) {
			return true
		}
	}
	return false
}
