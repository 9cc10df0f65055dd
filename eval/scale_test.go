package main

import (
	"bufio"
	"cmp"
	"fmt"
	"hash/fnv"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/cluster"
	"github.com/blogharvest/blogharvest/schedule"
)

// BenchmarkScale registers many blogs (BLOGHARVEST_SCALE_BLOGS, default
// 100 000) with the real daemon, all served by one in-process HTTP server
// on loopback (each blog its own address 127.x.y.z, so that politeness and
// the cluster's host leases treat them as the different hosts they are),
// and runs one simulated day at accelerated time: every blog's schedule is
// "@every DAY" with DAY = BLOGHARVEST_SCALE_DAY (default 10m) of real
// time. The state file is prefilled as if every blog had been crawled the
// day before (feed validators, NextDue) and its posts rechecked now
// (PostsChecked: recheck_posts keeps its default, 24 h of real time, so
// no run of the benchmark is a recheck; doc/scale.md adds their cost on
// paper; the archive starts empty, a recheck would find every post new).
// The due times spread
// evenly over the day, except a tenth due within the same real minute, in
// the middle of the day. The server answers each request after 2–5 ms; a
// feed answers a conditional request with 304 unless its blog changed
// (5 % of the blogs, a new post since the prefilled state). Sub-benchmarks
// local (one process) and cluster (a NATS server with JetStream in this
// process, the scheduler and two worker processes) run in turn, or only
// the modes BLOGHARVEST_SCALE_MODES names; BLOGHARVEST_SCALE_CONCURRENCY
// sets each process's concurrency (default 8), BLOGHARVEST_SCALE_DELAY
// the blogs' delay (default 250ms), BLOGHARVEST_SCALE_BINARY a binary to
// run instead of building the checkout's, BLOGHARVEST_SCALE_SAMPLES a
// file prefix for the scheduler's samples (seconds, CPU, RSS). Run with
//
//	cd eval && go test -run '^$' -bench Scale -benchtime 1x -timeout 3h
//
// It reports, for the scheduler process (the only process in local mode):
// its largest RSS (and the largest of its two parts: anonymous memory, and
// the mapped state file's pages the page cache holds) and the mean of the first and last quarters of the run
// (from the first day's start: BLOGHARVEST_SCALE_DAYS days, default 1),
// its CPU per hour of real time and per run (the runs counted by their
// feed requests; the changed blogs' bags included), and this process's CPU per run (its
// server's, mostly: ms-bench-CPU/run); the lag between each blog's due time and
// the first request of its run (p50, p99; the tenth due together apart);
// requests per unchanged and per changed blog; the state file's size
// before and after. The summary is logged (-v) as well.
func BenchmarkScale(b *testing.B) {
	n := envInt(b, "BLOGHARVEST_SCALE_BLOGS", 100000)
	day := envDuration(b, "BLOGHARVEST_SCALE_DAY", 10*time.Minute)
	days := envInt(b, "BLOGHARVEST_SCALE_DAYS", 1)
	modes := strings.Fields(strings.ReplaceAll(cmp.Or(os.Getenv("BLOGHARVEST_SCALE_MODES"), "local cluster"), ",", " "))
	bin := buildBlogharvest(b)
	for _, mode := range modes {
		b.Run(fmt.Sprintf("%s/blogs=%d", mode, n), func(b *testing.B) {
			for range b.N {
				runScale(b, bin, mode, n, day, days)
			}
		})
	}
}

// envInt reads a positive integer from the environment, or def.
func envInt(b *testing.B, key string, def int) int {
	v := os.Getenv(key)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > 1<<22 {
		b.Fatalf("%s=%q: want a positive integer up to 4 194 304", key, v)
	}
	return n
}

