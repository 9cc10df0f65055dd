package lifecycle_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// soakSite is what a soak blog's server serves now.
type soakSite struct {
	dir       string
	redirects map[string]string // 301s, path → path
	gone      string            // a deleted post's path: 404 the first time it is asked, 410 after
	failing   bool              // 503 to everything
}

// soakServer serves one soak blog at one fixed loopback address; it can
// stop listening (connections refused) and listen again there.
type soakServer struct {
	addr     string
	cur      atomic.Pointer[soakSite]
	goneSeen atomic.Int32 // requests of the gone path so far
	mu       sync.Mutex
	srv      *http.Server
}

func (s *soakServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	site := s.cur.Load()
	switch {
	case site.failing:
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
		return
	case site.gone != "" && r.URL.Path == site.gone:
		if s.goneSeen.Add(1) == 1 {
			http.NotFound(w, r)
		} else {
			http.Error(w, "gone", http.StatusGone)
		}
		return
	}
	if to, ok := site.redirects[r.URL.Path]; ok {
		http.Redirect(w, r, to, http.StatusMovedPermanently)
		return
	}
	http.FileServer(http.Dir(site.dir)).ServeHTTP(w, r)
}

// up listens at s.addr (again), trying for a while.
func (s *soakServer) up(t *testing.T) {
	var ln net.Listener
	var err error
	for range 100 {
		if ln, err = net.Listen("tcp", s.addr); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Error(err)
		return
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: time.Minute}
	go srv.Serve(ln)
	s.mu.Lock()
	s.srv = srv
	s.mu.Unlock()
}

// down closes the listener and every connection.
func (s *soakServer) down() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		s.srv.Close()
		s.srv = nil
	}
}

// soakBlog is one blog of the soak and what the test expects of it.
type soakBlog struct {
	id     string
	srv    *soakServer
	base   string
	posts  []post // listed now
	extra  []post // the posts still to publish
	engine string // pelican, hugo
	theme  string
	events []string
	// entries is the number of entry folders the blog must have: every
	// post ever listed, once.
	entries int
	done    []string // what happened, for the log
}

// statusOf returns blog id's row of the daemon's /status, nil when it
// does not answer.
func statusOf(listen, id string) map[string]any {
	resp, err := http.Get("http://" + listen + "/status")
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	var body struct{ Blogs []map[string]any }
	if json.NewDecoder(resp.Body).Decode(&body) != nil {
		return nil
	}
	for _, b := range body.Blogs {
		if b["id"] == id {
			return b
		}
	}
	return nil
}

// waitUntil polls cond every second until it holds (true) or within
// passes (false).
func waitUntil(within time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(time.Second)
	}
	return true
}

// entryDirs counts the entry folders of blog id and their versions.
func entryDirs(archive, id string) (folders, versions int) {
	dirs, _ := filepath.Glob(filepath.Join(archive, id, "entries", "*", "*"))
	for _, d := range dirs {
		vs, _ := filepath.Glob(filepath.Join(d, "v*"))
		folders, versions = folders+1, versions+len(vs)
	}
	return
}

// ledgerOf returns the rows of blog id's newest Blog AIP's ledger by URL:
// fate, detail, via.
func ledgerOf(archive, id string) map[string][]string {
	vs, _ := filepath.Glob(filepath.Join(archive, id, "blog", "v*"))
	best := 0
	for _, v := range vs {
		if n, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(v), "v")); err == nil && n > best {
			best = n
		}
	}
	data, err := os.ReadFile(filepath.Join(archive, id, "blog", "v"+strconv.Itoa(best), "data", "logs", "ledger.tsv"))
	if err != nil {
		return nil
	}
	out := map[string][]string{}
	sc := bufio.NewScanner(strings.NewReader(string(data)))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if f := strings.Split(sc.Text(), "\t"); len(f) >= 4 {
			out[f[0]] = f[1:4]
		}
	}
	return out
}

// soakSample is one sample of the daemon's resources.
type soakSample struct {
	at                   time.Time
	rssKB, fds, routines int
}

// sample reads the daemon's VmRSS and open descriptors from /proc and
// its goroutines from /metrics (go_goroutines).
func sample(pid int, listen string) (soakSample, error) {
	s := soakSample{at: time.Now()}
	st, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return s, err
	}
	for _, line := range strings.Split(string(st), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			s.rssKB, _ = strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
		}
	}
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return s, err
	}
	s.fds = len(fds)
	resp, err := http.Get("http://" + listen + "/metrics")
	if err != nil {
		return s, err
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "go_goroutines "); ok {
			s.routines, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	if s.routines == 0 {
		return s, fmt.Errorf("no go_goroutines in /metrics")
	}
	return s, nil
}

