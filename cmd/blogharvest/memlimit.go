package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// softLimit is the soft memory limit (runtime/debug.SetMemoryLimit) the
// command keeps while the live heap is small, when the environment sets
// neither GOGC nor GOMEMLIMIT: at gcPercent 200 alone a crawl's heap grew
// to three times its live data, and the thaumatorium crawl of the corpus
// (large pages, a 2.5 MB full-text feed) reached 235–254 MB of maximum
// resident set, 182–198 MB with this limit (doc/benchmarks.md, issue 43).
// The process's resident set without a crawl is some 34 MB
// (`/usr/bin/time -f %M blogharvest version`: 33–35 MB), which the 150 MB
// goal leaves to the rest.
const softLimit = 100 << 20

// limitHeadroom is what limitFor adds to the live heap and its growth
// room: the Go memory outside the heap's objects (goroutine stacks, GC
// metadata, free spans not yet returned).
const limitHeadroom = 16 << 20

// largeGrowth is the growth room limitFor gives a large live heap at
// least: the heap may grow by the live heap itself (GOGC=100) up to this,
// and by half the live heap (GOGC=50) beyond twice it. A scheduler of
// 100 000 blogs holds some 150–200 MB live; at twice its live heap its
// anonymous memory alone reached 501 MB (BenchmarkScale, doc/scale.md).
const largeGrowth = 64 << 20

// growthFor returns the room limitFor leaves a live heap of live bytes to
// grow in before the collector runs: the live heap itself while it is
// under largeGrowth, largeGrowth up to twice that, half the live heap
// beyond (monotonic in live, never under half the live heap).
func growthFor(live uint64) uint64 {
	return max(min(live, largeGrowth), live/2)
}

// limitFor returns the soft memory limit for a live heap of live bytes:
// softLimit, or the live heap plus growthFor(live) plus limitHeadroom when
// that is more. The collector so runs at most as often as at GOGC=100, the
// runtime's default, while the live heap is under largeGrowth, and as at
// GOGC=50 beyond twice that (a daemon holding many blogs: up to twice the
// collections for a quarter less heap): the limit trims the heap of gcPercent, it cannot make the collector spin.
func limitFor(live uint64) int64 {
	if live > math.MaxInt64/4 {
		return math.MaxInt64
	}
	l := int64(live+growthFor(live)) + limitHeadroom
	if l < softLimit {
		return softLimit
	}
	return l
}

// memoryTuner keeps the runtime's soft memory limit at limitFor of the
// live heap measured after each collection.
type memoryTuner struct {
	sample []metrics.Sample
	limit  int64
	tuned  func(limit int64) // called after each retune, for tests
	stop   atomic.Bool       // set: the next finalizer arms no other (tests)
}

// startMemoryTuner sets the limit to softLimit and re-sets it after every
// collection (a finalizer on an object made unreachable at once runs after
// each cycle and arms the next).
func startMemoryTuner() *memoryTuner {
	return startTuner(nil)
}

// startTuner is startMemoryTuner with tuned set before the first cycle.
func startTuner(tuned func(limit int64)) *memoryTuner {
	t := &memoryTuner{sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}, limit: softLimit, tuned: tuned}
	debug.SetMemoryLimit(softLimit)
	t.arm()
	return t
}

// gcSentinel is the object whose finalizer runs after a collection; big
// enough not to share a tiny-allocator block, whose finalizers may never run.
type gcSentinel struct {
	next *gcSentinel
	_    [32]byte
}

// arm makes a sentinel whose finalizer retunes and arms the next one.
func (t *memoryTuner) arm() {
	runtime.SetFinalizer(&gcSentinel{}, func(*gcSentinel) {
		metrics.Read(t.sample)
		if t.sample[0].Value.Kind() == metrics.KindUint64 {
			t.retune(t.sample[0].Value.Uint64())
		}
		if !t.stop.Load() {
			t.arm()
		}
	})
}

// retune sets the limit for a live heap of live bytes. A limit under
// limitFor(live) is raised at once to it, so that the limit is never under
// limitFor of the live heap measured; a limit over it is lowered only when
// it is more than a quarter too high, or when the heap is back under
// softLimit's (most cycles leave the limit where it is). The raise once
// added an eighth more room, so that a growing heap would not reset the
// limit every cycle: at a crawl's peak of live heap that eighth was resident
// memory (some 14 MB of limit at a 50 MB live heap, thaumatorium's peak)
// and leaving it out cost no CPU that a crawl showed (doc/benchmarks.md,
// issue 43); a growing heap's one SetMemoryLimit per cycle costs far less
// than the cycle.
func (t *memoryTuner) retune(live uint64) {
	switch l := limitFor(live); {
	case l > t.limit:
		debug.SetMemoryLimit(l)
		t.limit = l
	case l < t.limit-t.limit/4, l == softLimit && t.limit != softLimit:
		debug.SetMemoryLimit(l)
		t.limit = l
	}
	if t.tuned != nil {
		t.tuned(t.limit)
	}
}