// envDuration reads a duration from the environment, or def.
func envDuration(b *testing.B, key string, def time.Duration) time.Duration {
	v := os.Getenv(key)
	if v == "" {
		return def
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < time.Minute {
		b.Fatalf("%s=%q: want a duration of a minute or more", key, v)
	}
	return d
}

// buildBlogharvest builds the checkout's blogharvest (the main module, the
// parent folder) into a temp dir, or returns BLOGHARVEST_SCALE_BINARY, a
// binary built before (to compare two builds on the same benchmark).
func buildBlogharvest(b *testing.B) string {
	if bin := os.Getenv("BLOGHARVEST_SCALE_BINARY"); bin != "" {
		return bin
	}
	bin := filepath.Join(b.TempDir(), "blogharvest")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/blogharvest")
	cmd.Dir = ".."
	if out, err := cmd.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// scaleServer serves every blog of a scale run from one listener; the
// blog is the last three bytes of the loopback address the request came
// to. It counts each blog's requests in the first run it sees.
type scaleServer struct {
	n       int
	port    int
	t0      time.Time     // the day's start
	window  time.Duration // requests within this of a blog's first belong to its first run
	first   []atomic.Int64
	reqs    []atomic.Int32
	late    atomic.Int64 // requests after a blog's first run's window
	feeds   atomic.Int64 // requests of a feed: one in every run (the runs, a blog's second ones included)
	refused atomic.Int64 // requests from off loopback
	srv     *http.Server
}

// blogHost is blog i's address: 127.1.0.0 onwards.
func blogHost(i int) string {
	return fmt.Sprintf("127.%d.%d.%d", 1+i>>16, (i>>8)&255, i&255)
}

// blogOf is the blog a Host header names, or -1.
func (s *scaleServer) blogOf(host string) int {
	h, _, err := net.SplitHostPort(host)
	if err != nil {
		h = host
	}
	ip := net.ParseIP(h).To4()
	if ip == nil || ip[0] != 127 || ip[1] < 1 {
		return -1
	}
	i := int(ip[1]-1)<<16 | int(ip[2])<<8 | int(ip[3])
	if i >= s.n {
		return -1
	}
	return i
}

// changed reports whether blog i has a post its prefilled state does not
// know: one blog in 20.
func changed(i int) bool {
	h := fnv.New32a()
	fmt.Fprintf(h, "changed-%d", i)
	return h.Sum32()%20 == 0
}

// posts is how many posts blog i's feed lists.
func posts(i int) int {
	if changed(i) {
		return 4
	}
	return 3
}

// feedETag is blog i's feed's ETag with k posts.
func feedETag(i, k int) string { return fmt.Sprintf(`"f%d-%d"`, i, k) }

// lastModified is the feed's Last-Modified with k posts.
func lastModified(k int) string {
	return time.Date(2026, 1, 1+k, 0, 0, 0, 0, time.UTC).Format(http.TimeFormat)
}

func (s *scaleServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if ra, _, _ := net.SplitHostPort(r.RemoteAddr); !net.ParseIP(ra).IsLoopback() {
		s.refused.Add(1)
		http.Error(w, "loopback only", http.StatusForbidden)
		return
	}
	i := s.blogOf(r.Host)
	if i < 0 {
		http.NotFound(w, r)
		return
	}
	now := time.Now().UnixNano()
	if s.first[i].CompareAndSwap(0, now) || now-s.first[i].Load() < int64(s.window) {
		s.reqs[i].Add(1)
	} else {
		s.late.Add(1)
	}
	time.Sleep(time.Duration(2+(i+len(r.URL.Path))%4) * time.Millisecond) // 2–5 ms, as a server's response time
	base := fmt.Sprintf("http://%s:%d", blogHost(i), s.port)
	k := posts(i)
	switch p := r.URL.Path; {
	case p == "/robots.txt":
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "User-agent: *\nAllow: /\n")
	case p == "/":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><title>Blog %d</title>
<link rel="alternate" type="application/rss+xml" href="%s/feed.xml"></head><body><h1>Blog %d</h1><ul>`, i, base, i)
		for j := k; j >= 1; j-- {
			fmt.Fprintf(w, `<li><a href="%s/p/%d.html">Post %d</a></li>`, base, j, j)
		}
		fmt.Fprint(w, "</ul></body></html>")
	case p == "/feed.xml":
		s.feeds.Add(1)
		etag, lm := feedETag(i, k), lastModified(k)
		w.Header().Set("ETag", etag)
		w.Header().Set("Last-Modified", lm)
		if r.Header.Get("If-None-Match") == etag || (r.Header.Get("If-None-Match") == "" && r.Header.Get("If-Modified-Since") == lm) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("Content-Type", "application/rss+xml")
		fmt.Fprintf(w, `<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Blog %d</title><link>%s/</link><description>A blog</description>`, i, base)
		for j := k; j >= 1; j-- {
			fmt.Fprintf(w, `<item><title>Post %d of blog %d</title><link>%s/p/%d.html</link><guid>%s/p/%d.html</guid><pubDate>%s</pubDate><description>The %dth post.</description></item>`,
				j, i, base, j, base, j, time.Date(2026, 1, 1+j, 0, 0, 0, 0, time.UTC).Format(time.RFC1123Z), j)
		}
		fmt.Fprint(w, "</channel></rss>")
	case strings.HasPrefix(p, "/p/") && strings.HasSuffix(p, ".html"):
		j, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(p, "/p/"), ".html"))
		if err != nil || j < 1 || j > k {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("ETag", fmt.Sprintf(`"p%d-%d"`, i, j))
		if r.Header.Get("If-None-Match") == fmt.Sprintf(`"p%d-%d"`, i, j) {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><title>Post %d of blog %d</title></head><body>
<article><h1>Post %d of blog %d</h1><time datetime="%s">%s</time>`, j, i, j, i,
			time.Date(2026, 1, 1+j, 0, 0, 0, 0, time.UTC).Format(time.RFC3339), time.Date(2026, 1, 1+j, 0, 0, 0, 0, time.UTC).Format("2 January 2006"))
		for q := range 6 {
			fmt.Fprintf(w, "<p>Paragraph %d of post %d of blog %d: some words written about a subject, as a blog post has them, long enough to be an article's text.</p>", q, j, i)
		}
		fmt.Fprint(w, "</article></body></html>")
	default:
		http.NotFound(w, r)
	}
}

