package discover

import (
	"context"
	"maps"
	"slices"

	"github.com/blogharvest/blogharvest"
)

// Matching this crawl's posts with the archive's: when a move is
// suspected, ProbeArchive reads the archive's posts (MoveDeps.Posts),
// indexes them (a MoveIndex) and asks for the archived URLs the feed no
// longer lists (Probe), noting the redirects found in the index; Identify
// then names, for each post the crawl emits, the archived post it
// continues (State.Moved's first, else the index's match) and keeps the
// pair for State.Moved (Moved). The crawl applies the values returned:
// the ledger lines and pages of the probe, the entry's alias, the
// ledger's redirect and the count of moved posts (harvest's moves.go).

// ProbeArchive reads the archive's posts when a move is suspected
// (Suspect) and the crawl has them (MoveDeps.Posts), indexes
// them for Identify and asks for the archived URLs the feed no longer
// lists (listed, by canonical URL; Probe), noting each redirect found in
// the index. It returns what the probe found for the crawl to apply (the
// ledger lines, the pages fetched); nothing when no move is suspected or
// the posts cannot be read (a warning: the moved posts are then matched
// by State.Moved alone).
func (m *Moves) ProbeArchive(ctx context.Context, listed map[string]bool) Probed {
	if !m.moving || m.deps.Posts == nil {
		return Probed{}
	}
	posts, err := m.deps.Posts()
	if err != nil {
		m.deps.Warn.Warnf("the archive's posts could not be read (%v): moved posts are matched only by State.Moved", err)
		return Probed{}
	}
	m.index = NewMoveIndex(posts, m.deps.Canon)
	m.taken = map[int]string{}
	archived := make([]string, len(posts))
	for i, p := range posts {
		archived[i] = canonicalString(m.deps.Canon, p.URL)
	}
	pr := m.Probe(ctx, archived, listed)
	for _, r := range pr.Redirects {
		m.index.Redirect(r.Target, r.Post)
	}
	return pr
}

// Identified is the archived post a post about to be emitted continues
// (Identify): its canonical URL (From, "" when the post did not move)
// and how it was matched (How; "" when State.Moved named it, a move the
// last crawl noted already).
type Identified struct {
	From, How string
}

// Identify names the archived post e continues when it moved: the one
// the config's Moved (State.Moved) names, else the one the index
// (ProbeArchive) matches, not taken by another post of this crawl; none
// when e is archived under its URL or an alias already, or when the
// crawl is no UpdateCrawl. It keeps the pair for Moved; e is not
// changed: the crawl gives it the alias and writes the ledger.
func (m *Moves) Identify(e *blogharvest.Entry) Identified {
	if !m.cfg.UseState {
		return Identified{}
	}
	old, how := m.cfg.Moved[e.URL], ""
	if old == "" && m.index != nil {
		if m.index.ArchivedAt(e) >= 0 {
			return Identified{} // archived under this URL or one of its aliases already
		}
		i, why := m.index.Match(e, m.taken)
		if i < 0 {
			m.deps.Log.Info("post at a new URL matches no archived post: a new entry", "url", e.URL)
			return Identified{}
		}
		m.taken[i] = e.URL
		old, how = canonicalString(m.deps.Canon, m.index.Post(i).URL), why
	}
	if old == "" || old == e.URL {
		return Identified{}
	}
	if m.moved == nil {
		m.moved = map[string]string{}
	}
	m.moved[e.URL] = old
	if how != "" {
		m.deps.Log.Info("post moved", "from", old, "to", e.URL, "matched_by", how)
	}
	return Identified{From: old, How: how}
}

// Moved returns State.Moved as this crawl leaves it: the last crawl's
// (the config's Moved) with this crawl's moves (Identify); nil when
// there are none.
func (m *Moves) Moved() map[string]string {
	if len(m.cfg.Moved) == 0 && len(m.moved) == 0 {
		return nil
	}
	out := maps.Clone(m.cfg.Moved)
	if out == nil {
		out = map[string]string{}
	}
	for _, k := range slices.Sorted(maps.Keys(m.moved)) {
		out[k] = m.moved[k]
	}
	return out
}
