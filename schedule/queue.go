package schedule

import (
	"container/heap"
	"time"
)

// item is one blog in the Scheduler's queue.
type item struct {
	id    string
	due   time.Time
	spec  Spec
	index int // position in the heap, kept by queue's methods
}

// queue is a min-heap of items by (due, id), with an index by id.
type queue struct {
	items []*item
	byID  map[string]*item
}

func newQueue() *queue { return &queue{byID: make(map[string]*item)} }

// Len, Less, Swap, Push and Pop implement heap.Interface.
func (q *queue) Len() int { return len(q.items) }

func (q *queue) Less(i, j int) bool {
	a, b := q.items[i], q.items[j]
	if !a.due.Equal(b.due) {
		return a.due.Before(b.due)
	}
	return a.id < b.id
}

func (q *queue) Swap(i, j int) {
	q.items[i], q.items[j] = q.items[j], q.items[i]
	q.items[i].index = i
	q.items[j].index = j
}

func (q *queue) Push(x any) {
	it := x.(*item)
	it.index = len(q.items)
	q.items = append(q.items, it)
}

func (q *queue) Pop() any {
	n := len(q.items) - 1
	it := q.items[n]
	q.items[n] = nil
	q.items = q.items[:n]
	return it
}

// set adds id or moves it to due.
func (q *queue) set(id string, spec Spec, due time.Time) {
	if it, ok := q.byID[id]; ok {
		it.spec, it.due = spec, due
		heap.Fix(q, it.index)
		return
	}
	it := &item{id: id, due: due, spec: spec}
	q.byID[id] = it
	heap.Push(q, it)
}

// remove drops id; it reports whether id was queued.
func (q *queue) remove(id string) bool {
	it, ok := q.byID[id]
	if ok {
		heap.Remove(q, it.index)
		delete(q.byID, id)
	}
	return ok
}

// first returns the earliest item, or nil.
func (q *queue) first() *item {
	if len(q.items) == 0 {
		return nil
	}
	return q.items[0]
}
