package harvest

import (
	"container/heap"
	"time"
)

// Priorities of frontier items. Posts and pages the sitemap or the
// platform names go first; other pages are ranked by the kNN estimate.
const (
	prioPost    = 1e9
	prioPage    = 1e8
	prioListing = 1e6 // listing pages the sitemap or feed paging named
)

// task is one URL waiting in the frontier.
type task struct {
	url     string // canonical
	prio    float64
	seq     int       // insertion order, for FIFO among equal priorities
	kind    string    // "post", "page" (a platform page), "candidate" (navigation or sitemap: a page if it looks like one), "" (a listing)
	lastmod time.Time // sitemap <lastmod>; zero if none
	depth   int       // links followed from the seeds
	again   bool      // a re-read of an entry emitted before (rereadForAlias): processed although claimed
}

// frontier is the crawl's priority queue plus the set of URLs ever queued,
// so each URL enters at most once per crawl.
type frontier struct {
	h    taskHeap
	seen map[string]struct{}
	seq  int
}

func newFrontier() *frontier { return &frontier{seen: make(map[string]struct{})} }

// push queues t unless its URL was queued before; it reports whether it did.
func (f *frontier) push(t task) bool {
	if _, ok := f.seen[t.url]; ok {
		return false
	}
	f.seen[t.url] = struct{}{}
	f.seq++
	t.seq = f.seq
	heap.Push(&f.h, t)
	return true
}

// requeue queues t although its URL was queued before (a re-read).
func (f *frontier) requeue(t task) {
	f.seq++
	t.seq = f.seq
	heap.Push(&f.h, t)
}

// mark records url as seen without queueing it (a page reached by redirect
// or rel=canonical, a post the feed already delivered).
func (f *frontier) mark(url string) { f.seen[url] = struct{}{} }

// has reports whether url was queued or marked.
func (f *frontier) has(url string) bool {
	_, ok := f.seen[url]
	return ok
}

// pop returns the task with the highest priority.
func (f *frontier) pop() (task, bool) {
	if f.h.Len() == 0 {
		return task{}, false
	}
	return heap.Pop(&f.h).(task), true
}

// len returns the number of queued tasks.
func (f *frontier) len() int { return f.h.Len() }

// taskHeap implements heap.Interface: highest priority first, FIFO among
// equals.
type taskHeap []task

func (h taskHeap) Len() int { return len(h) }
func (h taskHeap) Less(i, j int) bool {
	if h[i].prio != h[j].prio {
		return h[i].prio > h[j].prio
	}
	return h[i].seq < h[j].seq
}
func (h taskHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *taskHeap) Push(x any)   { *h = append(*h, x.(task)) }
func (h *taskHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	*h = old[:len(old)-1]
	return t
}
