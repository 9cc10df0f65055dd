package cluster_test

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/schedule"
)

var idleFor = flag.Duration("idle", time.Minute, "how long BenchmarkIdle10000Blogs watches the idle daemon")

// BenchmarkIdle10000Blogs starts the real daemon with 10 000 registered
// blogs whose next runs are far away and measures the process's resident
// memory and the CPU it uses while idle (scheduler, HTTP server, metrics).
// Run with
//
//	go test -run '^$' -bench Idle10000 -benchtime 1x ./daemon [-idle 1m]
func BenchmarkIdle10000Blogs(b *testing.B) {
	const n = 10000
	dir := b.TempDir()
	state := filepath.Join(dir, "state.db")
	var y strings.Builder
	fmt.Fprintf(&y, "archive: %s\nstate: %s\nlisten: 127.0.0.1:0\nblogs:\n", filepath.Join(dir, "archive"), state)
	for i := 0; i < n; i++ {
		fmt.Fprintf(&y, "  - id: blog-%05d\n    url: http://127.0.0.1:9/blog-%05d/\n    schedule: \"%d %d * * *\"\n",
			i, i, i%60, (i/60)%24)
	}
	cfg := filepath.Join(dir, "blogs.yaml")
	if err := os.WriteFile(cfg, []byte(y.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	prefill(b, state, n)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		p := exec.Command(daemontest.Binary(), "run", "-config", cfg)
		if err := p.Start(); err != nil {
			b.Fatal(err)
		}
		time.Sleep(5 * time.Second) // start-up: config, state, scheduling
		cpu0 := procCPU(b, p.Process.Pid)
		time.Sleep(*idleFor)
		cpu := procCPU(b, p.Process.Pid) - cpu0
		b.ReportMetric(float64(procRSSKB(b, p.Process.Pid))/1024, "MB-RSS")
		b.ReportMetric(float64(cpu.Microseconds())/idleFor.Seconds(), "µs-CPU/s")
		p.Process.Kill()
		p.Wait()
	}
}

// prefill records every blog as run an hour ago and due tomorrow, so the
// daemon must idle.
func prefill(b *testing.B, path string, n int) {
	st, err := schedule.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	now := time.Now()
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("blog-%05d", i)
		spec, _ := schedule.ParseSpec(fmt.Sprintf("%d %d * * *", i%60, (i/60)%24), time.UTC, 0, id)
		err := st.Put(id, schedule.State{Spec: spec.String(), LastStart: now.Add(-time.Hour),
			LastEnd: now.Add(-time.Hour), Outcome: schedule.OutcomeOK, NextDue: now.Add(24 * time.Hour)})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// procCPU returns the user+system CPU time of process pid.
func procCPU(b *testing.B, pid int) time.Duration {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		b.Fatal(err)
	}
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)        // utime, field 14 of stat
	st, _ := strconv.ParseInt(f[12], 10, 64)        // stime, field 15
	return time.Duration(ut+st) * time.Second / 100 // USER_HZ is 100 on Linux
}

// procRSSKB returns the resident set size of process pid in KiB.
func procRSSKB(b *testing.B, pid int) int64 {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb
		}
	}
	return 0
}
