package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestDefaultGC: without GOGC in the environment the command collects at
// gcPercent; with it, whatever it says stays the runtime's.
func TestDefaultGC(t *testing.T) {
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)
	defaultGC(func(string) (string, bool) { return "", false })
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("GOGC unset: GC percent %d, want %d", got, gcPercent)
	}
	defaultGC(func(k string) (string, bool) { return "100", k == "GOGC" })
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC=100 set: GC percent %d, want it left at 100", got)
	}
}

// TestDefaultGCTunesOnlyWithoutSettings: the memory limit is kept only
// when the environment sets neither GOGC nor GOMEMLIMIT.
func TestDefaultGCTunesOnlyWithoutSettings(t *testing.T) {
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)
	env := func(set ...string) func(string) (string, bool) {
		return func(k string) (string, bool) {
			for _, s := range set {
				if s == k {
					return "1", true
				}
			}
			return "", false
		}
	}
	for _, c := range []struct {
		set  []string
		want bool
	}{{nil, true}, {[]string{"GOGC"}, false}, {[]string{"GOMEMLIMIT"}, false}, {[]string{"GOGC", "GOMEMLIMIT"}, false}} {
		if got := defaultGC(env(c.set...)); got != c.want {
			t.Errorf("%v set: tune %v, want %v", c.set, got, c.want)
		}
	}
}

// TestLimitFor: softLimit for a small live heap, never under twice the
// live heap while it is under largeGrowth (the collector then runs as at
// GOGC=100), never under 1.5 times it beyond (GOGC=50), and under twice a
// large one (a scheduler's heap of many blogs; the old limit was 2×+16 MB).
func TestLimitFor(t *testing.T) {
	for _, live := range []uint64{0, 1 << 20, 30 << 20, softLimit / 2, softLimit, 200 << 20, 1 << 30, 1 << 40} {
		got := limitFor(live)
		if got < softLimit {
			t.Errorf("live %d: limit %d under softLimit %d", live, got, softLimit)
		}
		if uint64(got) < live+min(live, largeGrowth) || uint64(got) < live+live/2 {
			t.Errorf("live %d: limit %d under the live heap plus its growth room", live, got)
		}
		if live >= 4*largeGrowth && uint64(got) >= 2*live {
			t.Errorf("live %d: limit %d, want under twice a large live heap", live, got)
		}
		if 2*live+limitHeadroom <= softLimit && got != softLimit {
			t.Errorf("live %d: limit %d, want softLimit %d", live, got, int64(softLimit))
		}
	}
}

// TestRetuneNeverUnderTwiceLive: a live heap growing by small steps
// raises the limit with it, never leaving it under the live heap plus its
// growth room (growthFor: the collector would then run more often than at
// GOGC=100 for a small heap, GOGC=50 for a large one), and a heap back
// under softLimit's brings the limit back to softLimit.
func TestRetuneNeverUnderTwiceLive(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	debug.SetMemoryLimit(softLimit)
	tn := &memoryTuner{limit: softLimit}
	sets := 0
	tn.tuned = func(int64) { sets++ }
	var live uint64
	for step := range 2000 {
		if step < 1000 {
			live += 1 << 19
		} else {
			live -= 1 << 19
		}
		tn.retune(live)
		if uint64(tn.limit) < live+growthFor(live) {
			t.Fatalf("live %d: limit %d under the live heap plus its growth room", live, tn.limit)
		}
		if got := debug.SetMemoryLimit(-1); got != tn.limit {
			t.Fatalf("live %d: runtime's limit %d, tuner's %d", live, got, tn.limit)
		}
		if 2*live+limitHeadroom <= softLimit && tn.limit != softLimit {
			t.Fatalf("live %d: limit %d, want softLimit back", live, tn.limit)
		}
	}
	if sets != 2000 {
		t.Errorf("tuned called %d times, want every retune", sets)
	}
}

// TestRetuneRaisesToLimitFor checks that a live heap over softLimit's
// raises the limit to limitFor of it and no higher: room beyond it is
// resident memory at a crawl's peak (issue 43).
func TestRetuneRaisesToLimitFor(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	debug.SetMemoryLimit(softLimit)
	tn := &memoryTuner{limit: softLimit}
	for _, live := range []uint64{50 << 20, 60 << 20, 200 << 20} {
		tn.retune(live)
		if want := limitFor(live); tn.limit != want {
			t.Errorf("live %d MB: limit %d, want limitFor's %d", live>>20, tn.limit, want)
		}
	}
}

// TestMemoryTunerFollowsLiveHeap: with a live heap above softLimit the
// runtime's limit rises after a collection to at least limitFor of it, and
// comes back to softLimit once the heap is dropped.
func TestMemoryTunerFollowsLiveHeap(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	tuned := make(chan int64, 64)
	tn := startTuner(func(l int64) {
		select {
		case tuned <- l:
		default:
		}
	})
	defer tn.stop.Store(true)
	waitFor := func(what string, ok func(int64) bool) {
		t.Helper()
		timeout := time.After(2 * time.Minute)
		for {
			runtime.GC()
			select {
			case l := <-tuned:
				if ok(l) && ok(debug.SetMemoryLimit(-1)) {
					return
				}
			case <-timeout:
				t.Fatalf("%s: limit still %d after two minutes", what, debug.SetMemoryLimit(-1))
			}
		}
	}
	const live = 3 * softLimit / 2
	keep := make([][]byte, 0, live>>20)
	for range live >> 20 {
		b := make([]byte, 1<<20)
		b[0] = 1
		keep = append(keep, b)
	}
	waitFor("live heap of 1.5×softLimit", func(l int64) bool { return l >= live+int64(growthFor(live)) })
	runtime.KeepAlive(keep)
	keep = nil
	waitFor("heap dropped", func(l int64) bool { return l == softLimit })
}
