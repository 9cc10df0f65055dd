package lifecycle_test

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// flakyServer serves a built site at one fixed loopback address, and can
// stop listening (connections refused), answer 503 to everything, and
// serve the site again at the same address.
type flakyServer struct {
	addr    string
	dir     string
	failing atomic.Bool // answer 503
	mu      sync.Mutex
	srv     *http.Server
}

func (f *flakyServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if f.failing.Load() {
		http.Error(w, "down for maintenance", http.StatusServiceUnavailable)
		return
	}
	http.FileServer(http.Dir(f.dir)).ServeHTTP(w, r)
}

// up listens at f.addr (again), trying for a while: the port closed a
// moment ago may not be free at once.
func (f *flakyServer) up(t *testing.T) {
	t.Helper()
	var ln net.Listener
	var err error
	for range 100 {
		if ln, err = net.Listen("tcp", f.addr); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: f, ReadHeaderTimeout: time.Minute}
	go srv.Serve(ln)
	f.mu.Lock()
	f.srv = srv
	f.mu.Unlock()
}

// down closes the listener and every connection: connections are refused.
func (f *flakyServer) down() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.srv != nil {
		f.srv.Close()
		f.srv = nil
	}
}

// status returns the blog's row of the daemon's /status, nil when it does
// not answer.
func status(listen string) map[string]any {
	resp, err := http.Get("http://" + listen + "/status")
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

// num reads a JSON number of a status row.
func num(st map[string]any, key string) int {
	f, _ := st[key].(float64)
	return int(f)
}

// logRun is one run of the daemon's log: when it started and ended, and
// whether it failed.
type logRun struct {
	start, end time.Time
	failed     bool
	err        string
}

// runsOf reads the runs of the daemon's JSON log, in order.
func runsOf(logs string) []logRun {
	var out []logRun
	sc := bufio.NewScanner(strings.NewReader(logs))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var l struct {
			Time time.Time
			Msg  string
			Err  string
		}
		if json.Unmarshal(sc.Bytes(), &l) != nil {
			continue
		}
		switch l.Msg {
		case "harvest started":
			out = append(out, logRun{start: l.Time})
		case "harvest failed", "harvest finished":
			if n := len(out); n > 0 && out[n-1].end.IsZero() {
				out[n-1].end, out[n-1].failed, out[n-1].err = l.Time, l.Msg == "harvest failed", l.Err
			}
		}
	}
	return out
}

