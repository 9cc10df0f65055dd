package harvest_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/harvest/learn"
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
		runtime.GC()
		res, entries := crawlCounting(b, o)
		if entries != int64(blog.posts) {
			b.Fatalf("%d entries, want %d", entries, blog.posts)
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

// BenchmarkExtractTinyPage applies rules learned from the newest ten posts
// of the generated blog to forty older posts — all of them, those without
// comments and those with (one in four) — as BenchmarkNewCrawl10000 does,
// without the crawl around it. ns/op is per page.
func BenchmarkExtractTinyPage(b *testing.B) {
	blog := newTinyBlog(10000)
	get := func(path string) []byte {
		rec := httptest.NewRecorder()
		blog.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://tiny.example"+path, nil))
		return rec.Body.Bytes()
	}
	var pairs []learn.Pair
	for i := blog.posts - 1; i >= blog.posts-blog.feedSize; i-- {
		pairs = append(pairs, learn.Pair{
			Page:   learn.Page{URL: "http://tiny.example" + blog.path(i), HTML: get(blog.path(i))},
			Target: learn.Target{Title: blog.title(i), Author: "Ann Walker", Date: blog.date(i), Content: blog.body(i), FullText: true},
		})
	}
	rules, err := learn.Learn(pairs, learn.Options{})
	if err != nil {
		b.Fatal(err)
	}
	pages := map[string][]learn.Page{}
	for i := 100; i < 140; i++ {
		p := learn.Page{URL: "http://tiny.example" + blog.path(i), HTML: get(blog.path(i))}
		kind := "plain"
		if blog.commentCount(i) > 0 {
			kind = "comments"
		}
		pages["all"], pages[kind] = append(pages["all"], p), append(pages[kind], p)
	}
	for _, kind := range []string{"all", "plain", "comments"} {
		b.Run(kind, func(b *testing.B) {
			start := cpuTime()
			for k := 0; b.Loop(); k++ {
				if _, err := rules.Extract(pages[kind][k%len(pages[kind])]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

// cpuTime returns the CPU time (user + system) the process has used: on a
// shared machine, wall time includes waiting for a core.
func cpuTime() int64 {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}
