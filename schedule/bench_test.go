package schedule_test

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/schedule"
)

const benchBlogs = 10000

// benchSpecs returns 10 000 "@daily" specs, each with its blog's jitter over
// a whole day, so their slots are spread evenly.
func benchSpecs(b *testing.B) ([]string, []schedule.Spec) {
	b.Helper()
	ids := make([]string, benchBlogs)
	specs := make([]schedule.Spec, benchBlogs)
	for i := range ids {
		ids[i] = fmt.Sprintf("blog-%05d", i)
		s, err := schedule.ParseSpec("@daily", time.UTC, 24*time.Hour, ids[i])
		if err != nil {
			b.Fatal(err)
		}
		specs[i] = s
	}
	return ids, specs
}

// BenchmarkSchedulerFill10k measures filling an empty Scheduler with 10 000
// blogs, and the heap each blog costs once queued (heap-B/blog, spec values
// included, measured once on a separate Scheduler).
func BenchmarkSchedulerFill10k(b *testing.B) {
	ids, specs := benchSpecs(b)
	t0 := date(2026, 1, 1, 0, 0, nil)
	due := make([]time.Time, len(specs))
	for i, s := range specs {
		due[i] = s.Next(t0)
	}
	fill := func() *schedule.Scheduler {
		s := schedule.NewScheduler()
		for i, id := range ids {
			s.Set(id, specs[i], due[i])
		}
		return s
	}
	perBlog := retained(func() any { return fill() }) / benchBlogs
	for b.Loop() {
		fill()
	}
	b.ReportMetric(perBlog, "heap-B/blog")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/benchBlogs, "ns/Set")
}

// retained returns the heap bytes still reachable from what build returns.
func retained(build func() any) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	x := build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(x)
	return float64(after.HeapAlloc) - float64(before.HeapAlloc)
}

// BenchmarkSchedulerSet measures one Set that moves a blog in a running
// Scheduler holding 10 000 blogs.
func BenchmarkSchedulerSet(b *testing.B) {
	ids, specs := benchSpecs(b)
	t0 := date(2026, 1, 1, 0, 0, nil)
	s := schedule.NewScheduler()
	clock := newFakeClock(t0)
	clock.install(s)
	s.Fire = func(string) {}
	for i, id := range ids {
		s.Set(id, specs[i], specs[i].Next(t0))
	}
	if err := s.Open(); err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	r := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		i := r.IntN(benchBlogs)
		s.Set(ids[i], specs[i], t0.Add(time.Duration(r.Int64N(int64(24*time.Hour)))))
	}
}

// BenchmarkSchedulerIdleMinute measures one simulated minute of a Scheduler
// holding 10 000 daily blogs spread over the day (about 7 fire per minute),
// on the fake clock: timers set, blogs fired and re-queued.
func BenchmarkSchedulerIdleMinute(b *testing.B) {
	ids, specs := benchSpecs(b)
	t0 := date(2026, 1, 1, 0, 0, nil)
	s := schedule.NewScheduler()
	clock := newFakeClock(t0)
	clock.install(s)
	fired := 0
	s.Fire = func(string) { fired++ }
	for i, id := range ids {
		s.Set(id, specs[i], specs[i].Next(t0))
	}
	if err := s.Open(); err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	waitIdle(b, clock)
	for b.Loop() {
		clock.Advance(time.Minute)
		waitIdle(b, clock)
	}
	s.Close()
	b.ReportMetric(float64(fired)/float64(b.N), "fires/minute")
}

// waitIdle waits until the scheduler sleeps on a timer in the future.
func waitIdle(b *testing.B, c *fakeClock) {
	for {
		if at, ok := c.armed(); ok && at.After(c.Now()) {
			return
		}
		runtime.Gosched()
	}
}