// procSample is the scheduler process's CPU and RSS at a time.
type procSample struct {
	at    time.Time
	cpu   time.Duration
	rssKB int64
	// anonKB and fileKB split rssKB: the process's own memory, and the
	// pages of mapped files it touched (the state file bbolt maps), which
	// the kernel's page cache holds and drops under pressure unwritten.
	anonKB, fileKB int64
}

// sampleProc reads pid's user+system CPU and resident set.
func sampleProc(pid int) (procSample, error) {
	s := procSample{at: time.Now()}
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return s, err
	}
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+2:]))
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	s.cpu = time.Duration(ut+st) * time.Second / 100 // USER_HZ is 100 on Linux
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return s, err
	}
	kB := func(v string) int64 {
		n, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
		return n
	}
	for _, line := range strings.Split(string(status), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			s.rssKB = kB(v)
		} else if v, ok := strings.CutPrefix(line, "RssAnon:"); ok {
			s.anonKB = kB(v)
		} else if v, ok := strings.CutPrefix(line, "RssFile:"); ok {
			s.fileKB = kB(v)
		}
	}
	return s, nil
}

// scaleMember is a member of the benchmark's cluster: its nkey seed file
// and public key.
type scaleMember struct{ seed, public string }

// runScale runs days simulated days of n blogs in mode (local or
// cluster).
func runScale(b *testing.B, bin, mode string, n int, day time.Duration, days int) {
	b.StopTimer()
	dir := b.TempDir()
	ln, err := net.Listen("tcp", "0.0.0.0:0") // every 127.x.y.z; the handler refuses other peers
	if err != nil {
		b.Fatal(err)
	}
	srv := &scaleServer{n: n, port: ln.Addr().(*net.TCPAddr).Port, window: day / 2,
		first: make([]atomic.Int64, n), reqs: make([]atomic.Int32, n)}
	srv.srv = &http.Server{Handler: srv, ReadHeaderTimeout: time.Minute}
	go srv.srv.Serve(ln)
	defer srv.srv.Close()

	warm := max(time.Minute, time.Duration(n)*time.Millisecond) // start-up: config, state, scheduling
	srv.t0 = time.Now().Add(warm)
	herd := srv.t0.Add(day / 2)
	dues := make([]time.Time, n)
	for i := range n {
		if i%10 == 9 {
			dues[i] = herd.Add(time.Duration(i/10%60) * time.Second) // a tenth within one minute
		} else {
			dues[i] = srv.t0.Add(time.Duration(int64(day) * int64(i) / int64(n)))
		}
	}
	every := fmt.Sprintf("@every %s", day)

	state := filepath.Join(dir, "state", "schedule.db")
	listen := freeLoopback(b)
	var y strings.Builder
	fmt.Fprintf(&y, "archive: %s\nstate: %s\nlisten: %s\nconcurrency: %d\norganization: Scale Test\nlog: {format: json, level: info}\n",
		filepath.Join(dir, "archive"), state, listen, envInt(b, "BLOGHARVEST_SCALE_CONCURRENCY", 8))
	var nats *cluster.Server
	var members map[string]scaleMember
	if mode == "cluster" {
		members = map[string]scaleMember{}
		keys := map[string]string{}
		for _, name := range []string{"sched", "w1", "w2"} {
			id, seed, err := cluster.NewIdentity()
			if err != nil {
				b.Fatal(err)
			}
			f := filepath.Join(dir, name+".nk")
			if err := os.WriteFile(f, seed, 0o600); err != nil {
				b.Fatal(err)
			}
			members[name] = scaleMember{f, id.Public()}
			keys[name] = id.Public()
		}
		natsAddr := freeLoopback(b)
		nats, err = cluster.StartServer(cluster.ServerOptions{Listen: natsAddr, StoreDir: filepath.Join(dir, "nats"), Members: keys})
		if err != nil {
			b.Fatal(err)
		}
		defer nats.Close()
		fmt.Fprintf(&y, "cluster: {nats_url: \"nats://%s\", name: sched, nkey_file: %s, members: {sched: %s, w1: %s, w2: %s}}\n",
			natsAddr, members["sched"].seed, keys["sched"], keys["w1"], keys["w2"])
	} else if mode != "local" {
		b.Fatalf("mode %q: want local or cluster", mode)
	}
	delay := cmp.Or(os.Getenv("BLOGHARVEST_SCALE_DELAY"), "250ms")
	y.WriteString("blogs:\n")
	for i := range n {
		fmt.Fprintf(&y, "  - {id: b%07d, url: \"http://%s:%d/\", schedule: \"%s\", delay: %s, render: never}\n",
			i, blogHost(i), srv.port, every, delay)
	}
	cfg := filepath.Join(dir, "blogs.yaml")
	if err := os.WriteFile(cfg, []byte(y.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	prefillScale(b, state, n, srv.port, every, day, dues)
	size0 := fileSize(state)

	sched, logs := startScale(b, bin, dir, "run", "-config", cfg)
	var procs []*exec.Cmd
	if mode == "cluster" {
		for _, w := range []string{"w1", "w2"} {
			p, _ := startScale(b, bin, dir, "worker", "-config", cfg, "-name", w, "-nkey", members[w].seed, "-listen", freeLoopback(b))
			procs = append(procs, p)
		}
	}
	procs = append(procs, sched)
	defer func() {
		for _, p := range procs {
			p.Process.Signal(syscall.SIGTERM)
		}
		for _, p := range procs {
			done := make(chan struct{})
			go func() { p.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(2 * time.Minute):
				p.Process.Kill()
				<-done
			}
		}
	}()

	// Sample the scheduler every 2 s until the days are over and every
	// blog has run once, or half a day more is over.
	var samples, selfs []procSample // the scheduler's, and this process's (the server's)
	end := srv.t0.Add(time.Duration(days)*day + day/2)
	b.StartTimer()
	for time.Now().Before(end) {
		s, err := sampleProc(sched.Process.Pid)
		if err != nil {
			b.Fatalf("the scheduler ended: %v\n%s", err, lastLog(logs))
		}
		samples = append(samples, s)
		if self, err := sampleProc(os.Getpid()); err == nil {
			selfs = append(selfs, self)
		}
		started := 0
		for i := range n {
			if srv.first[i].Load() != 0 {
				started++
			}
		}
		if started == n && time.Now().After(srv.t0.Add(time.Duration(days)*day)) {
			break
		}
		time.Sleep(2 * time.Second)
	}
	b.StopTimer()
	size1 := fileSize(state)

	// The figures.
	var lags, herdLags []float64
	var unchangedReqs, changedReqs []float64
	missed := 0
	for i := range n {
		f := srv.first[i].Load()
		if f == 0 {
			missed++
			continue
		}
		lag := time.Unix(0, f).Sub(dues[i]).Seconds()
		if i%10 == 9 {
			herdLags = append(herdLags, lag)
		} else {
			lags = append(lags, lag)
		}
		if changed(i) {
			changedReqs = append(changedReqs, float64(srv.reqs[i].Load()))
		} else {
			unchangedReqs = append(unchangedReqs, float64(srv.reqs[i].Load()))
		}
	}
	peak := slices.MaxFunc(samples, func(a, b procSample) int { return cmp.Compare(a.rssKB, b.rssKB) }).rssKB
	peakAnon := slices.MaxFunc(samples, func(a, b procSample) int { return cmp.Compare(a.anonKB, b.anonKB) }).anonKB
	peakFile := slices.MaxFunc(samples, func(a, b procSample) int { return cmp.Compare(a.fileKB, b.fileKB) }).fileKB
	// CPU and the quarters count from the day's start, not the start-up.
	for len(samples) > 2 && samples[0].at.Before(srv.t0) {
		samples = samples[1:]
	}
	for len(selfs) > 2 && selfs[0].at.Before(srv.t0) {
		selfs = selfs[1:]
	}
	hours := samples[len(samples)-1].at.Sub(samples[0].at).Hours()
	cpuDay := (samples[len(samples)-1].cpu - samples[0].cpu).Seconds()
	cpuHour := cpuDay / hours
	// CPU per run: the runs are the feed requests (every run asks for the
	// feed once; a blog due again within the day runs again), the changed
	// blogs' bags included; this process's CPU is mostly its server's.
	runs := float64(max(srv.feeds.Load(), 1))
	selfDay := (selfs[len(selfs)-1].cpu - selfs[0].cpu).Seconds()
	q := max(len(samples)/4, 1)
	first, last := meanRSS(samples[:q]), meanRSS(samples[len(samples)-q:])
	b.ReportMetric(float64(peak)/1024, "MB-RSS-max")
	b.ReportMetric(float64(peakAnon)/1024, "MB-anon-max")
	b.ReportMetric(float64(peakFile)/1024, "MB-file-max")
	b.ReportMetric(first/1024, "MB-RSS-q1")
	b.ReportMetric(last/1024, "MB-RSS-q4")
	b.ReportMetric(cpuHour, "s-CPU/h")
	b.ReportMetric(cpuDay/runs*1e3, "ms-CPU/run")
	b.ReportMetric(selfDay/runs*1e3, "ms-bench-CPU/run")
	b.ReportMetric(percentile(lags, 50), "s-lag-p50")
	b.ReportMetric(percentile(lags, 99), "s-lag-p99")
	b.ReportMetric(percentile(herdLags, 50), "s-herd-lag-p50")
	b.ReportMetric(percentile(herdLags, 99), "s-herd-lag-p99")
	b.ReportMetric(mean(unchangedReqs), "req/unchanged")
	b.ReportMetric(mean(changedReqs), "req/changed")
	b.ReportMetric(float64(size1)/1e6, "MB-state")
	b.ReportMetric(float64(missed), "blogs-not-run")
	b.Logf("%s, %d blogs, %d day(s) of %s: scheduler RSS max %.0f MB (anonymous max %.0f MB, mapped files max %.0f MB), first quarter %.0f MB, last quarter %.0f MB; CPU %.0f s per hour "+
		"(%.0f s over %.2f h; %.2f ms a run; the benchmark's own process, its server: %.0f s, %.2f ms a run); lag p50 %.1f s, p99 %.1f s (the tenth due together: p50 %.1f s, p99 %.1f s, max %.1f s); "+
		"requests per unchanged blog %.2f (max %.0f), per changed blog %.2f; state file %.1f MB before, %.1f MB after; "+
		"%d blogs not run; %d requests after a blog's first run; %d runs; %d refused",
		mode, n, days, day, float64(peak)/1024, float64(peakAnon)/1024, float64(peakFile)/1024, first/1024, last/1024, cpuHour,
		cpuDay, hours, cpuDay/runs*1e3, selfDay, selfDay/runs*1e3,
		percentile(lags, 50), percentile(lags, 99), percentile(herdLags, 50), percentile(herdLags, 99), percentile(herdLags, 100),
		mean(unchangedReqs), percentile(unchangedReqs, 100), mean(changedReqs), float64(size0)/1e6, float64(size1)/1e6,
		missed, srv.late.Load(), srv.feeds.Load(), srv.refused.Load())
	if keep := os.Getenv("BLOGHARVEST_SCALE_SAMPLES"); keep != "" {
		var sb strings.Builder
		for _, s := range samples {
			fmt.Fprintf(&sb, "%.0f\t%.2f\t%d\n", s.at.Sub(srv.t0).Seconds(), s.cpu.Seconds(), s.rssKB)
		}
		os.WriteFile(fmt.Sprintf("%s-%s-%d.tsv", keep, mode, n), []byte(sb.String()), 0o644)
	}
}

// prefillScale records every blog as crawled a day before its due time,
// with the validators of its feed as the server gives them unchanged.
func prefillScale(b *testing.B, path string, n, port int, every string, day time.Duration, dues []time.Time) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		b.Fatal(err)
	}
	st, err := schedule.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	const batch = 10000
	now := time.Now()
	for lo := 0; lo < n; lo += batch {
		m := map[string]schedule.State{}
		for i := lo; i < min(lo+batch, n); i++ {
			prev := dues[i].Add(-day)
			m[fmt.Sprintf("b%07d", i)] = schedule.State{Spec: every, LastStart: prev.Add(-time.Second), LastEnd: prev,
				Outcome: schedule.OutcomeOK, NextDue: dues[i], Entries: 3, Runs: 1,
				Watermark: time.Date(2026, 1, 4, 0, 0, 0, 0, time.UTC),
				CrawlState: blogharvest.CrawlState{Feed: blogharvest.Validators{
					URL: fmt.Sprintf("http://%s:%d/feed.xml", blogHost(i), port), ETag: feedETag(i, 3), LastModified: lastModified(3)},
					PostsChecked: now}}
		}
		if err := st.PutAll(m); err != nil {
			b.Fatal(err)
		}
	}
}

