package daemon

import (
	"encoding/json"
	"log/slog"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/harvest"
	"github.com/blogharvest/blogharvest/schedule"
)

// carried is what the daemon keeps in memory between two crawls of a blog
// besides the schedule store: robots.txt captures and learned rules are
// content, not schedule metadata. A daemon started afresh has none: its
// first update fetches robots.txt (and training pages, if anything
// changed) again.
type carried struct {
	robots []blogharvest.File
	rules  json.RawMessage
}

// previous returns what the last crawl of blog id left for the next
// UpdateCrawl: validators, digests and signatures from the schedule
// store's st, robots.txt and rules from memory.
func (d *core) previous(id string, st schedule.State) harvest.State {
	d.mu.Lock()
	c := d.carried[id]
	d.mu.Unlock()
	return harvest.State{
		Feed: harvest.Validators{URL: st.FeedURL, ETag: st.ETag, LastModified: st.LastModified, Digest: st.FeedDigest},
		CommentFeed: harvest.Validators{URL: st.CommentFeedURL, ETag: st.CommentETag,
			LastModified: st.CommentLastModified, Digest: st.CommentDigest},
		Items: st.Items, PostsChecked: st.PostsChecked, Robots: c.robots, Rules: c.rules, Pages: pagesOf(st.Pages),
		Threads: threadsOf(st.Threads),
	}
}

// threadsOf converts the stored comment thread APIs for harvest.State.
func threadsOf(m map[string][]schedule.Validators) map[string][]harvest.Validators {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string][]harvest.Validators, len(m))
	for k, vs := range m {
		for _, v := range vs {
			out[k] = append(out[k], harvest.Validators(v))
		}
	}
	return out
}

// pagesOf converts the stored page validators for harvest.State.
func pagesOf(m map[string]schedule.Validators) map[string]harvest.Validators {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]harvest.Validators, len(m))
	for k, v := range m {
		out[k] = harvest.Validators{ETag: v.ETag, LastModified: v.LastModified}
	}
	return out
}

// keepState stores the metadata of a crawl's harvest.State in the
// schedule state (the feed's ETag and Last-Modified are stored with the
// Result's).
func keepState(st *schedule.State, s harvest.State) {
	st.FeedURL, st.FeedDigest = s.Feed.URL, s.Feed.Digest
	st.CommentFeedURL, st.CommentETag = s.CommentFeed.URL, s.CommentFeed.ETag
	st.CommentLastModified, st.CommentDigest = s.CommentFeed.LastModified, s.CommentFeed.Digest
	st.Items, st.PostsChecked = s.Items, s.PostsChecked
	st.Pages = nil
	for k, v := range s.Pages {
		if st.Pages == nil {
			st.Pages = map[string]schedule.Validators{}
		}
		st.Pages[k] = schedule.Validators{ETag: v.ETag, LastModified: v.LastModified}
	}
	st.Threads = nil
	for k, vs := range s.Threads {
		if st.Threads == nil {
			st.Threads = map[string][]schedule.Validators{}
		}
		for _, v := range vs {
			st.Threads[k] = append(st.Threads[k], schedule.Validators(v))
		}
	}
}

// carry keeps the robots.txt captures and rules of a crawl's State in
// memory for the blog's next crawl.
func (d *core) carry(id string, s harvest.State) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.carried == nil {
		d.carried = map[string]carried{}
	}
	d.carried[id] = carried{robots: s.Robots, rules: s.Rules}
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
func (d *core) archivedMedia(log *slog.Logger) func(*blogharvest.Entry) []blogharvest.File {
	return func(e *blogharvest.Entry) []blogharvest.File {
		files, err := aip.ArchivedCaptures(d.Config.Archive, e)
		if err != nil {
			log.Warn("archived media not reused", "entry", e.URL, "err", err)
		}
		return files
	}
}

// archivedRequisites returns UpdateCrawl's Options.ArchivedRequisites: the
// verified requisites of the blog's requisites packages
// (aip.ArchivedRequisites), which the update reuses while fresh and
// revalidates conditionally once stale, instead of fetching the theme's
// files again for every changed post. A package that cannot be read costs
// a warning and fetches, never a requisite.
func (d *core) archivedRequisites(blogID string, log *slog.Logger) func() []blogharvest.File {
	return func() []blogharvest.File {
		files, err := aip.ArchivedRequisites(d.Config.Archive, blogID)
		if err != nil {
			log.Warn("archived requisites not reused", "blog", blogID, "err", err)
		}
		return files
	}
}
