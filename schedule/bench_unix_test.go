//go:build unix

package schedule_test

import (
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/schedule"
)

// BenchmarkSchedulerIdleRealClock measures the process CPU time spent while a
// Scheduler with 10 000 blogs, none due for an hour, waits on the real clock:
// each op is 100 ms of wall time; cpu-us/idle-s is the whole process's CPU
// per second of idling (the harness's own wake-ups included: compare
// BenchmarkIdleBaseline, the same loop without a Scheduler).
func BenchmarkSchedulerIdleRealClock(b *testing.B) {
	ids, specs := benchSpecs(b)
	s := schedule.NewScheduler()
	s.Fire = func(string) { b.Error("fired while idle") }
	later := time.Now().Add(time.Hour)
	for i, id := range ids {
		s.Set(id, specs[i], later.Add(specs[i].Offset()))
	}
	if err := s.Open(); err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	goroutines := runtime.NumGoroutine()
	idle(b)
	b.ReportMetric(float64(goroutines), "goroutines")
}

// BenchmarkIdleBaseline is BenchmarkSchedulerIdleRealClock without a
// Scheduler: the harness's own cost.
func BenchmarkIdleBaseline(b *testing.B) { idle(b) }

// idle sleeps 100 ms per op and reports the process's CPU per idle second.
func idle(b *testing.B) {
	runtime.GC()
	cpu0, start := cpuTime(b), time.Now()
	for b.Loop() {
		time.Sleep(100 * time.Millisecond)
	}
	wall := time.Since(start)
	b.ReportMetric(float64((cpuTime(b)-cpu0).Microseconds())/wall.Seconds(), "cpu-us/idle-s")
}

func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
