package daemon

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"
	"unsafe"

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

// carryBudget is the bytes of robots.txt captures and rules a runner keeps
// in memory for the blogs' next crawls (carryCache.bytes counts them): about
// 23 000 blogs' carried robots.txt of a few dozen bytes each, some 370
// bytes a blog with the structs and map entry around it (TestCarryWithinBudget). Past it the
// blogs that ran longest ago lose theirs, and fetch robots.txt again at
// their next run (one request more each; blogharvest_carried_evicted_total
// counts them). A scheduler of 100 000 blogs due every few minutes held
// 31.7 MB of carried robots.txt, growing with the runs (BenchmarkScale,
// doc/scale.md); a daily blog carries none (carry).
const carryBudget = 8 << 20

// carryCache holds what carry keeps of each blog, up to a byte budget,
// dropping the blog carried longest ago first (a list from the newest,
// head.next, to the oldest, head.prev).
type carryCache struct {
	byID  map[string]*carryEntry
	head  carryEntry // the list's sentinel; made a ring by the first put
	bytes int64      // the sum of the entries' size
}

// carryEntry is one blog's carried robots.txt and rules in the list.
type carryEntry struct {
	id         string
	c          carried
	size       int64
	prev, next *carryEntry
}

// mapEntryBytes is what a map entry of byID costs besides the entry it
// points to (key header, pointer, the bucket's share: measured roughly).
const mapEntryBytes = 48

// weigh returns what e weighs in memory, about: its structs, strings and bodies.
func (e *carryEntry) weigh() int64 {
	n := int64(unsafe.Sizeof(*e)) + mapEntryBytes + int64(len(e.id)) + int64(len(e.c.rules))
	for _, k := range e.c.robots {
		n += int64(unsafe.Sizeof(k)) + int64(len(k.url)+len(k.mediaType)+len(k.sha256)+len(k.reused)+len(k.reusedIn)+len(k.body))
	}
	return n
}

func (c *carryCache) unlink(e *carryEntry) {
	e.prev.next, e.next.prev = e.next, e.prev
	e.prev, e.next = nil, nil
	delete(c.byID, e.id)
	c.bytes -= e.size
}

// get returns what is carried for id.
func (c *carryCache) get(id string) carried {
	if e := c.byID[id]; e != nil {
		return e.c
	}
	return carried{}
}

// put carries v for id as the newest, or forgets id when v is empty, and
// drops the oldest entries while the cache weighs more than budget. It
// returns how many other blogs' entries it dropped.
func (c *carryCache) put(id string, v carried, budget int64) (evicted int) {
	if c.head.next == nil {
		c.head.next, c.head.prev = &c.head, &c.head
		c.byID = map[string]*carryEntry{}
	}
	if e := c.byID[id]; e != nil {
		c.unlink(e)
	}
	if v.robots == nil && v.rules == nil {
		return 0
	}
	e := &carryEntry{id: id, c: v}
	if e.size = e.weigh(); e.size > budget {
		return 0
	}
	e.prev, e.next = &c.head, c.head.next
	c.head.next.prev, c.head.next = e, e
	c.byID[id] = e
	c.bytes += e.size
	for c.bytes > budget {
		c.unlink(c.head.prev)
		evicted++
	}
	return evicted
}

// previous returns what the last crawl of blog id left for the next
// UpdateCrawl: validators, digests and signatures from the schedule
// store's st, robots.txt and rules from memory.
func (d *runner) previous(id string, st schedule.State) harvest.State {
	d.mu.Lock()
	c := d.carried.get(id)
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
// archived record it names (keptRobots: no exchanges, no headers), within
// the runner's carryBudget (carryCache: the blogs that ran longest ago
// lose theirs first).
func (d *runner) carry(id string, s harvest.State, next time.Time) {
	var robots []keptRobots
	for _, f := range s.Robots {
		if f.Role == blogharvest.RoleRobots && (next.IsZero() || next.Before(f.Captured.Add(fetch.RobotsLifetime))) {
			robots = append(robots, keepRobots(f))
		}
	}
	budget := d.carryBudget
	if budget == 0 {
		budget = carryBudget
	}
	d.mu.Lock()
	evicted := d.carried.put(id, carried{robots: robots, rules: s.Rules}, budget)
	d.mu.Unlock()
	if evicted > 0 && d.env != nil && d.env.metrics != nil {
		d.env.metrics.carryEvicted.Add(evicted)
	}
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
