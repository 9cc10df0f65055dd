package daemon_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/daemon"
	"github.com/blogharvest/blogharvest/internal/fixture"
	"github.com/blogharvest/blogharvest/internal/s3test"
	"github.com/blogharvest/blogharvest/internal/toolskip"
)

// binary is the blogharvest command built once for the process tests.
var binary string

func TestMain(m *testing.M) {
	flag.Parse()
	if f := flag.Lookup("test.fuzzworker"); f != nil && f.Value.String() == "true" {
		os.Exit(m.Run()) // a fuzzing worker runs only the fuzz target: no binary needed
	}
	// Most parallel tests here wait (for their processes, schedules, slow
	// servers and browsers) more than they compute: run at least four at
	// once, not GOMAXPROCS (two on a 2-core machine). -parallel, when
	// given, decides.
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given && runtime.GOMAXPROCS(0) < 4 {
		flag.Set("test.parallel", "4")
	}
	dir, err := os.MkdirTemp("", "blogharvest-bin-")
	if err != nil {
		panic(err)
	}
	binary = filepath.Join(dir, "blogharvest")
	out, err := exec.Command("go", "build", "-o", binary, "../cmd/blogharvest").CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building blogharvest: %v\n%s", err, out)
		os.Exit(1)
	}
	code := toolskip.Main(m)
	s3test.Stop()
	os.RemoveAll(dir)
	if demo.dir != "" {
		os.RemoveAll(demo.dir)
	}
	daemon.RemoveDemoArchive()
	os.Exit(code)
}

// syncBuffer is a bytes.Buffer safe to read while a process writes to it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// proc is a running blogharvest process.
type proc struct {
	cmd  *exec.Cmd
	logs *syncBuffer
	done chan error
}

func start(t *testing.T, args ...string) *proc {
	t.Helper()
	return startEnv(t, nil, args...)
}

// startEnv is start with an environment; nil inherits the test's.
func startEnv(t *testing.T, env []string, args ...string) *proc {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = env
	return startCmd(t, cmd, args)
}

// startCmd starts cmd, a run of the binary with args, collecting its output
// and killing it when the test ends (showing its last lines if it failed).
func startCmd(t *testing.T, cmd *exec.Cmd, args []string) *proc {
	t.Helper()
	p := &proc{cmd: cmd, logs: &syncBuffer{}, done: make(chan error, 1)}
	p.cmd.Stdout, p.cmd.Stderr = p.logs, p.logs
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		p.cmd.Process.Kill()
		if t.Failed() {
			t.Logf("logs of %v:\n%s", args, lastLines(p.logs.String(), 40))
		}
	})
	return p
}

