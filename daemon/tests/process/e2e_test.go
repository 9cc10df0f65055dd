package process_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// TestDaemonEndToEnd runs the real binary on a schedule against a fixture
// blog, changes the blog, and expects exactly the change to be archived.
func TestDaemonEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes and crawls a blog several times")
	}
	t.Parallel()
	e := daemontest.NewEnv(t, "@every 2s")
	d := daemontest.Start(t, "run", "-config", e.Config)
	daemontest.WaitFor(t, "every post and page archived", 240*time.Second, e.HasAll(t))
	daemontest.WaitFor(t, "a finished run", 120*time.Second, func() bool {
		st := e.Status(t)
		return st != nil && st["outcome"] == "ok"
	})

	// healthz and metrics answer, and count what was archived.
	if body := daemontest.HTTPGet(t, "http://"+e.Listen+"/healthz"); body != "ok\n" {
		t.Errorf("/healthz = %q", body)
	}
	metrics := daemontest.HTTPGet(t, "http://"+e.Listen+"/metrics")
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
	out, err := exec.Command(daemontest.Binary(), "status", "-config", e.Config).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "sample") || !strings.Contains(string(out), "daemon at") {
		t.Errorf("status while running: %v\n%s", err, out)
	}
	// The context bounds a hang on the lock (the second daemon then killed,
	// its output without "in use"), not the start of a binary on a loaded
	// machine: no wall-clock assertion.
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	out, err = exec.CommandContext(ctx, daemontest.Binary(), "run", "-config", e.Config).CombinedOutput()
	cancel()
	if err == nil || !strings.Contains(string(out), "in use") {
		t.Errorf("second daemon: err %v, output:\n%s", err, out)
	}

	// Change the blog: a new post and a comment on an existing one.
	before := e.Entries(t)
	tr := e.Site.Truth(e.Srv.URL)
	target := tr.Posts[2]
	slug := strings.Split(strings.Trim(strings.TrimPrefix(target.URL, e.Srv.URL), "/"), "/")
	e.Site.AddComment(slug[len(slug)-1], fixture.CommentSpec{Author: "Late Reader",
		Text: "A comment added during the test.", Date: time.Now()})
	added := e.Site.AddPost(fixture.PostSpec{Title: "Written during the test", Date: time.Now()})
	newURL := e.Srv.URL + added.Path
	daemontest.WaitFor(t, "the new post and the new version of the commented post", 180*time.Second, func() bool {
		got := e.Entries(t)
		return len(got[newURL]) == 1 && len(got[target.URL]) == 2
	})
	time.Sleep(3 * time.Second) // one more scheduled run: it must change nothing
	after := e.Entries(t)
	for u, vs := range after {
		if u == newURL || u == target.URL {
			continue
		}
		if len(vs) != len(before[u]) {
			t.Errorf("%s: versions %v, before the change %v: only the changed entries may get new versions", u, vs, before[u])
		}
	}
	if code := d.Stop(t, syscall.SIGTERM, 90*time.Second); code != 0 {
		t.Errorf("exit code after SIGTERM = %d, want 0", code)
	}
	daemontest.CheckArchive(t, e.Archive)
}

