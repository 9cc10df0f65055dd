package daemon

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/harvest/fetch"
	"github.com/blogharvest/blogharvest/report"
	"github.com/blogharvest/blogharvest/schedule"
)

// carried is what the daemon keeps in memory between two crawls of a blog
// besides the schedule store: robots.txt captures and learned rules are
// content, not schedule metadata. A daemon started afresh has none: its
// first update fetches robots.txt (and training pages, if anything
// changed) again.
type carried struct {
	robots []keptRobots
	rules  json.RawMessage
}

// keptRobots is what carry keeps of a robots.txt capture: what harvest's
// State.Robots holds of it (no exchanges, no headers: harvest's
// carriedRobots), in fields of its own rather than a blogharvest.File,
// whose other fields would cost every blog about a hundred bytes more.
type keptRobots struct {
	url, mediaType, sha256 string
	reused, reusedIn       string
	body                   []byte
	captured               time.Time
	status                 int
	size                   int64
}

func keepRobots(f blogharvest.File) keptRobots {
	return keptRobots{url: f.URL, mediaType: f.MediaType, sha256: f.SHA256, reused: f.Reused, reusedIn: f.ReusedIn,
		body: f.Body, captured: f.Captured, status: f.Status, size: f.Size}
}

func (k keptRobots) file() blogharvest.File {
	return blogharvest.File{URL: k.url, Role: blogharvest.RoleRobots, MediaType: k.mediaType, SHA256: k.sha256,
		Reused: k.reused, ReusedIn: k.reusedIn, Body: k.body, Captured: k.captured, Status: k.status, Size: k.size}
}

// previous returns what the last crawl of blog id left for the next
// UpdateCrawl: validators, digests and signatures from the schedule
// store's st, robots.txt and rules from memory.
func (d *runner) previous(id string, st schedule.State) harvest.State {
	d.mu.Lock()
	c := d.carried[id]
	d.mu.Unlock()
	var robots []blogharvest.File
	for _, k := range c.robots {
		robots = append(robots, k.file())
	}
	return harvest.State{CrawlState: st.CrawlState, Robots: robots, Rules: c.rules}
}

// carry keeps the robots.txt captures and rules of a crawl's State in
// memory for the blog's next crawl, due at next (zero: unknown). A
// robots.txt is reused for fetch.RobotsLifetime after its capture; one that
// will have expired by the next run is not kept: a daily blog's never
// serves again, and 100 000 daily blogs kept theirs as 25 MB of a
// scheduler's heap, growing as the day's runs went (BenchmarkScale, doc/scale.md).
// What is kept of one is its body, digest, capture time, status and the
// archived record it names (keptRobots: no exchanges, no headers).
func (d *runner) carry(id string, s harvest.State, next time.Time) {
	var robots []keptRobots
	for _, f := range s.Robots {
		if f.Role == blogharvest.RoleRobots && (next.IsZero() || next.Before(f.Captured.Add(fetch.RobotsLifetime))) {
			robots = append(robots, keepRobots(f))
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.carried == nil {
		d.carried = map[string]carried{}
	}
	if robots == nil && s.Rules == nil {
		delete(d.carried, id)
		return
	}
	d.carried[id] = carried{robots: robots, rules: s.Rules}
}

// recheckPosts turns the recheck_posts key into harvest's
// Options.RecheckPosts: 0 in the config means never.
func recheckPosts(d Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return time.Duration(d)
}

// archivedMedia returns UpdateCrawl's Options.Archived: the verified
// media of an entry's latest AIP (aip.ArchivedMedia), read only for the
// entries the update re-reads, so that their pictures are not fetched
// again. An AIP that cannot be read costs a warning and a fetch, never
// the entry.
func (d *archiveView) archivedMedia(log *slog.Logger) func(*blogharvest.Entry) []blogharvest.File {
	return func(e *blogharvest.Entry) []blogharvest.File {
		files, err := aip.ArchivedCaptures(d.store(), e)
		if err != nil {
			log.Warn("archived media not reused", "entry", e.URL, "err", err)
		}
		return files
	}
}

// archivedPosts returns UpdateCrawl's Options.ArchivedPosts: the latest
// version of each of the blog's Entry AIPs, read back from its METS
// (report.Walk), for matching the posts of a blog that moved. The crawl
// calls it only when it finds the blog moved.
func (d *archiveView) archivedPosts(ctx context.Context, blogID string) func() ([]harvest.ArchivedPost, error) {
	return func() ([]harvest.ArchivedPost, error) {
		var out []harvest.ArchivedPost
		t := report.Target{Store: d.store(), Blogs: []string{blogID}}
		err := report.Walk(ctx, t, report.Options{}, func(p *report.Post) error {
			out = append(out, harvest.ArchivedPost{URL: p.Permalink, Aliases: p.Aliases, GUID: p.GUID, Title: p.Title,
				Created: parseArchivedDate(p.Created), Text: p.Text})
			return nil
		})
		return out, err
	}
}

// parseArchivedDate reads a date as the MARC record gives it back
// (blogharvest.FormatDate: a full instant, or as much of one as the
// source gave); zero when it cannot.
func parseArchivedDate(s string) time.Time {
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04Z07:00", "2006-01-02T15:04:05", "2006-01-02T15:04", time.DateOnly} {
		if t, err := time.Parse(layout, s); err == nil {
			return t
		}
	}
	return time.Time{}
}

// archivedRequisites returns UpdateCrawl's Options.ArchivedRequisites: the
// verified requisites of the blog's requisites packages
// (aip.ArchivedRequisites), which the update reuses while fresh and
// revalidates conditionally once stale, instead of fetching the theme's
// files again for every changed post. A package that cannot be read costs
// a warning and fetches, never a requisite.
func (d *archiveView) archivedRequisites(blogID string, log *slog.Logger) func() []blogharvest.File {
	return func() []blogharvest.File {
		files, err := aip.ArchivedRequisites(d.store(), blogID)
		if err != nil {
			log.Warn("archived requisites not reused", "blog", blogID, "err", err)
		}
		return files
	}
}
