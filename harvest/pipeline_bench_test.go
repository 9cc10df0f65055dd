package harvest_test

import (
	"context"
	"log/slog"
	"net/http/httptest"
	"runtime"
	"sync/atomic"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/harvest"
)

// quiet discards a benchmark crawl's log: writing it is not the pipeline.
var quiet = slog.New(slog.DiscardHandler)

// perPost measures the CPU time (user + system, of the whole process:
// the loopback server included) and the heap allocations of a run, per
// archived entry.
type perPost struct {
	cpu     int64
	mallocs uint64
	bytes   uint64
}

// startPerPost starts measuring.
func startPerPost() perPost {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return perPost{cpu: cpuTime(), mallocs: ms.Mallocs, bytes: ms.TotalAlloc}
}

// report adds cpu-ms/post, allocs/post and KB/post for the entries
// archived since p started.
func (p perPost) report(b *testing.B, entries int64) { p.per(b, entries, "post", "posts") }

// reportPerRequest adds cpu-ms/req, allocs/req and KB/req for the HTTP
// requests made since p started.
func (p perPost) reportPerRequest(b *testing.B, requests int64) {
	p.per(b, requests, "req", "requests")
}

// per reports the CPU time, allocations and bytes allocated since p
// started per one of n units, and n.
func (p perPost) per(b *testing.B, n int64, unit, units string) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	d := float64(max(n, 1))
	b.ReportMetric(float64(cpuTime()-p.cpu)/1e6/d, "cpu-ms/"+unit)
	b.ReportMetric(float64(ms.Mallocs-p.mallocs)/d, "allocs/"+unit)
	b.ReportMetric(float64(ms.TotalAlloc-p.bytes)/1024/d, "KB/"+unit)
	b.ReportMetric(d, units)
}

// BenchmarkNewCrawlPipeline10000 is the whole pipeline (fetch on loopback,
// parse, extract, entry, emit) on the generated 10 000-post blog: CPU time
// and allocations per archived post.
// The loopback server's work (writing the generated pages) is in the
// figure, the same before and after a change of the crawler.
func BenchmarkNewCrawlPipeline10000(b *testing.B) {
	blog := newTinyBlog(10000)
	srv := httptest.NewServer(blog)
	defer srv.Close()
	for b.Loop() {
		o := options("big", srv.URL)
		o.MaxPages = 2 * blog.posts
		o.Logger = quiet
		p := startPerPost()
		_, entries := crawlCounting(b, o)
		p.report(b, entries)
	}
}

// crawlCounting runs NewCrawl with o and returns its Result and the
// number of entries it emitted.
func crawlCounting(b *testing.B, o harvest.Options) (*harvest.Result, int64) {
	var entries atomic.Int64
	res, err := harvest.NewCrawl(context.Background(), o, func(r harvest.Record) error {
		if r.Entry != nil {
			entries.Add(1)
		}
		return nil
	})
	if err != nil {
		b.Fatalf("%s: %v", o.Blog.ID, err)
	}
	return res, entries.Load()
}

// pipelineCorpus are the corpus blogs the corpus benchmarks crawl.
var pipelineCorpus = []string{"bft-quantumdiaries", "bft-korben", "bft-mnmlist", "bft-meinrhyme",
	"bft-digital-examples", "bft-huffingtonpost", "3mdeb", "lahso"}

// BenchmarkNewCrawlPipelineCorpus is the whole pipeline on the corpus
// replay (every corpus blog TestCorpusDiscovery crawls, feeds cut to their
// newest half): CPU time and allocations per archived entry.
func BenchmarkNewCrawlPipelineCorpus(b *testing.B) {
	type blogRun struct {
		name string
		o    harvest.Options
	}
	var runs []blogRun
	for _, name := range pipelineCorpus {
		r := loadReplay(b, name)
		runs = append(runs, blogRun{name, harvest.Options{Blog: blogharvest.Blog{ID: name, URL: r.blog.URL},
			Transport: r.start(b), Render: harvest.RenderNever, MaxMediaPerEntry: -1, PerHost: 2, Logger: quiet}})
	}
	for b.Loop() {
		var entries int64
		p := startPerPost()
		for _, run := range runs {
			_, n := crawlCounting(b, run.o)
			entries += n
		}
		p.report(b, entries)
	}
}