// TestDaemonSurvivesKill kills the daemon with SIGKILL at random moments
// and restarts it: no partial AIP, no entry lost, a missed run caught up once.
func TestDaemonSurvivesKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes and crawls a blog several times")
	}
	t.Parallel()
	e := daemontest.NewEnv(t, "@every 3s")
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	for i := 0; i < 4; i++ {
		before := countBags(e.Archive)
		d := daemontest.Start(t, "run", "-config", e.Config)
		// Kill at a random moment while bags are written: counted from
		// this process's first bag (or the end of its run), not from its
		// start, which takes seconds on a loaded machine.
		daemontest.WaitFor(t, "a bag written or a run ended", 120*time.Second, func() bool {
			return countBags(e.Archive) > before || strings.Contains(d.Logs.String(), `"msg":"harvest finished"`)
		})
		time.Sleep(time.Duration(rng.IntN(1500)) * time.Millisecond)
		d.Stop(t, syscall.SIGKILL, 2*time.Minute)
		// Should a kill land before the daemon made the archive folder,
		// there is nothing to check, and nothing wrong.
		if _, err := os.Stat(e.Archive); errors.Is(err, fs.ErrNotExist) {
			t.Logf("kill %d landed before the archive was created", i)
			continue
		}
		t.Logf("kill %d: %d bags published", i, countBags(e.Archive))
		for _, p := range aip.Check(e.Archive) {
			t.Errorf("after kill %d: %v", i, p)
		}
	}
	d := daemontest.Start(t, "run", "-config", e.Config)
	daemontest.WaitFor(t, "every post and page archived after the kills", 240*time.Second, e.HasAll(t))
	for u, vs := range e.Entries(t) {
		if len(vs) != 1 {
			t.Errorf("%s archived as %v: an unchanged entry must have one version", u, vs)
		}
	}
	daemontest.WaitFor(t, "a finished run", 60*time.Second, func() bool {
		st := e.Status(t)
		return st != nil && st["outcome"] == "ok"
	})
	if code := d.Stop(t, syscall.SIGTERM, 90*time.Second); code != 0 {
		t.Errorf("exit code after SIGTERM = %d, want 0", code)
	}
	// Down for three slots: on restart the blog runs once, not three times.
	time.Sleep(9 * time.Second)
	d = daemontest.Start(t, "run", "-config", e.Config)
	// The caught-up run is counted from the daemon's own log: a run that
	// starts before the first one after the restart ended plus one second
	// is a second catch-up (the next slot is 3 s after it ended, and timers
	// fire late on a loaded machine, never early). Polling /status instead
	// can miss the gap between two runs under load.
	var started []time.Time
	daemontest.WaitFor(t, "the caught-up run", 120*time.Second, func() bool {
		var end time.Time
		started, end = runTimes(d.Logs.String())
		return !end.IsZero()
	})
	_, end := runTimes(d.Logs.String())
	early := 0
	for _, s := range started {
		if s.Before(end.Add(time.Second)) {
			early++
		}
	}
	if early != 1 {
		t.Errorf("%d runs started at the restart after three missed slots, want one catch-up run", early)
	}
	d.Stop(t, syscall.SIGTERM, 90*time.Second)
	daemontest.CheckArchive(t, e.Archive)
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
	e := daemontest.NewEnv(t, "@every 1h")
	d := daemontest.Start(t, "run", "-config", e.Config)
	daemontest.WaitFor(t, "status", 60*time.Second, func() bool { return e.Status(t) != nil })
	good, _ := os.ReadFile(e.Config)
	os.WriteFile(e.Config, append(good, []byte("bogus_key: 1\n")...), 0o644)
	d.Cmd.Process.Signal(syscall.SIGHUP)
	daemontest.WaitFor(t, "the reload to be rejected", 60*time.Second, func() bool {
		return strings.Contains(d.Logs.String(), "config not reloaded") && strings.Contains(d.Logs.String(), "bogus_key")
	})
	if e.Status(t) == nil {
		t.Fatal("daemon stopped serving after a rejected reload")
	}
	y := strings.Replace(string(good), "blogs:\n", "blogs:\n  - id: second\n    url: "+e.Srv.URL+"/\n    schedule: \"@every 1h\"\n    render: never\n", 1)
	os.WriteFile(e.Config, []byte(y), 0o644)
	d.Cmd.Process.Signal(syscall.SIGHUP)
	daemontest.WaitFor(t, "the second blog scheduled", 60*time.Second, func() bool {
		resp, err := http.Get("http://" + e.Listen + "/status")
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
	daemontest.WaitFor(t, "the reload's log line naming the blog added", 120*time.Second, func() bool {
		return strings.Contains(d.Logs.String(), `"msg":"config reloaded","blogs":2,"added":"second","removed":"none"`)
	})
	if code := d.Stop(t, syscall.SIGTERM, 90*time.Second); code != 0 {
		t.Errorf("exit code = %d", code)
	}

}
