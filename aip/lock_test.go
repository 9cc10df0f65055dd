package aip_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
)

// lockEnv names the archive a re-executed test binary locks (TestLockChild).
const lockEnv = "BLOGHARVEST_AIP_LOCK_ROOT"

// TestLockChild is the child of the lock tests: it locks the archive,
// prints "locked" and holds the lock until its stdin closes or it is
// killed. It does nothing in a normal test run.
func TestLockChild(t *testing.T) {
	root := os.Getenv(lockEnv)
	if root == "" {
		t.Skip("only run as a lock test's child")
	}
	l, err := aip.LockArchive(root)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	fmt.Println("locked")
	bufio.NewReader(os.Stdin).ReadString('\n')
}

// lockInChild starts a child process holding root's lock and returns it
// once the lock is taken.
func lockInChild(t *testing.T, root string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockChild$")
	cmd.Env = append(os.Environ(), lockEnv+"="+root)
	stdin, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(out)
	for sc.Scan() && sc.Text() != "locked" {
	}
	if sc.Err() != nil || sc.Text() != "locked" {
		t.Fatalf("lock child did not lock %s", root)
	}
	return cmd
}

// wantLocked checks err is a *LockedError naming pid, and its message.
func wantLocked(t *testing.T, err error, root string, pid int) {
	t.Helper()
	var le *aip.LockedError
	if !errors.As(err, &le) {
		t.Fatalf("err = %v, want a *aip.LockedError", err)
	}
	if le.PID != pid || le.Root != root || le.Path != filepath.Join(root, aip.LockFile) {
		t.Errorf("LockedError = %+v, want PID %d on %s", le, pid, root)
	}
	msg := err.Error()
	if !strings.Contains(msg, "in use by process "+strconv.Itoa(pid)) || !strings.Contains(msg, root) {
		t.Errorf("message %q does not say the archive is in use and by whom", msg)
	}
}

// TestLockArchiveOneHolder takes the lock twice in this process: the second
// fails at once with this PID, and succeeds once the first is closed.
//
// Local only: the flock lock file is the folder's (S3 writers are kept apart by the marker).
func TestLockArchiveOneHolder(t *testing.T) {
	root := t.TempDir()
	first, err := aip.LockArchive(root)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(filepath.Join(root, aip.LockFile))
	if strings.TrimSpace(string(data)) != strconv.Itoa(os.Getpid()) {
		t.Errorf("lock file holds %q, want this PID", data)
	}
	_, err = aip.LockArchive(root)
	wantLocked(t, err, root, os.Getpid())
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	second, err := aip.LockArchive(root)
	if err != nil {
		t.Fatalf("lock after Close: %v", err)
	}
	second.Close()
}

// TestSecondProcessLeavesTmpAlone: while another process holds the archive,
// this one cannot lock it, cannot sweep it and cannot write into it, and
// the holder's half-built bag in .tmp stays untouched. A kill -9 of the
// holder releases the lock.
//
// Local only: the folder's lock and .tmp (S3 staging is per writer, swept by age).
func TestSecondProcessLeavesTmpAlone(t *testing.T) {
	root := t.TempDir()
	child := lockInChild(t, root)
	half := filepath.Join(root, aip.TmpDir, "garden-x-v1-123", "data", "METS.xml")
	must(t, os.MkdirAll(filepath.Dir(half), 0o755))
	must(t, os.WriteFile(half, []byte("<half"), 0o644))

	_, err := aip.LockArchive(root)
	wantLocked(t, err, root, child.Process.Pid)
	if err := aip.Sweep(nil); err == nil {
		t.Error("Sweep without a lock succeeded")
	}
	w := &aip.Writer{Root: root}
	defer w.Close()
	_, err = w.WriteEntry(context.Background(), fixtureEntry())
	wantLocked(t, err, root, child.Process.Pid)
	if !blogharvest.IsTransient(err) {
		t.Errorf("write into a locked archive: %v is not transient", err)
	}
	if _, err := os.Stat(half); err != nil {
		t.Fatalf("the holder's half-built bag was touched: %v", err)
	}
	if m, _ := filepath.Glob(filepath.Join(root, "garden", "*")); len(m) > 0 {
		t.Errorf("wrote into a locked archive: %v", m)
	}

	child.Process.Signal(syscall.SIGKILL)
	child.Wait()
	l, err := aip.LockArchive(root)
	if err != nil {
		t.Fatalf("lock after the holder's kill -9: %v", err)
	}
	defer l.Close()
	must(t, aip.Sweep(l))
	if _, err := os.Stat(half); err == nil {
		t.Error("Sweep under the lock left the dead writer's bag")
	}
}

// TestWriterRefusesLostLock: a Writer whose lock was closed, or whose lock
// file was removed (another process could then lock a new one), writes
// nothing; Sweep refuses a closed lock.
//
// Local only: the flock lock file is the folder's (S3 writers are kept apart by the marker).
func TestWriterRefusesLostLock(t *testing.T) {
	for _, lose := range []string{"closed", "removed"} {
		t.Run(lose, func(t *testing.T) {
			root := t.TempDir()
			l, err := aip.LockArchive(root)
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			w := &aip.Writer{Root: root, Lock: l}
			if lose == "closed" {
				l.Close()
				if err := aip.Sweep(l); err == nil {
					t.Error("Sweep with a closed lock succeeded")
				}
			} else {
				must(t, os.Remove(filepath.Join(root, aip.LockFile)))
			}
			if _, err := w.WriteEntry(context.Background(), fixtureEntry()); err == nil || !blogharvest.IsTransient(err) {
				t.Errorf("write without the lock: err %v, want a transient error", err)
			}
			if m, _ := filepath.Glob(filepath.Join(root, "garden", "*")); len(m) > 0 {
				t.Errorf("wrote without the lock: %v", m)
			}
		})
	}
}
