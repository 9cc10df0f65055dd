package harvest

import (
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/feed"
)

// changes is UpdateCrawl's test of what changed since the last crawl:
// which feed items were published, edited or listed anew, which entries
// are dated after since. The coordinator builds it with the crawl
// (newChanges) from the policy and Options.State and hands it to the page
// worker; it is read-only after that. It reads the page worker's copy of
// the site (given by pageWorker.begin) for the feed's first page, and
// whether the blog moved (moving), both set up before any item is tested.
type changes struct {
	// since is the date after which UpdateCrawl archives what was
	// published, edited or commented; zero for NewCrawl.
	since time.Time
	// only: emit only what changed after since (policy.changedOnly).
	only bool
	// settled: no recheck is due (policy.settled).
	settled bool
	// items are the signatures of the last crawl's first-page items
	// (State.Items), by itemKey.
	items map[string]string
	// site is the page worker's copy of the site, set when it is handed
	// over (pageWorker.begin); itemChanged and onFirstPage are not asked
	// before.
	site *site
	// moving says UpdateCrawl suspects the blog moved
	// (discover.Moves.Suspect, set by the set-up before the site is
	// handed over): a feed item at a URL the last crawl did not list is
	// read and emitted, and matched with the archive's posts (moves.go).
	moving bool
}

// newChanges is the change test of a crawl with policy pol and the last
// crawl's item signatures items.
func newChanges(pol policy, items map[string]string) *changes {
	return &changes{since: pol.since, only: pol.changedOnly, settled: pol.settled, items: items}
}

// itemChanged reports whether a feed item was published or edited after
// since.
//
// A feed that gives no modification date (WordPress RSS) cannot say whether
// an older post was edited; the crawl keeps no state to compare with, so the
// items of the feed's first page without one count as changed: they are
// extracted again and the archive, which writes a version only when the
// content differs, decides. Nothing edited within the feed's window is lost.
//
// With State.Items, an item whose signature (content, dates, comment
// count) differs from the last crawl's counts as changed too, and one
// whose signature is the same does not; undated first-page items count as
// changed only when the recheck is due (recheckDue), and are then asked
// for conditionally (recheckPage): comments and edits beyond the feed's
// summary show nowhere else.
func (ch *changes) itemChanged(it *feed.Item) bool {
	if it.Published.After(ch.since) || it.Updated.After(ch.since) {
		return true
	}
	changed, known := ch.signatureChanged(it)
	if changed || ch.moving && !known {
		return true // a moved blog's item at a URL the last crawl did not list: matched with the archive's (moves.go)
	}
	if ch.unlisted(it) {
		return true
	}
	return it.Updated.IsZero() && !ch.settled && ch.onFirstPage(it)
}

// unlisted reports whether it is on the feed's first page and the last
// crawl's first page did not list it: a post new to the feed whatever its
// date says. Static sites are often deployed days after the date their
// posts give, so a new post may be dated before the last crawl; dates
// alone would leave it unarchived until a full crawl. An older post that
// rose onto the first page (a newer one deleted) is read again too, and
// written only if it changed (entryChanged).
func (ch *changes) unlisted(it *feed.Item) bool {
	if len(ch.items) == 0 || !ch.onFirstPage(it) {
		return false // no earlier first page to compare with
	}
	k := itemKey(it)
	if k == "" {
		return false
	}
	_, listed := ch.items[k]
	return !listed
}

// onFirstPage reports whether it is among the items of the feed's first page.
func (ch *changes) onFirstPage(it *feed.Item) bool {
	n := min(ch.site.feed.FirstPage, len(ch.site.feed.Items))
	for i := range ch.site.feed.Items[:n] {
		if &ch.site.feed.Items[i] == it || ch.site.feed.Items[i].Link == it.Link && ch.site.feed.Items[i].GUID == it.GUID {
			return true
		}
	}
	return false
}

// signatureChanged reports whether the last crawl left a signature of the
// same kind for the item (known) and whether it differs from the item's
// now. The "" of a failed page differs from every signature.
func (ch *changes) signatureChanged(it *feed.Item) (changed, known bool) {
	sig, ok := ch.items[itemKey(it)]
	if !ok {
		return false, false
	}
	now := itemSignature(it)
	if sig != "" && sig[:2] != now[:2] {
		return false, false
	}
	return sig != now, true
}

// entryChanged reports, for UpdateCrawl, whether an entry holds anything
// after since: publication, edit, a comment, or a sitemap lastmod.
func (ch *changes) entryChanged(e *blogharvest.Entry, t task) bool {
	if e.Created.IsZero() && t.lastmod.IsZero() {
		return true // undated: cannot tell, keep it
	}
	if e.Created.After(ch.since) || e.Modified.After(ch.since) || t.lastmod.After(ch.since) {
		return true
	}
	for _, cm := range e.Comments {
		if cm.Added.After(ch.since) {
			return true
		}
	}
	return false
}