// stop sends sig and waits for the exit code.
func (p *proc) stop(t *testing.T, sig syscall.Signal, within time.Duration) int {
	t.Helper()
	p.cmd.Process.Signal(sig)
	select {
	case <-p.done:
		return p.cmd.ProcessState.ExitCode()
	case <-time.After(within):
		t.Fatalf("no exit within %v of %v", within, sig)
		return -1
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// freeAddr is a loopback address free a moment ago (freeAddrTB).
func freeAddr(t *testing.T) string {
	t.Helper()
	return freeAddrTB(t)
}

// env is one daemon test: a fixture blog server and a config.
type env struct {
	site    *fixture.Site
	srv     *httptest.Server
	dir     string
	archive string
	config  string
	listen  string
}

func newEnv(t *testing.T, schedule string) *env {
	t.Helper()
	e := &env{site: fixture.MustNew("wordpress"), dir: t.TempDir(), listen: freeAddr(t)}
	e.srv = httptest.NewServer(e.site.Handler())
	t.Cleanup(e.srv.Close)
	e.archive = filepath.Join(e.dir, "archive")
	e.config = filepath.Join(e.dir, "blogs.yaml")
	y := fmt.Sprintf(`archive: %s
state: %s
listen: %s
organization: Test Library
log: {format: json, level: info}
blogs:
  - id: sample
    url: %s/
    schedule: %q
    delay: 1ms
    render: never
`, e.archive, filepath.Join(e.dir, "state", "schedule.db"), e.listen, e.srv.URL, schedule)
	if err := os.WriteFile(e.config, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	return e
}

// entries maps each archived entry's permalink to its versions.
func (e *env) entries(t *testing.T) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	bags, _ := filepath.Glob(filepath.Join(e.archive, "sample", "entries", "*", "*", "v*", "bag-info.txt"))
	for _, bi := range bags {
		data, err := os.ReadFile(bi)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(data), "\n") {
			if v, ok := strings.CutPrefix(line, "External-Identifier: "); ok {
				out[v] = append(out[v], filepath.Base(filepath.Dir(bi)))
			}
		}
	}
	return out
}

// truthURLs lists the permalinks a perfect harvest archives.
func (e *env) truthURLs() []string {
	tr := e.site.Truth(e.srv.URL)
	var urls []string
	for _, p := range append(tr.Posts, tr.Pages...) {
		urls = append(urls, p.URL)
	}
	return urls
}

// waitFor polls cond until it holds or the deadline passes.
func waitFor(t *testing.T, what string, within time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", within, what)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func (e *env) hasAll(t *testing.T) func() bool {
	return func() bool {
		got := e.entries(t)
		for _, u := range e.truthURLs() {
			if len(got[u]) == 0 {
				return false
			}
		}
		return true
	}
}

func (e *env) status(t *testing.T) map[string]any {
	resp, err := http.Get("http://" + e.listen + "/status")
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	var body struct{ Blogs []map[string]any }
	if json.NewDecoder(resp.Body).Decode(&body) != nil || len(body.Blogs) != 1 {
		return nil
	}
	return body.Blogs[0]
}

func httpGet(t *testing.T, u string) string {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var b bytes.Buffer
	b.ReadFrom(resp.Body)
	return b.String()
}

func checkArchive(t *testing.T, root string) {
	t.Helper()
	for _, p := range aip.Check(root) {
		t.Errorf("check: %v", p)
	}
	tmp, _ := os.ReadDir(filepath.Join(root, ".tmp"))
	for _, d := range tmp {
		t.Logf("left in .tmp (swept at next start): %s", d.Name())
	}
}

// TestDaemonEndToEnd runs the real binary on a schedule against a fixture
// blog, changes the blog, and expects exactly the change to be archived.
func TestDaemonEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes and crawls a blog several times")
	}
	t.Parallel()
	e := newEnv(t, "@every 2s")
	d := start(t, "run", "-config", e.config)
	waitFor(t, "every post and page archived", 240*time.Second, e.hasAll(t))
	waitFor(t, "a finished run", 120*time.Second, func() bool {
		st := e.status(t)
		return st != nil && st["outcome"] == "ok"
	})

	// healthz and metrics answer, and count what was archived.
	if body := httpGet(t, "http://"+e.listen+"/healthz"); body != "ok\n" {
		t.Errorf("/healthz = %q", body)
	}
	metrics := httpGet(t, "http://"+e.listen+"/metrics")
	for _, m := range []string{"blogharvest_entries_archived_total", `blogharvest_runs_total{outcome="ok"}`,
		`blogharvest_fetches_total{code="200"}`, `blogharvest_extractions_total{field="title"`} {
		if !strings.Contains(metrics, m) {
			t.Errorf("/metrics lacks %s", m)
		}
	}
	if strings.Contains(metrics, "blogharvest_entries_archived_total 0\n") {
		t.Error("/metrics counts no archived entry")
	}

	// status answers while the daemon runs, and a second daemon fails fast.
	out, err := exec.Command(binary, "status", "-config", e.config).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "sample") || !strings.Contains(string(out), "daemon at") {
		t.Errorf("status while running: %v\n%s", err, out)
	}
	t0 := time.Now()
	out, err = exec.Command(binary, "run", "-config", e.config).CombinedOutput()
	// 30 s bounds a hang on the lock, not the start of a binary on a loaded machine.
	if err == nil || !strings.Contains(string(out), "in use") || time.Since(t0) > 30*time.Second {
		t.Errorf("second daemon: err %v after %v, output:\n%s", err, time.Since(t0), out)
	}

	// Change the blog: a new post and a comment on an existing one.
	before := e.entries(t)
	tr := e.site.Truth(e.srv.URL)
	target := tr.Posts[2]
	slug := strings.Split(strings.Trim(strings.TrimPrefix(target.URL, e.srv.URL), "/"), "/")
	e.site.AddComment(slug[len(slug)-1], fixture.CommentSpec{Author: "Late Reader",
		Text: "A comment added during the test.", Date: time.Now()})
	added := e.site.AddPost(fixture.PostSpec{Title: "Written during the test", Date: time.Now()})
	newURL := e.srv.URL + added.Path
	waitFor(t, "the new post and the new version of the commented post", 180*time.Second, func() bool {
		got := e.entries(t)
		return len(got[newURL]) == 1 && len(got[target.URL]) == 2
	})
	time.Sleep(3 * time.Second) // one more scheduled run: it must change nothing
	after := e.entries(t)
	for u, vs := range after {
		if u == newURL || u == target.URL {
			continue
		}
		if len(vs) != len(before[u]) {
			t.Errorf("%s: versions %v, before the change %v: only the changed entries may get new versions", u, vs, before[u])
		}
	}
	if code := d.stop(t, syscall.SIGTERM, 90*time.Second); code != 0 {
		t.Errorf("exit code after SIGTERM = %d, want 0", code)
	}
	checkArchive(t, e.archive)
}

