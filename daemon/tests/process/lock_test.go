package process_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/daemon"
	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// writers returns the command lines of every command that writes into
// e's archive: each must take the archive's lock.
func writers(e *daemontest.Env) [][]string {
	return [][]string{
		{"run", "-config", e.Config},
		{"crawl", "-config", e.Config},
		{"crawl", "-config", e.Config, "sample"},
		{"crawl", "-url", e.Srv.URL + "/", "-out", e.Archive, "-id", "sample", "-delay", "1ms", "-render", "never"},
		{"demo", "-out", e.Archive},
	}
}

// lockMessage is what a writer refused by the archive's lock prints.
func lockMessage(archive string, pid int) string {
	return "archive " + archive + " is in use by process " + strconv.Itoa(pid)
}

// startDaemon starts `run` on e and waits until it serves /status (it
// holds the archive's lock from before then).
func startDaemon(t *testing.T, e *daemontest.Env) *daemontest.Proc {
	t.Helper()
	d := daemontest.Start(t, "run", "-config", e.Config)
	daemontest.WaitFor(t, "the daemon to serve /status", 120*time.Second, func() bool { return e.Status(t) != nil })
	return d
}

// TestSecondWriterLeavesTmpAlone: while a daemon runs, every other writing
// command (run, crawl -config, crawl -url -out, demo -out) on its archive
// fails with exit code 1 and a message naming the daemon's PID, and leaves
// the daemon's half-built bag in .tmp alone.
func TestSecondWriterLeavesTmpAlone(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	t.Parallel()
	e := daemontest.NewEnv(t, "@every 1h")
	d := startDaemon(t, e)
	half := filepath.Join(e.Archive, aip.TmpDir, "sample-half-v1-123", "data", "METS.xml")
	if err := os.MkdirAll(filepath.Dir(half), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(half, []byte("<half"), 0o644)
	for _, args := range writers(e) {
		code, stdout, stderr := daemontest.Run(t, args...)
		if code != daemon.ExitFailure || !strings.Contains(stderr, lockMessage(e.Archive, d.Cmd.Process.Pid)) {
			t.Errorf("%v: exit %d, want %d and the lock message\nstdout: %s\nstderr: %s", args[:2], code,
				daemon.ExitFailure, stdout, stderr)
		}
		if _, err := os.Stat(half); err != nil {
			t.Fatalf("%v touched the daemon's .tmp: %v", args[:2], err)
		}
	}
	if code := d.Stop(t, syscall.SIGTERM, 2*time.Minute); code != 0 {
		t.Errorf("daemon exit code %d", code)
	}
}

// TestOneWriterPerArchive runs a daemon harvesting a blog that changes all
// the time, so it writes bags on every run (every second), and starts 20
// other writing processes on its archive meanwhile (run, crawl -config,
// crawl -url -out, demo -out): each fails fast with exit code 1 and the lock
// message naming the daemon's PID, while the daemon goes on writing. After
// the daemon's shutdown the archive checks clean and .tmp is empty: nothing
// published is incomplete.
func TestOneWriterPerArchive(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes and crawls a blog many times")
	}
	t.Parallel()
	e := daemontest.NewEnv(t, "@every 1s")
	d := startDaemon(t, e)
	daemontest.WaitFor(t, "every post and page archived", 90*time.Second, e.HasAll(t))
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); changeBlog(e.Site, stop) }()
	before := countBags(e.Archive)

	writers := writers(e)
	var others []*daemontest.Proc
	for i := range 20 {
		others = append(others, daemontest.Start(t, writers[i%len(writers)]...))
		time.Sleep(250 * time.Millisecond)
	}
	want := lockMessage(e.Archive, d.Cmd.Process.Pid)
	for i, p := range others {
		select {
		case <-p.Done:
		case <-time.After(3 * time.Minute):
			t.Fatalf("%v still running: a second writer must fail at once", p.Cmd.Args[1:3])
		}
		if code := p.Cmd.ProcessState.ExitCode(); code != daemon.ExitFailure || !strings.Contains(p.Logs.String(), want) {
			t.Errorf("writer %d %v: exit %d, want %d and %q; output:\n%s", i, p.Cmd.Args[1:3], code,
				daemon.ExitFailure, want, daemontest.LastLines(p.Logs.String(), 10))
		}
	}
	after := countBags(e.Archive)
	close(stop)
	wg.Wait()
	if after <= before {
		t.Errorf("the daemon wrote no bag while the others tried (%d bags before, %d after)", before, after)
	}
	if logs := d.Logs.String(); strings.Contains(logs, "harvest failed") { // before SIGTERM cancels a run
		t.Errorf("a daemon harvest failed while the others tried:\n%s", daemontest.LastLines(logs, 20))
	}
	if code := d.Stop(t, syscall.SIGTERM, 2*time.Minute); code != 0 {
		t.Errorf("daemon exit code %d", code)
	}
	for _, p := range aip.Check(e.Archive) {
		t.Errorf("check: %v", p)
	}
	if n := countEntriesIn(filepath.Join(e.Archive, aip.TmpDir)); n > 0 {
		t.Errorf(".tmp holds %d entries after a clean shutdown", n)
	}
	t.Logf("%d bags before the 20 writers, %d after", before, after)
}

// changeBlog adds a post or a comment every quarter second until stop.
func changeBlog(site *fixture.Site, stop <-chan struct{}) {
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		if i%2 == 0 {
			site.AddPost(fixture.PostSpec{Title: "Written while others try " + strconv.Itoa(i), Date: time.Now()})
			continue
		}
		posts := site.Posts()
		site.AddComment(posts[i%len(posts)].Slug, fixture.CommentSpec{Author: "Reader", Text: "Comment " + strconv.Itoa(i),
			Date: time.Now()})
	}
}

// countBags counts the published bags of archive.
func countBags(archive string) int {
	m, _ := filepath.Glob(filepath.Join(archive, "*", "entries", "*", "*", "v*", "bagit.txt"))
	b, _ := filepath.Glob(filepath.Join(archive, "*", "blog", "v*", "bagit.txt"))
	return len(m) + len(b)
}

func countEntriesIn(dir string) int {
	ents, _ := os.ReadDir(dir)
	return len(ents)
}