// median of the values f picks from samples.
func median(samples []soakSample, f func(soakSample) int) int {
	var v []int
	for _, s := range samples {
		v = append(v, f(s))
	}
	if len(v) == 0 {
		return 0
	}
	slices.Sort(v)
	return v[len(v)/2]
}

// TestSoak runs the daemon (`run`, the real binary, its own bbolt and
// archive) over a dozen Pelican blogs on "@every 30s" for
// BLOGHARVEST_SOAK (a duration, e.g. 1h; skipped when unset) while each
// blog lives through one or two events in turn: a new post, a redesign
// (theme switched), a move to Hugo (with and without 301s), a post
// deleted (404, then 410), the blog down (connection refused, then 503)
// and back, and, with BLOGHARVEST_SOAK_STRANGER=1 (once the daemon knows
// strangers, issue 42), a parking page at the address. Every 30 s it
// samples the daemon's RSS, open descriptors and goroutines; it fails
// when the last quarter's medians grew past the first quarter's (RSS
// ×1.5, descriptors and goroutines ×1.25 + 10), when an event was not
// handled as doc/lifecycle.md says (an entry folder too many or too few,
// no withdrawal in the ledger, the blog not down then ok), or when
// `check` finds a problem.
func TestSoak(t *testing.T) {
	d, err := time.ParseDuration(os.Getenv("BLOGHARVEST_SOAK"))
	if err != nil || d <= 0 {
		t.Skip("the soak runs with BLOGHARVEST_SOAK=<duration> (e.g. 1h; go test -timeout must exceed it)")
	}
	needEngines(t, "pelican", "hugo")
	t.Parallel()
	stranger := os.Getenv("BLOGHARVEST_SOAK_STRANGER") == "1"
	kinds := [][]string{
		{"newpost", "redesign"}, {"redesign"}, {"move"}, {"move301"}, {"delete"}, {"down", "newpost"},
		{"down"}, {"newpost"}, {"move301", "newpost"}, {"delete", "newpost"}, {"redesign", "newpost"}, {"move", "newpost"},
	}
	if stranger {
		kinds[7] = append(kinds[7], "stranger")
	}
	dir := t.TempDir()
	archive, listen := filepath.Join(dir, "archive"), daemontest.FreeAddr(t)
	all := makePosts(8)
	var blogs []*soakBlog
	var y strings.Builder
	fmt.Fprintf(&y, "archive: %s\nstate: %s\nlisten: %s\nlog: {format: json, level: info}\nblogs:\n",
		archive, filepath.Join(dir, "state", "schedule.db"), listen)
	for i, ev := range kinds {
		b := &soakBlog{id: fmt.Sprintf("soak%02d", i), srv: &soakServer{addr: daemontest.FreeAddr(t)},
			posts: slices.Clone(all[:6]), extra: slices.Clone(all[6:]), engine: "pelican", theme: "simple", events: ev, entries: 6}
		b.base = "http://" + b.srv.addr
		b.srv.cur.Store(&soakSite{dir: buildPelican(t, b.posts, b.base, b.theme)})
		b.srv.up(t)
		t.Cleanup(b.srv.down)
		blogs = append(blogs, b)
		fmt.Fprintf(&y, "  - id: %s\n    url: %s/\n    schedule: \"@every 30s\"\n    down_after: 1s\n    delay: 1ms\n    render: never\n    requisites: none\n", b.id, b.base)
	}
	cfg := filepath.Join(dir, "blogs.yaml")
	if err := os.WriteFile(cfg, []byte(y.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	p := daemontest.Start(t, "run", "-config", cfg)
	pid := p.Cmd.Process.Pid

	// The samples, every 30 s until the events are over and d has passed.
	var samples []soakSample
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		tick := time.NewTicker(30 * time.Second)
		defer tick.Stop()
		for {
			if s, err := sample(pid, listen); err == nil {
				samples = append(samples, s)
			} else {
				t.Logf("sample: %v", err)
			}
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()

	daemontest.WaitFor(t, "every blog archived", 10*time.Minute, func() bool {
		for _, b := range blogs {
			if n, _ := entryDirs(archive, b.id); n != 6 {
				return false
			}
		}
		return true
	})
	t.Logf("every blog archived after %v", time.Since(start).Round(time.Second))

	// Each blog's events, in turn: blog i's first event at 10% of d plus
	// i × 40% of d / 12, its second half of d later.
	var wg sync.WaitGroup
	for i, b := range blogs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k, ev := range b.events {
				at := start.Add(d/10 + time.Duration(i)*d*4/10/time.Duration(len(blogs)) + time.Duration(k)*d/2)
				time.Sleep(time.Until(at))
				t0 := time.Now()
				if err := soakEvent(t, b, ev, archive, listen); err != nil {
					t.Errorf("%s, %s: %v", b.id, ev, err)
				}
				b.done = append(b.done, fmt.Sprintf("%s at %v (%v)", ev, t0.Sub(start).Round(time.Second), time.Since(t0).Round(time.Second)))
			}
		}()
	}
	wg.Wait()
	time.Sleep(time.Until(start.Add(d)))
	close(stop)
	<-sampled
	if code := p.Stop(t, syscall.SIGTERM, 2*time.Minute); code != 0 {
		t.Errorf("exit code after SIGTERM = %d", code)
	}

	for _, b := range blogs {
		folders, versions := entryDirs(archive, b.id)
		if folders != b.entries {
			t.Errorf("%s (%v): %d entry folders, want %d (every post once)", b.id, b.events, folders, b.entries)
		}
		t.Logf("%s: %s; %d entry folders, %d versions", b.id, strings.Join(b.done, ", "), folders, versions)
	}
	daemontest.CheckArchive(t, archive)

	q := len(samples) / 4
	if q < 1 {
		t.Fatalf("%d samples: too few for quarters", len(samples))
	}
	first, last := samples[:q], samples[len(samples)-q:]
	for _, m := range []struct {
		name    string
		f       func(soakSample) int
		factor  float64
		slack   int
		measure string
	}{
		{"RSS", func(s soakSample) int { return s.rssKB }, 1.5, 0, "kB"},
		{"open descriptors", func(s soakSample) int { return s.fds }, 1.25, 10, ""},
		{"goroutines", func(s soakSample) int { return s.routines }, 1.25, 10, ""},
	} {
		a, z := median(first, m.f), median(last, m.f)
		t.Logf("%s: first quarter median %d %s, last quarter median %d %s (%d samples each of %d)", m.name, a, m.measure, z, m.measure, q, len(samples))
		if float64(z) > float64(a)*m.factor+float64(m.slack) {
			t.Errorf("%s grew: first quarter median %d, last %d", m.name, a, z)
		}
	}
	for _, s := range samples {
		t.Logf("sample at %v: RSS %d kB, %d fds, %d goroutines", s.at.Sub(start).Round(time.Second), s.rssKB, s.fds, s.routines)
	}
}

// ranSince reports whether blog id's newest run started after t0 and
// ended well.
func ranSince(listen, id string, t0 time.Time) bool {
	st := statusOf(listen, id)
	if st == nil || st["outcome"] != "ok" || st["running"] == true {
		return false
	}
	s, _ := time.Parse(time.RFC3339Nano, fmt.Sprint(st["last_start"]))
	return s.After(t0)
}

// soakEvent makes one event happen to b and waits until the daemon has
// handled it as doc/lifecycle.md says.
func soakEvent(t *testing.T, b *soakBlog, ev, archive, listen string) error {
	const within = 8 * time.Minute
	build := func() string {
		if b.engine == "hugo" {
			return buildHugo(t, b.posts, b.base)
		}
		return buildPelican(t, b.posts, b.base, b.theme)
	}
	switch ev {
	case "newpost":
		// Published now: an update reads the feed items dated after its
		// watermark (the last run's start less an hour), as a new post is.
		p := b.extra[0]
		p.date = time.Now().UTC().Truncate(time.Minute)
		b.posts = append(b.posts, p)
		b.extra = b.extra[1:]
		b.entries++
		b.srv.cur.Store(&soakSite{dir: build()})
		if !waitUntil(within, func() bool { n, _ := entryDirs(archive, b.id); return n == b.entries }) {
			n, _ := entryDirs(archive, b.id)
			return fmt.Errorf("%d entry folders, want %d", n, b.entries)
		}
	case "redesign":
		_, v0 := entryDirs(archive, b.id)
		b.theme = "quire"
		t0 := time.Now()
		b.srv.cur.Store(&soakSite{dir: build()})
		if !waitUntil(within, func() bool { return ranSince(listen, b.id, t0) }) {
			return fmt.Errorf("no run went well after the redesign")
		}
		if n, v := entryDirs(archive, b.id); n != b.entries || v != v0 {
			return fmt.Errorf("after the redesign %d entry folders, %d versions; want %d, %d", n, v, b.entries, v0)
		}
	case "move", "move301":
		old := b.posts
		b.engine = "hugo"
		site := &soakSite{dir: build()}
		if ev == "move301" {
			site.redirects = map[string]string{}
			for _, p := range old {
				site.redirects[pelicanURL("", p)] = strings.TrimPrefix(hugoURL(b.base, p), b.base)
			}
		}
		t0 := time.Now()
		b.srv.cur.Store(site)
		moved := func() bool {
			l := ledgerOf(archive, b.id)
			for _, p := range old {
				if r := l[pelicanURL(b.base, p)]; len(r) < 1 || r[0] != "redirect" {
					return false
				}
			}
			return true
		}
		if !waitUntil(within, func() bool { return ranSince(listen, b.id, t0) && moved() }) {
			return fmt.Errorf("the move is not in the newest ledger (a redirect row for each old URL)")
		}
		if n, _ := entryDirs(archive, b.id); n != b.entries {
			return fmt.Errorf("after the move %d entry folders, want %d", n, b.entries)
		}
	case "delete":
		gone := b.posts[0]
		b.posts = b.posts[1:]
		path := strings.TrimPrefix(pelicanURL(b.base, gone), b.base)
		b.srv.cur.Store(&soakSite{dir: build(), gone: path})
		if !waitUntil(within, func() bool {
			r := ledgerOf(archive, b.id)[pelicanURL(b.base, gone)]
			return len(r) > 0 && r[0] == "withdrawn"
		}) {
			return fmt.Errorf("no withdrawn row for %s in the newest ledger (asked %d times)", path, b.srv.goneSeen.Load())
		}
		if n, _ := entryDirs(archive, b.id); n != b.entries {
			return fmt.Errorf("after the withdrawal %d entry folders, want %d", n, b.entries)
		}
	case "down":
		before := tree(t, filepath.Join(archive, b.id))
		b.srv.down()
		var since any
		if !waitUntil(within, func() bool {
			st := statusOf(listen, b.id)
			a, _ := st["last_answer"].(string)
			since = st["failing_since"]
			return st != nil && st["health"] == "down" && strings.Contains(a, "connection refused")
		}) {
			return fmt.Errorf("not down with connection refused: %v", statusOf(listen, b.id))
		}
		cur := *b.srv.cur.Load()
		cur.failing = true
		b.srv.cur.Store(&cur)
		b.srv.up(t)
		if !waitUntil(within, func() bool {
			st := statusOf(listen, b.id)
			a, _ := st["last_answer"].(string)
			return st != nil && st["health"] == "down" && strings.Contains(a, "HTTP 503") && st["failing_since"] == since
		}) {
			return fmt.Errorf("not down since %v with HTTP 503: %v", since, statusOf(listen, b.id))
		}
		cur.failing = false
		b.srv.cur.Store(&cur)
		if !waitUntil(within, func() bool {
			st := statusOf(listen, b.id)
			return st != nil && st["health"] == "ok" && st["outcome"] == "ok" && st["failing_since"] == nil
		}) {
			return fmt.Errorf("not ok again: %v", statusOf(listen, b.id))
		}
		if after := tree(t, filepath.Join(archive, b.id)); !slices.Equal(before, after) {
			return fmt.Errorf("the blog down and back unchanged, yet its folder changed: %d files, then %d", len(before), len(after))
		}
	case "stranger":
		// A parking page at the address (issue 42, "a stranger at the old
		// address"): nothing archived as the blog's, the status flagged.
		_, v0 := entryDirs(archive, b.id)
		park := t.TempDir()
		os.WriteFile(filepath.Join(park, "index.html"), []byte(`<!DOCTYPE html><html><head><title>This domain is for sale</title></head><body><h1>This domain may be for sale</h1><p>Buy this domain today. Related searches: cheap flights, car insurance, web hosting.</p></body></html>`), 0o644)
		t0 := time.Now()
		b.srv.cur.Store(&soakSite{dir: park})
		if !waitUntil(within, func() bool {
			st := statusOf(listen, b.id)
			s, _ := time.Parse(time.RFC3339Nano, fmt.Sprint(st["last_start"]))
			return st != nil && s.After(t0) && st["running"] != true
		}) {
			return fmt.Errorf("no run after the parking page")
		}
		if n, v := entryDirs(archive, b.id); n != b.entries || v != v0 {
			return fmt.Errorf("the parking page wrote entries: %d folders, %d versions; want %d, %d", n, v, b.entries, v0)
		}
		if st := statusOf(listen, b.id); st["identity_changed"] == nil {
			return fmt.Errorf("the status does not flag the identity change: %v", st)
		}
	default:
		return fmt.Errorf("unknown event %q", ev)
	}
	return nil
}
