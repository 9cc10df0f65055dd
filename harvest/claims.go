package harvest

import (
	"sync"

	"github.com/blogharvest/blogharvest/harvest/feed"
)

// claims is the ledger's other half, what a crawl holds about the URLs it
// is handling rather than their fates: the canonical URLs processed (or
// being processed: claimed by a worker), the feed items waiting for the
// page they describe, and the redirect stubs met per target. The
// coordinator seeds it and the page workers claim from it: it is the one
// piece of crawl state both write, and safe for concurrent use.
type claims struct {
	mu      sync.Mutex
	done    map[string]bool       // canonical URLs processed or being processed
	pending map[string]*feed.Item // feed items whose entry is not emitted yet, by canonical URL
	stubs   map[string][]string   // redirect stub URLs by their target's canonical URL
}

func newClaims() *claims {
	return &claims{done: map[string]bool{}, pending: map[string]*feed.Item{}, stubs: map[string][]string{}}
}

// claim marks a canonical URL as processed; it reports false when it was
// processed already.
func (cl *claims) claim(u string) bool {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if cl.done[u] {
		return false
	}
	cl.done[u] = true
	return true
}

// claimed reports whether a canonical URL was processed already.
func (cl *claims) claimed(u string) bool {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return cl.done[u]
}

// take removes and returns the pending feed item for u, or nil.
func (cl *claims) take(u string) *feed.Item {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	it := cl.pending[u]
	delete(cl.pending, u)
	return it
}

// peek returns the pending feed item for u, or nil, leaving it pending.
func (cl *claims) peek(u string) *feed.Item {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	return cl.pending[u]
}

// isPending reports whether a feed item waits for u.
func (cl *claims) isPending(u string) bool {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	_, ok := cl.pending[u]
	return ok
}

// await makes the feed item it wait for u unless an item waits for u
// already or, with unlessDone, u was processed. It reports whether it did.
func (cl *claims) await(u string, it *feed.Item, unlessDone bool) bool {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	if _, ok := cl.pending[u]; ok || unlessDone && cl.done[u] {
		return false
	}
	cl.pending[u] = it
	return true
}

// replace makes the feed item it wait for u, in place of any other.
func (cl *claims) replace(u string, it *feed.Item) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	cl.pending[u] = it
}

// addStub records a redirect stub met at task (answered from final) that
// leads to target; both URLs are processed: a training stub is not
// fetched again. A chain of stubs leads to the target too.
func (cl *claims) addStub(task, final, target string) {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	urls := []string{task, final}
	urls = append(urls, cl.stubs[task]...)
	urls = append(urls, cl.stubs[final]...)
	for _, u := range urls {
		if u != target && !contains(cl.stubs[target], u) {
			cl.stubs[target] = append(cl.stubs[target], u)
		}
	}
	cl.done[task], cl.done[final] = true, true
}

// stubsOf returns the redirect stubs met so far that lead to any of urls.
func (cl *claims) stubsOf(urls ...string) []string {
	cl.mu.Lock()
	defer cl.mu.Unlock()
	var out []string
	for _, u := range urls {
		out = append(out, cl.stubs[u]...)
	}
	return out
}
