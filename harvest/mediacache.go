package harvest

import (
	"sync"

	"github.com/blogharvest/blogharvest"
)

// Posts share pictures (a logo in every post, emoji images, a picture
// shown again): a crawl fetches each media URL once and gives every entry
// that shows it the same capture. The cache keeps small files only and
// stops growing at a budget, so that memory does not grow with the blog.

// Media cache bounds.
const (
	mediaCacheFile   = 1 << 20  // largest file kept
	mediaCacheBudget = 32 << 20 // all files kept, in bytes
	maxMediaFailures = 4096     // failures remembered
)

// mediaCache holds the media captured in one crawl, by URL, and the
// permanent failures met (a missing picture is not asked for again).
type mediaCache struct {
	mu    sync.Mutex
	known map[string]mediaResult
	bytes int // of the files kept
}

// mediaResult is the outcome of fetching one media URL.
type mediaResult struct {
	file blogharvest.File
	err  error
}

func newMediaCache() *mediaCache {
	return &mediaCache{known: map[string]mediaResult{}}
}

// get returns the outcome of fetching u, if known.
func (m *mediaCache) get(u string) (mediaResult, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	r, ok := m.known[u]
	return r, ok
}

// put records the outcome of fetching u: a capture within the bounds, or a
// permanent failure (at most maxMediaFailures of them).
func (m *mediaCache) put(u string, r mediaResult) {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch {
	case r.err != nil:
		if !blogharvest.IsTransient(r.err) && len(m.known) < maxMediaFailures {
			m.known[u] = r
		}
	case len(r.file.Body) <= mediaCacheFile && m.bytes+len(r.file.Body) <= mediaCacheBudget:
		m.known[u] = r
		m.bytes += len(r.file.Body)
	}
}
