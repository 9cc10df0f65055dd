package schedule_test

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/schedule"
)

// holdEnv names the state file TestHelperHoldStateFile holds when the test
// binary is re-run as a second process.
const holdEnv = "SCHEDULE_TEST_HOLD_STATE"

// TestHelperHoldStateFile is not a test: run as a child process by
// holdInOtherProcess, it opens the state file (read-only if the env value
// ends in ",ro"), prints "ready" and holds it until stdin closes.
func TestHelperHoldStateFile(t *testing.T) {
	spec := os.Getenv(holdEnv)
	if spec == "" {
		t.Skip("helper process only")
	}
	path, ro := strings.CutSuffix(spec, ",ro")
	open := schedule.Open
	if ro {
		open = schedule.OpenReadOnly
	}
	s, err := open(path)
	if err != nil {
		os.Stdout.WriteString("error: " + err.Error() + "\n")
		os.Exit(1)
	}
	os.Stdout.WriteString("ready\n")
	bufio.NewReader(os.Stdin).ReadString('\n')
	s.Close()
	os.Exit(0)
}

// holdInOtherProcess starts this test binary as a second process that holds
// path open until the test ends.
func holdInOtherProcess(t *testing.T, path string, readOnly bool) {
	t.Helper()
	env := holdEnv + "=" + path
	if readOnly {
		env += ",ro"
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHoldStateFile$")
	cmd.Env = append(os.Environ(), env)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Wait() })
	line, _ := bufio.NewReader(stdout).ReadString('\n')
	if line != "ready\n" {
		t.Fatalf("helper process: %q", line)
	}
}

// TestSecondDaemonFailsFast: a second process opening the state file for
// writing gets ErrInUse with the file's name after about LockTimeout.
func TestSecondDaemonFailsFast(t *testing.T) {
	path := filepath.Join(t.TempDir(), "schedule.db")
	holdInOtherProcess(t, path, false)
	start := time.Now()
	s, err := schedule.Open(path)
	elapsed := time.Since(start)
	if err == nil {
		s.Close()
		t.Fatal("second Open succeeded while another process holds the file")
	}
	if !errors.Is(err, schedule.ErrInUse) || !strings.Contains(err.Error(), path) ||
		!strings.Contains(err.Error(), "is in use by another blogharvest process") {
		t.Errorf("error = %q, want ErrInUse naming %s", err, path)
	}
	// A sanity bound, not a speed target: the call must not hang.
	if elapsed > 10*schedule.LockTimeout {
		t.Errorf("second Open took %v", elapsed)
	}
	t.Logf("second Open failed after %v: %v", elapsed.Round(time.Millisecond), err)
}

// TestReadOnlyWhileDaemonRuns documents what `status` can do: bbolt's
// read-only open takes a shared flock, which the daemon's exclusive one
// blocks, so it fails with ErrInUse; status must ask the daemon over HTTP.
func TestReadOnlyWhileDaemonRuns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "schedule.db")
	holdInOtherProcess(t, path, false)
	s, err := schedule.OpenReadOnly(path)
	if err == nil {
		s.Close()
		t.Fatal("OpenReadOnly succeeded while a daemon holds the file")
	}
	if !errors.Is(err, schedule.ErrInUse) || !strings.Contains(err.Error(), path) {
		t.Errorf("error = %q, want ErrInUse naming the file", err)
	}
}

// TestReadersInOtherProcesses: a status reader in one process does not stop
// another reader, but does keep a daemon from starting until it closes.
func TestReadersInOtherProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "schedule.db")
	s, err := schedule.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	holdInOtherProcess(t, path, true)
	r, err := schedule.OpenReadOnly(path)
	if err != nil {
		t.Fatalf("second reader: %v", err)
	}
	r.Close()
	if _, err := schedule.Open(path); !errors.Is(err, schedule.ErrInUse) {
		t.Errorf("Open while another process reads: %v, want ErrInUse", err)
	}
}
