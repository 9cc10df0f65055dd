package daemontest

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/daemon"
	"github.com/blogharvest/blogharvest/internal/s3test"
	"github.com/blogharvest/blogharvest/internal/toolskip"
)

// binary is the blogharvest command Main built.
var binary string

// Main runs a process-test binary's tests: it builds the blogharvest
// command once (from the module's cmd/blogharvest, found from the
// current folder up), runs four parallel tests at once unless -parallel
// is given, runs m through toolskip.Main, and removes what it and the
// shared fixtures made. It returns the exit code for os.Exit.
func Main(m *testing.M) int {
	flag.Parse()
	if f := flag.Lookup("test.fuzzworker"); f != nil && f.Value.String() == "true" {
		return m.Run() // a fuzzing worker runs only the fuzz target: no binary needed
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
	defer os.RemoveAll(dir)
	root, err := moduleRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	binary = filepath.Join(dir, "blogharvest")
	build := exec.Command("go", "build", "-o", binary, "./cmd/blogharvest")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building blogharvest: %v\n%s", err, out)
		return 1
	}
	code := toolskip.Main(m)
	s3test.Stop()
	removeDemos()
	return code
}

// moduleRoot is the folder of the go.mod above the current folder.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above the test's folder")
		}
		dir = parent
	}
}

// Binary is the path of the blogharvest command Main built.
func Binary() string { return binary }

// SyncBuffer is a bytes.Buffer safe to read while a process writes to it.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String returns what was written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// Proc is a running blogharvest process.
type Proc struct {
	Cmd  *exec.Cmd
	Logs *SyncBuffer // its standard output and error
	Done chan error  // its exit, once
}

// Start runs the binary with args until the test ends.
func Start(t testing.TB, args ...string) *Proc {
	t.Helper()
	return StartEnv(t, nil, args...)
}

// StartEnv is Start with an environment; nil inherits the test's.
func StartEnv(t testing.TB, env []string, args ...string) *Proc {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = env
	return StartCmd(t, cmd, args)
}

// StartCmd starts cmd, a run of the binary with args, collecting its output
// and killing it when the test ends (showing its last lines if it failed).
func StartCmd(t testing.TB, cmd *exec.Cmd, args []string) *Proc {
	t.Helper()
	p := &Proc{Cmd: cmd, Logs: &SyncBuffer{}, Done: make(chan error, 1)}
	p.Cmd.Stdout, p.Cmd.Stderr = p.Logs, p.Logs
	if err := p.Cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.Done <- p.Cmd.Wait() }()
	t.Cleanup(func() {
		p.Cmd.Process.Kill()
		if t.Failed() {
			t.Logf("logs of %v:\n%s", args, LastLines(p.Logs.String(), 40))
		}
	})
	return p
}

// Stop sends sig and waits for the exit code.
func (p *Proc) Stop(t testing.TB, sig syscall.Signal, within time.Duration) int {
	t.Helper()
	p.Cmd.Process.Signal(sig)
	select {
	case <-p.Done:
		return p.Cmd.ProcessState.ExitCode()
	case <-time.After(within):
		t.Fatalf("no exit within %v of %v", within, sig)
		return -1
	}
}

// LastLines is the last n lines of s.
func LastLines(s string, n int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// FreeAddr is a loopback address free a moment ago, for a process the
// test starts to listen on. Its port is drawn below the kernel's
// ephemeral range (ip_local_port_range): a port from that range (what
// listening on port 0 gives) may be taken meanwhile as the local port of
// any outgoing connection, as happened to a daemon's status port while
// the parallel tests ran ("bind: address already in use").
//
// A port is handed out once across every test process on the machine,
// not only this one: go test runs packages as parallel processes, and two
// of them once drew the same port in the moment between one's check and
// its daemon's bind (TestRedesign, CI). The reservation is an abstract
// unix socket named after the port, held until the process exits (the
// kernel frees it then, even after a kill); where abstract sockets do not
// exist the reservation is this process's alone.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln := reserve(t)
	defer ln.Close()
	return ln.Addr().String()
}

// Listen is a loopback listener on a port FreeAddr would give, held open:
// for a server the test runs itself, where nothing must come between
// choosing the port and listening on it.
func Listen(t testing.TB) net.Listener {
	t.Helper()
	ln := reserve(t)
	t.Cleanup(func() { ln.Close() })
	return ln
}

// reserve listens on a reserved loopback port below the ephemeral range,
// or on port 0 where there is no room below it.
func reserve(t testing.TB) net.Listener {
	t.Helper()
	low := 32768
	if data, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(data)); len(f) == 2 {
			if n, err := strconv.Atoi(f[0]); err == nil {
				low = n
			}
		}
	}
	handedOut.Lock()
	defer handedOut.Unlock()
	for range 1000 {
		if low <= 12000 {
			break // no room below the ephemeral range: take what port 0 gives
		}
		port := 10000 + rand.IntN(low-10000)
		if _, ok := handedOut.ports[port]; ok {
			continue
		}
		var hold net.Listener
		if runtime.GOOS == "linux" { // elsewhere "@…" would be a socket file in the working folder
			var err error
			if hold, err = net.Listen("unix", "@blogharvest-test-port-"+strconv.Itoa(port)); err != nil {
				continue // another test process holds it
			}
		}
		ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
		if err != nil {
			if hold != nil {
				hold.Close()
			}
			continue
		}
		handedOut.ports[port] = hold
		return ln
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return ln
}

// handedOut holds the ports FreeAddr and Listen gave, each with its
// reservation (nil where there is none).
var handedOut = struct {
	sync.Mutex
	ports map[int]net.Listener
}{ports: map[int]net.Listener{}}

// FreePort is FreeAddr's port.
func FreePort(t testing.TB) int {
	t.Helper()
	_, port, _ := net.SplitHostPort(FreeAddr(t))
	n, _ := strconv.Atoi(port)
	return n
}

// WaitFor polls cond until it holds or the deadline passes.
func WaitFor(t testing.TB, what string, within time.Duration, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out after %v waiting for %s", within, what)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// HTTPGet returns the body at u.
func HTTPGet(t testing.TB, u string) string {
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

// CheckArchive fails the test on any problem aip.Check finds under root.
func CheckArchive(t testing.TB, root string) {
	t.Helper()
	for _, p := range aip.Check(root) {
		t.Errorf("check: %v", p)
	}
	tmp, _ := os.ReadDir(filepath.Join(root, ".tmp"))
	for _, d := range tmp {
		t.Logf("left in .tmp (swept at next start): %s", d.Name())
	}
}

// Run calls daemon.Main in-process and returns the exit code, standard
// output and standard error.
func Run(t testing.TB, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := daemon.Main(context.Background(), args, daemon.IO{Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}
