package process_test

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// startLimited is start with the child's open-file limit (soft and hard)
// set to nofile, as `ulimit -n` does.
func startLimited(t *testing.T, nofile int, args ...string) *daemontest.Proc {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh to lower the open-file limit with")
	}
	script := fmt.Sprintf(`ulimit -n %d && exec "$0" "$@"`, nofile)
	return daemontest.StartCmd(t, exec.Command(sh, append([]string{"-c", script, daemontest.Binary()}, args...)...), args)
}

// holdIdle opens a connection to addr, asks for /status on it and keeps it
// open, idle, as a keep-alive client does; nil if no answer came.
func holdIdle(addr string) net.Conn {
	conn, err := net.DialTimeout("tcp", addr, 3*time.Second)
	if err != nil {
		return nil
	}
	conn.SetDeadline(time.Now().Add(3 * time.Second))
	io.WriteString(conn, "GET /status HTTP/1.1\r\nHost: status\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		conn.Close()
		return nil
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return conn
}

// TestIdleStatusClientsDoNotStarveHarvests reproduces finding 9: many idle
// keep-alive connections to /status under a low open-file limit. The
// server must close idle connections beyond its cap, keep answering
// /healthz, and the harvest started meanwhile must not run out of file
// descriptors.
func TestIdleStatusClientsDoNotStarveHarvests(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	t.Parallel()
	const limit, clients = 150, 200
	e := daemontest.NewEnv(t, "@every 1h")
	d := startLimited(t, limit, "run", "-config", e.Config)
	daemontest.WaitFor(t, "the first harvest", 240*time.Second, func() bool {
		st := e.Status(t)
		return st != nil && st["outcome"] != nil && st["outcome"] != "running"
	})
	var mu sync.Mutex
	var conns []net.Conn
	var wg sync.WaitGroup
	sem := make(chan struct{}, 50)
	for range clients {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if c := holdIdle(e.Listen); c != nil {
				mu.Lock()
				conns = append(conns, c)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	t.Logf("%d of %d clients answered", len(conns), clients)

	good, _ := os.ReadFile(e.Config)
	y := strings.Replace(string(good), "blogs:\n", "blogs:\n  - id: second\n    url: "+e.Srv.URL+"/\n    schedule: \"@every 1h\"\n    delay: 1ms\n    render: never\n", 1)
	os.WriteFile(e.Config, []byte(y), 0o644)
	d.Cmd.Process.Signal(syscall.SIGHUP)
	ended := func(msg string) bool {
		for _, line := range strings.Split(d.Logs.String(), "\n") {
			if strings.Contains(line, `"blog":"second"`) && strings.Contains(line, msg) {
				return true
			}
		}
		return false
	}
	daemontest.WaitFor(t, "the second harvest to end", 240*time.Second, func() bool { return ended("harvest finished") || ended("harvest failed") })
	if !ended("harvest finished") || strings.Contains(d.Logs.String(), "too many open files") {
		t.Errorf("the harvest did not finish cleanly with %d idle status clients (limit %d open files)", clients, limit)
	}
	closed := 0
	for _, c := range conns {
		c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
		if _, err := c.Read(make([]byte, 1)); err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
			closed++
		}
	}
	if open := len(conns) - closed; open > 64 {
		t.Errorf("%d idle connections still open, want at most the cap of 64", open)
	}
	daemontest.HTTPGet(t, "http://"+e.Listen+"/healthz")
	if code := d.Stop(t, syscall.SIGTERM, 2*time.Minute); code != 0 {
		t.Errorf("exit code = %d", code)
	}
}

// TestReloadMovesListenAndRefusesArchiveAndState checks finding 10's
// SIGHUP: a changed listen moves the status server; a changed archive or
// state is refused with a clear line while the rest of the config applies.
func TestReloadMovesListenAndRefusesArchiveAndState(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	t.Parallel()
	e := daemontest.NewEnv(t, "@every 1h")
	d := daemontest.Start(t, "run", "-config", e.Config)
	daemontest.WaitFor(t, "status", 120*time.Second, func() bool { return e.Status(t) != nil })
	good, _ := os.ReadFile(e.Config)
	oldListen, newListen := e.Listen, daemontest.FreeAddr(t)
	newArchive, newState := e.Archive+"-moved", filepath.Join(e.Dir, "state-moved", "schedule.db")
	y := strings.NewReplacer("listen: "+oldListen, "listen: "+newListen, "archive: "+e.Archive, "archive: "+newArchive,
		"state: "+filepath.Join(e.Dir, "state", "schedule.db"), "state: "+newState).Replace(string(good))
	y = strings.Replace(y, "blogs:\n", "blogs:\n  - id: second\n    url: "+e.Srv.URL+"/\n    schedule: \"@every 1h\"\n    render: never\n", 1)
	if y == string(good) || !strings.Contains(y, newState) {
		t.Fatal("config not rewritten")
	}
	os.WriteFile(e.Config, []byte(y), 0o644)
	d.Cmd.Process.Signal(syscall.SIGHUP)
	e.Listen = newListen
	daemontest.WaitFor(t, "status on the new listen address", 120*time.Second, func() bool {
		resp, err := http.Get("http://" + newListen + "/status")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return strings.Contains(string(b), `"second"`)
	})
	if c, err := net.DialTimeout("tcp", oldListen, time.Second); err == nil {
		c.Close()
		t.Errorf("the old listen address %s still answers", oldListen)
	}
	logs := d.Logs.String()
	for _, key := range []string{"archive", "state"} {
		if !strings.Contains(logs, key+" changed: restart the daemon to apply; keeping the old value") {
			t.Errorf("no line says the %s change needs a restart", key)
		}
	}
	for _, p := range []string{newArchive, newState} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s created: the refused value was used", p)
		}
	}
	if code := d.Stop(t, syscall.SIGTERM, 2*time.Minute); code != 0 {
		t.Errorf("exit code = %d", code)
	}
}
