package cluster_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// BenchmarkClusterWorkers archives 40 fixture blogs whose servers answer
// each request after 50 ms with one scheduler and 1, 2 or 4 worker
// processes (concurrency 1 each), and reports the wall time from the
// workers' start until every run ended. Run with
//
//	go test -run '^$' -bench ClusterWorkers -benchtime 1x ./daemon
func BenchmarkClusterWorkers(b *testing.B) {
	for _, n := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("workers=%d", n), func(b *testing.B) {
			for range b.N {
				b.StopTimer()
				e := newClusterEnv(b, clusterOpts{blogs: 40, maxDeliver: 5, maxPages: 8, concurrency: 1,
					latency: 50 * time.Millisecond})
				listen := listenOf(b, e.config())
				daemontest.Start(b, "run", "-config", e.config())
				b.StartTimer()
				t0 := time.Now()
				for i := range n {
					daemontest.Start(b, "worker", "-config", e.config(), "-name", fmt.Sprintf("w%d", i), "-listen", daemontest.FreeAddr(b))
				}
				for !ended(listen)() {
					time.Sleep(50 * time.Millisecond)
				}
				b.ReportMetric(time.Since(t0).Seconds(), "s-wall")
				b.StopTimer()
			}
		})
	}
}

// BenchmarkClusterScheduler10000Blogs starts a cluster's scheduler (NATS in
// this process) with 10 000 registered blogs whose next runs are far away
// and reports its resident memory once idle. Run with
//
//	go test -run '^$' -bench ClusterScheduler10000 -benchtime 1x ./daemon
func BenchmarkClusterScheduler10000Blogs(b *testing.B) {
	const n = 10000
	e := newClusterEnv(b, clusterOpts{})
	var y strings.Builder
	fmt.Fprintf(&y, "archive: %s\nstate: %s\nlisten: 127.0.0.1:0\ncluster: %s\nblogs:\n", e.archive, e.state, e.clusterYAML(""))
	for i := 0; i < n; i++ {
		fmt.Fprintf(&y, "  - id: blog-%05d\n    url: http://127.0.0.1:9/blog-%05d/\n    schedule: \"%d %d * * *\"\n",
			i, i, i%60, (i/60)%24)
	}
	cfg := filepath.Join(e.dir, "big.yaml")
	if err := os.WriteFile(cfg, []byte(y.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(e.state), 0o755)
	prefill(b, e.state, n)
	b.ResetTimer()
	for range b.N {
		p := daemontest.Start(b, "run", "-config", cfg)
		time.Sleep(8 * time.Second) // start-up: config, state, lease, scheduling
		if !strings.Contains(p.Logs.String(), "active scheduler") || !strings.Contains(p.Logs.String(), "blogharvest started") {
			b.Fatalf("the scheduler is not active:\n%s", daemontest.LastLines(p.Logs.String(), 10))
		}
		b.ReportMetric(float64(procRSSKB(b, p.Cmd.Process.Pid))/1024, "MB-RSS")
	}
}
