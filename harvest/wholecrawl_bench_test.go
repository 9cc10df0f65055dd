package harvest_test

import (
	"context"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/harvest"
)

// The whole-crawl benchmarks are NewCrawl with the real AIP writer behind
// the emit callback: every Blog and Entry record becomes a bag on disk
// (BagIt, METS validated, PREMIS with PRONOM identification, WARC, fsyncs
// and the rename), as `blogharvest crawl` does. They report CPU time (user
// + system of the whole process, the loopback server included),
// allocations and bytes allocated per archived post and per HTTP request.
// A CPU profile of them is the profile of a user's crawl:
//
//	go test ./harvest -run '^$' -bench WholeCrawl -benchtime 1x -cpuprofile cpu.out
//	go tool pprof -top -nodecount 40 harvest.test cpu.out
//
// BLOGHARVEST_BENCH_POSTS sets the generated blog's size (default 10 000),
// BLOGHARVEST_BENCH_BLOGS the corpus blogs (comma-separated; default all
// of pipelineCorpus). BLOGHARVEST_BENCH_ARCHIVE names a folder that keeps
// the archives (one new folder in it per crawl, never removed) instead of
// the test's temporary folder: on an ext4 file system without a journal,
// as here, every inode created in the minutes after thousands were
// deleted pays for looking at each of them (ext4's recently_deleted), so
// runs one after another, each removing its archive at the end, measured
// the removal of the run before (the CPU per post of alternating runs of
// one binary went 18, 40, 27, 18 ms).

// BenchmarkWholeCrawl10000 archives the generated 10 000-post blog.
func BenchmarkWholeCrawl10000(b *testing.B) {
	posts := 10000
	if s := os.Getenv("BLOGHARVEST_BENCH_POSTS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			b.Fatalf("BLOGHARVEST_BENCH_POSTS=%q: want a positive number", s)
		}
		posts = n
	}
	blog := newTinyBlog(posts)
	srv := newServer(b, blog)
	for b.Loop() {
		o := options("big", srv)
		o.MaxPages = 2 * blog.posts
		o.Logger = quiet
		p := startPerPost()
		res, entries := archiveCrawl(b, o)
		p.report(b, entries)
		p.reportPerRequest(b, requests(res))
	}
}

// BenchmarkWholeCrawlCorpus archives the corpus replay (the blogs of
// BenchmarkNewCrawlPipelineCorpus, feeds cut to their newest half).
func BenchmarkWholeCrawlCorpus(b *testing.B) {
	names := pipelineCorpus
	if s := os.Getenv("BLOGHARVEST_BENCH_BLOGS"); s != "" {
		names = strings.Split(s, ",")
	}
	var runs []harvest.Options
	for _, name := range names {
		r := loadReplay(b, name)
		runs = append(runs, harvest.Options{Blog: blogharvest.Blog{ID: name, URL: r.blog.URL},
			Transport: r.start(b), Render: harvest.RenderNever, MaxMediaPerEntry: -1, PerHost: 2, Logger: quiet})
	}
	for b.Loop() {
		var entries, reqs int64
		p := startPerPost()
		for _, o := range runs {
			res, n := archiveCrawl(b, o)
			entries += n
			reqs += requests(res)
		}
		p.report(b, entries)
		p.reportPerRequest(b, reqs)
	}
}

// newServer serves h on loopback for the benchmark and returns its URL.
func newServer(b *testing.B, h *tinyBlog) string {
	srv := httptest.NewServer(h)
	b.Cleanup(srv.Close)
	return srv.URL
}

// archiveCrawl runs NewCrawl with o into a fresh archive, each record
// written by an aip.Writer, and returns the Result and the number of Entry
// AIPs written.
func archiveCrawl(b *testing.B, o harvest.Options) (*harvest.Result, int64) {
	b.StopTimer()
	root := b.TempDir()
	if keep := os.Getenv("BLOGHARVEST_BENCH_ARCHIVE"); keep != "" {
		var err error
		if root, err = os.MkdirTemp(keep, "archive-"); err != nil {
			b.Fatalf("BLOGHARVEST_BENCH_ARCHIVE: %v", err)
		}
	}
	b.StartTimer()
	w := &aip.Writer{Root: root, Software: "blogharvest bench"}
	defer w.Close()
	var entries atomic.Int64
	res, err := harvest.NewCrawl(context.Background(), o, func(r harvest.Record) error {
		var err error
		if r.Blog != nil {
			_, err = w.WriteBlog(context.Background(), r.Blog)
		}
		if r.Entry != nil {
			var res aip.Result
			res, err = w.WriteEntry(context.Background(), r.Entry)
			if res.Written {
				entries.Add(1)
			}
		}
		return err
	})
	if err != nil {
		b.Fatalf("%s: %v", o.Blog.ID, err)
	}
	return res, entries.Load()
}

// requests is the number of HTTP exchanges of a crawl.
func requests(res *harvest.Result) int64 {
	var n int64
	for _, c := range res.Fetches {
		n += int64(c)
	}
	return n
}
