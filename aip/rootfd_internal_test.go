package aip

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestLockRootFolder: the lock holds its root folder open for look-ups
// made under it (rootfd.go): rootDir gives it for the lock's root only,
// a look-up relative to it finds what the root holds, Close while a
// look-up uses it leaves it open until that look-up is done, and a closed
// lock gives none.
func TestLockRootFolder(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "b", "blog", "v1"), 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := LockArchive(root)
	if err != nil {
		t.Fatal(err)
	}
	if fd, done := l.rootDir(t.TempDir()); fd != -1 {
		done()
		t.Errorf("rootDir of another folder: %d, want -1", fd)
	}
	fd, done := l.rootDir(root)
	if fd < 0 {
		t.Fatal("rootDir of the lock's root: -1")
	}
	n, err := LatestVersionOf(&Local{Root: root, Lock: l}, "b/blog")
	if err != nil || n != 1 {
		t.Errorf("LatestVersionOf through the lock's root folder: %d, %v; want 1", n, err)
	}
	dup, err := openBelowAt(fd, root, root, unix.O_RDONLY|unix.O_DIRECTORY, false, true, Modes{})
	if err != nil {
		t.Fatal(err)
	}
	if flags, err := unix.FcntlInt(uintptr(dup), unix.F_GETFD, 0); err != nil || flags&unix.FD_CLOEXEC == 0 {
		t.Errorf("the root opened through the held folder: flags %#x, %v; want close-on-exec", flags, err)
	}
	unix.Close(dup)
	l.Close()
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		t.Errorf("the root folder closed under a look-up using it: %v", err)
	}
	done()
	if l.rootfd != -1 {
		t.Errorf("the root folder left open after the lock's Close and the last look-up: %d", l.rootfd)
	}
	if fd, done := l.rootDir(root); fd != -1 {
		done()
		t.Errorf("rootDir of a closed lock: %d, want -1", fd)
	}
}
