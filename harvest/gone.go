package harvest

import (
	"bytes"
	"context"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/discover"
)

// Withdrawals: an archived post that answers 404 or 410. The gone check
// (harvest/discover.Gone: AskGone before anything else, AskDropped once
// the feed is read; its doc says when a post is suspected, withdrawn,
// asked again and restored) decides; this file keeps what it leaves
// (withdrawals: State.Gone, the events) and writes its ledger lines
// (askGone, askDropped). A confirmed withdrawal is recorded by the Blog
// AIP the run writes (the ledger's fate withdrawn, and State.Gone in its
// state file, kept by every later Blog AIP); the archived versions of a
// withdrawn post are never touched.

// withdrawals is State.Gone as this crawl leaves it (posts) and the count
// of posts it found withdrawn or restored (events), and the gone check
// (check, built with the client in newClient from cfg, built once in
// newCrawl): the coordinator's alone.
type withdrawals struct {
	posts  map[string]blogharvest.GonePost
	events int
	check  *discover.Gone
	cfg    discover.GoneConfig
}

// askGone has the gone check ask the posts of State.Gone that are due
// (discover.Gone.AskGone) and keeps what changed.
func (c *crawl) askGone(ctx context.Context) {
	if c.emit == nil {
		return
	}
	c.keepGone(c.gone.check.AskGone(ctx))
}

// askDropped has the gone check ask the posts the feed's first page
// listed last time and no longer lists (discover.Gone.AskDropped), when
// the feed was read (it changed) and the blog did not move (ProbeArchive
// asks then), and keeps what changed.
func (c *crawl) askDropped(ctx context.Context) {
	if c.emit == nil || c.site.feed == nil || c.move.stage.Moving() {
		return
	}
	c.keepGone(c.gone.check.AskDropped(ctx, c.gone.posts, c.itemSignatures()))
}

// keepGone keeps State.Gone as a step of the gone check leaves it, counts
// its events and writes its ledger lines.
func (c *crawl) keepGone(g discover.GoneCheck) {
	c.gone.posts = g.Posts
	c.gone.events += g.Events
	c.ledger.apply(g.Lines)
}

// goneState returns State.Gone as this crawl leaves it: the last crawl's
// when this one asked nothing.
func (c *crawl) goneState() map[string]blogharvest.GonePost {
	g := c.gone.posts
	if g == nil {
		g = c.gone.cfg.Gone
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