// startScale starts bin with args, its log in a file of dir.
func startScale(b *testing.B, bin, dir string, args ...string) (*exec.Cmd, string) {
	logs := filepath.Join(dir, fmt.Sprintf("%s-%d.log", args[0], time.Now().UnixNano()))
	f, err := os.Create(logs)
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = f, f
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return cmd, logs
}

// lastLog returns the last lines of the log file at path.
func lastLog(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return err.Error()
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if len(lines) > 20 {
			lines = lines[1:]
		}
	}
	return strings.Join(lines, "\n")
}

// freeLoopback returns a free address on 127.0.0.1.
func freeLoopback(b *testing.B) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// fileSize is the size of the file at path, 0 if unreadable.
func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// meanRSS is the samples' mean RSS in KiB.
func meanRSS(s []procSample) float64 {
	var sum float64
	for _, x := range s {
		sum += float64(x.rssKB)
	}
	return sum / float64(max(len(s), 1))
}

// percentile is the p-th percentile of xs (nearest rank); 0 for none.
func percentile(xs []float64, p float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	k := int(p/100*float64(len(s))+0.5) - 1
	return s[min(max(k, 0), len(s)-1)]
}

// mean is the mean of xs; 0 for none.
func mean(xs []float64) float64 {
	var sum float64
	for _, x := range xs {
		sum += x
	}
	return sum / float64(max(len(xs), 1))
}