// tree lists the files under dir with their sizes.
func tree(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		out = append(out, fmt.Sprintf("%s %d", rel, info.Size()))
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestBlogDown: the daemon (run, "@every 2s", down_after 1s) archives a
// Pelican blog; the blog then refuses connections, then answers 503 to
// everything, then comes back. While it is away /status, the status page
// and the status command say it is down since its first failed run, with
// its last answer ("connection refused", then "HTTP 503"); the runs back
// off (each wait at least schedule.NextWhileDown's for the failures so
// far, read from the daemon's log); nothing is written to the archive. The
// first run after its return succeeds and the blog is healthy again,
// by itself.
func TestBlogDown(t *testing.T) {
	needEngines(t, "pelican")
	t.Parallel()
	dir := t.TempDir()
	f := &flakyServer{addr: daemontest.FreeAddr(t)}
	base := "http://" + f.addr
	f.dir = buildPelican(t, makePosts(4), base, "simple")
	f.up(t)
	t.Cleanup(f.down)
	archive, listen := filepath.Join(dir, "archive"), daemontest.FreeAddr(t)
	cfg := filepath.Join(dir, "blogs.yaml")
	y := fmt.Sprintf(`archive: %s
state: %s
listen: %s
log: {format: json, level: info}
blogs:
  - id: towpath
    url: %s/
    schedule: "@every 2s"
    down_after: 1s
    delay: 1ms
    render: never
    requisites: none
`, archive, filepath.Join(dir, "state", "schedule.db"), listen, base)
	if err := os.WriteFile(cfg, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	d := daemontest.Start(t, "run", "-config", cfg)
	daemontest.WaitFor(t, "the blog archived", 3*time.Minute, func() bool {
		st := status(listen)
		return st != nil && st["outcome"] == "ok" && st["health"] == "ok" && len(entries(t, archive)) == 4
	})
	before := tree(t, filepath.Join(archive, "towpath"))

	f.down()
	var down map[string]any
	daemontest.WaitFor(t, "the blog down (connection refused)", 3*time.Minute, func() bool {
		down = status(listen)
		return down != nil && down["health"] == "down"
	})
	since, _ := down["failing_since"].(string)
	if answer, _ := down["last_answer"].(string); !strings.Contains(answer, "connection refused") || since == "" {
		t.Errorf("/status of the blog down: since %q, last answer %q; want a time and connection refused", since, answer)
	}
	page := daemontest.HTTPGet(t, "http://"+listen+"/")
	if !strings.Contains(page, `data-field="health" class="down">down<`) || !strings.Contains(page, "connection refused") {
		t.Errorf("the status page does not show the blog down with its last answer")
	}
	out, _ := exec.Command(daemontest.Binary(), "status", "-config", cfg).CombinedOutput()
	if !strings.Contains(string(out), "down since") {
		t.Errorf("the status command does not say the blog is down:\n%s", out)
	}

	f.failing.Store(true)
	f.up(t)
	daemontest.WaitFor(t, "the blog down (503)", 3*time.Minute, func() bool {
		st := status(listen)
		answer, _ := st["last_answer"].(string)
		return st != nil && strings.Contains(answer, "HTTP 503")
	})
	st := status(listen)
	if st["health"] != "down" || st["failing_since"] != since {
		t.Errorf("after a 503: health %v, since %v; want down since %s", st["health"], st["failing_since"], since)
	}
	failures := num(st, "consecutive_failures")
	if after := tree(t, filepath.Join(archive, "towpath")); !slices.Equal(before, after) {
		t.Errorf("the runs of the blog down wrote to the archive: %d files before, %d after", len(before), len(after))
	}

	f.failing.Store(false)
	daemontest.WaitFor(t, "the blog healthy again", 3*time.Minute, func() bool {
		st := status(listen)
		return st != nil && st["health"] == "ok" && st["outcome"] == "ok" && num(st, "consecutive_failures") == 0
	})
	if st := status(listen); st["failing_since"] != nil || st["last_answer"] != nil {
		t.Errorf("healthy again, /status still says since %v, answer %v", st["failing_since"], st["last_answer"])
	}
	if after := tree(t, filepath.Join(archive, "towpath")); !slices.Equal(before, after) {
		t.Errorf("the blog came back unchanged, yet the archive changed: %d files before, %d after", len(before), len(after))
	}
	if code := d.Stop(t, syscall.SIGTERM, 90*time.Second); code != 0 {
		t.Errorf("exit code after SIGTERM = %d", code)
	}

	// The waits between failed runs: each at least the backoff for the
	// failures so far (2 s, 4 s, 8 s, … for "@every 2s"), read from the
	// log; the wall clock can only make them longer.
	runs := runsOf(d.Logs.String())
	n := 0
	for i := 0; i+1 < len(runs); i++ {
		if !runs[i].failed {
			continue
		}
		n++
		wait := 2 * time.Second << (n - 1)
		if gap := runs[i+1].start.Sub(runs[i].end); gap < wait-50*time.Millisecond {
			t.Errorf("failed run %d (%s): the next run started %v after it ended; want at least %v", n, runs[i].err, gap, wait)
		}
	}
	if n < 2 || n != failures {
		t.Errorf("%d failed runs in the log, /status counted %d: want 2 or more (refused, 503), the same", n, failures)
	}
	daemontest.CheckArchive(t, archive)
	t.Logf("blog down: %d failed runs, %d runs in all, since %s", n, len(runs), since)
}
