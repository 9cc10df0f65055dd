package harvest_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest"
)

// BenchmarkNewCrawl10000 crawls a generated 10 000-post blog on loopback
// and reports the peak RSS (target < 200 MB) and the share of the crawl's
// wall time spent applying extraction rules (target < 10 %).
func BenchmarkNewCrawl10000(b *testing.B) {
	benchCrawl(b, newTinyBlog(10000), 0, 1)
}

// BenchmarkNewCrawlLatency crawls a 2 000-post blog whose server answers
// after 5 ms, a fast real host, with two pages in flight.
func BenchmarkNewCrawlLatency(b *testing.B) {
	benchCrawl(b, newTinyBlog(2000), 5*time.Millisecond, 2)
}

// benchCrawl runs NewCrawl on blog served with a latency per response.
func benchCrawl(b *testing.B, blog *tinyBlog, latency time.Duration, perHost int) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(latency)
		blog.ServeHTTP(w, r)
	}))
	defer srv.Close()
	for b.Loop() {
		o := options("big", srv.URL)
		o.MaxPages = 2 * blog.posts
		o.PerHost = perHost
		var entries atomic.Int64
		runtime.GC()
		res, err := harvest.NewCrawl(context.Background(), o, func(r harvest.Record) error {
			if r.Entry != nil {
				entries.Add(1)
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		if entries.Load() != int64(blog.posts) {
			b.Fatalf("%d entries, want %d", entries.Load(), blog.posts)
		}
		b.ReportMetric(float64(res.Pages), "pages/op")
		b.ReportMetric(100*res.Timings.Extract.Seconds()/res.Timings.Total.Seconds()/float64(o.PerHost), "%extract")
		b.ReportMetric(float64(res.Timings.Total)/float64(res.Pages)/float64(time.Millisecond), "ms/page")
	}
	b.ReportMetric(peakRSSMB(b), "peakRSS-MB")
}

// peakRSSMB reads the process's peak resident set size (VmHWM) in MB.
func peakRSSMB(b *testing.B) float64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		b.Logf("peak RSS unavailable: %v", err)
		return 0
	}
	for _, line := range strings.Split(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 64)
			return kb / 1024
		}
	}
	return 0
}
