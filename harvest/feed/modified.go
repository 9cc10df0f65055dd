package feed

import (
	"context"
	"fmt"
	"net/url"
	"strings"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
)

// An RSS feed says when a post was published, not when it was last edited
// (WordPress's RSS has no modification date), so an update crawl cannot
// tell an edited post from an untouched one. Platforms that write RSS
// without one often serve the same posts as Atom, whose <updated> is the
// modification date: WordPress at <feed>/atom/ (or ?feed=atom).

// AtomTwin returns the URL of the Atom feed that the platform serves beside
// f, for an RSS feed none of whose items has a modification date; "" when
// there is none to ask.
func AtomTwin(f *Feed) string {
	if f == nil || f.Format != "rss" || len(f.Items) == 0 || !f.row().AtomTwin {
		return ""
	}
	for _, it := range f.Items {
		if !it.Updated.IsZero() {
			return ""
		}
	}
	u, err := url.Parse(f.URL)
	if err != nil {
		return ""
	}
	q := u.Query()
	switch {
	case u.RawQuery == "":
		blogharvest.SetEscapedPath(u, strings.TrimSuffix(u.EscapedPath(), "/")+"/atom/")
	case q.Get("feed") == "rss2" || q.Get("feed") == "rss": // plain permalinks: /?feed=rss2
		q.Set("feed", "atom")
		u.RawQuery = q.Encode()
	default:
		return ""
	}
	return u.String()
}

// FillUpdated fetches the first page of f's Atom twin (AtomTwin) and gives
// each item of f that has no modification date the <updated> date of the
// Atom entry with the same GUID or link. It returns the captured Atom
// document (nil when there is no twin) and how many items it dated.
func FillUpdated(ctx context.Context, c *fetch.Client, f *Feed) (*blogharvest.File, int, error) {
	twin := AtomTwin(f)
	if twin == "" {
		return nil, 0, nil
	}
	atom, file, err := fetchPage(ctx, c, twin, true) // only its dates are read
	if err != nil {
		return file, 0, fmt.Errorf("atom feed %s: %w", twin, err)
	}
	return file, DateFromTwin(f, atom), nil
}

// DateFromTwin gives each item of f that has no modification date the
// <updated> date of the entry of atom, f's Atom twin, with the same GUID
// or link, and returns how many items it dated: what FillUpdated does
// with a twin it fetched, and harvest.StateFrom with one it archived.
func DateFromTwin(f, atom *Feed) int {
	updated := map[string]int{}
	for k, it := range atom.Items {
		if !it.Updated.IsZero() {
			for _, key := range []string{it.GUID, it.Link} {
				if key != "" {
					updated[key] = k
				}
			}
		}
	}
	n := 0
	for i := range f.Items {
		it := &f.Items[i]
		for _, key := range []string{it.GUID, it.Link} {
			if k, ok := updated[key]; ok && key != "" && it.Updated.IsZero() {
				it.Updated = atom.Items[k].Updated
				n++
			}
		}
	}
	return n
}