// TestDaemonSurvivesKill kills the daemon with SIGKILL at random moments
// and restarts it: no partial AIP, no entry lost, a missed run caught up once.
func TestDaemonSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes and crawls a blog several times")
	}
	t.Parallel()
	e := newEnv(t, "@every 3s")
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	for i := 0; i < 4; i++ {
		before := countBags(e.archive)
		d := start(t, "run", "-config", e.config)
		// Kill at a random moment while bags are written: counted from
		// this process's first bag (or the end of its run), not from its
		// start, which takes seconds on a loaded machine.
		waitFor(t, "a bag written or a run ended", 120*time.Second, func() bool {
			return countBags(e.archive) > before || strings.Contains(d.logs.String(), `"msg":"harvest finished"`)
		})
		time.Sleep(time.Duration(rng.IntN(1500)) * time.Millisecond)
		d.stop(t, syscall.SIGKILL, 10*time.Second)
		// Should a kill land before the daemon made the archive folder,
		// there is nothing to check, and nothing wrong.
		if _, err := os.Stat(e.archive); errors.Is(err, fs.ErrNotExist) {
			t.Logf("kill %d landed before the archive was created", i)
			continue
		}
		t.Logf("kill %d: %d bags published", i, countBags(e.archive))
		for _, p := range aip.Check(e.archive) {
			t.Errorf("after kill %d: %v", i, p)
		}
	}
	d := start(t, "run", "-config", e.config)
	waitFor(t, "every post and page archived after the kills", 240*time.Second, e.hasAll(t))
	for u, vs := range e.entries(t) {
		if len(vs) != 1 {
			t.Errorf("%s archived as %v: an unchanged entry must have one version", u, vs)
		}
	}
	waitFor(t, "a finished run", 60*time.Second, func() bool {
		st := e.status(t)
		return st != nil && st["outcome"] == "ok"
	})
	if code := d.stop(t, syscall.SIGTERM, 90*time.Second); code != 0 {
		t.Errorf("exit code after SIGTERM = %d, want 0", code)
	}
	// Down for three slots: on restart the blog runs once, not three times.
	time.Sleep(9 * time.Second)
	d = start(t, "run", "-config", e.config)
	// The caught-up run is counted from the daemon's own log: a run that
	// starts before the first one after the restart ended plus one second
	// is a second catch-up (the next slot is 3 s after it ended, and timers
	// fire late on a loaded machine, never early). Polling /status instead
	// can miss the gap between two runs under load.
	var started []time.Time
	waitFor(t, "the caught-up run", 120*time.Second, func() bool {
		var end time.Time
		started, end = runTimes(d.logs.String())
		return !end.IsZero()
	})
	_, end := runTimes(d.logs.String())
	early := 0
	for _, s := range started {
		if s.Before(end.Add(time.Second)) {
			early++
		}
	}
	if early != 1 {
		t.Errorf("%d runs started at the restart after three missed slots, want one catch-up run", early)
	}
	d.stop(t, syscall.SIGTERM, 90*time.Second)
	checkArchive(t, e.archive)
}

// runTimes reads a daemon's JSON log: when each run started, and when the
// first run ended (zero if none has).
func runTimes(logs string) (started []time.Time, firstEnd time.Time) {
	for _, line := range strings.Split(logs, "\n") {
		var l struct {
			Time time.Time `json:"time"`
			Msg  string    `json:"msg"`
		}
		if json.Unmarshal([]byte(line), &l) != nil {
			continue
		}
		switch l.Msg {
		case "harvest started":
			started = append(started, l.Time)
		case "harvest finished", "harvest failed":
			if firstEnd.IsZero() {
				firstEnd = l.Time
			}
		}
	}
	return started, firstEnd
}

// TestReloadKeepsOldConfigWhenInvalid sends SIGHUP with a broken config.
func TestReloadKeepsOldConfigWhenInvalid(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	t.Parallel()
	e := newEnv(t, "@every 1h")
	d := start(t, "run", "-config", e.config)
	waitFor(t, "status", 60*time.Second, func() bool { return e.status(t) != nil })
	good, _ := os.ReadFile(e.config)
	os.WriteFile(e.config, append(good, []byte("bogus_key: 1\n")...), 0o644)
	d.cmd.Process.Signal(syscall.SIGHUP)
	waitFor(t, "the reload to be rejected", 60*time.Second, func() bool {
		return strings.Contains(d.logs.String(), "config not reloaded") && strings.Contains(d.logs.String(), "bogus_key")
	})
	if e.status(t) == nil {
		t.Fatal("daemon stopped serving after a rejected reload")
	}
	y := strings.Replace(string(good), "blogs:\n", "blogs:\n  - id: second\n    url: "+e.srv.URL+"/\n    schedule: \"@every 1h\"\n    render: never\n", 1)
	os.WriteFile(e.config, []byte(y), 0o644)
	d.cmd.Process.Signal(syscall.SIGHUP)
	waitFor(t, "the second blog scheduled", 60*time.Second, func() bool {
		resp, err := http.Get("http://" + e.listen + "/status")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
			if strings.Contains(sc.Text(), `"second"`) {
				return true
			}
		}
		return false
	})
	// The log line says what changed, not just how many blogs there are
	// (the daemon may write it a moment after /status shows the blog).
	waitFor(t, "the reload's log line naming the blog added", 30*time.Second, func() bool {
		return strings.Contains(d.logs.String(), `"msg":"config reloaded","blogs":2,"added":"second","removed":"none"`)
	})
	if code := d.stop(t, syscall.SIGTERM, 90*time.Second); code != 0 {
		t.Errorf("exit code = %d", code)
	}

}
