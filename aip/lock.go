package aip

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
)

// LockFile is the name of the lock file at the archive root. Whoever holds
// an exclusive flock on it is the archive's one writer; its PID is written
// in it as a decimal number and a newline.
const LockFile = ".lock"

// ArchiveLock is the exclusive hold of one process on an archive: only the
// holder sweeps <archive>/.tmp and writes bags. The kernel releases it when
// the process ends, however it ends (kill -9 included).
type ArchiveLock struct {
	root string
	path string

	mu sync.Mutex
	f  *os.File // nil once closed

	tmp   string   // the folder bags are built in; "" means <root>/.tmp (see LockWorker)
	extra *os.File // a worker's own lock file, held with f

	held   os.FileInfo // f's identity, read once: an open file's inode does not change
	rootfd int         // the root folder, opened when locked (rootfd.go); -1 once closed
	users  int         // rootDir calls not yet done
	tmpOK  bool        // tmpRoot was found or made (Stage makes it once per lock)
}

// LockedError reports an archive another process (or another lock of this
// process) holds.
type LockedError struct {
	Root string // the archive
	Path string // its lock file
	PID  int    // the holder's process id, as it wrote it; zero if unknown
}

// Error implements error. It says "in use", names the holder's PID and
// what to do.
func (e *LockedError) Error() string {
	holder := "another process"
	if e.PID > 0 {
		holder = "process " + strconv.Itoa(e.PID)
	}
	return fmt.Sprintf("archive %s is in use by %s (lock %s): one writer per archive; stop it or wait for it to finish",
		e.Root, holder, e.Path)
}

// LockArchive takes the exclusive lock of the archive at root, creating
// root and its lock file if needed, and writes this process's PID into the
// lock file. It never waits: if another holds the lock it fails at once
// with a *LockedError naming the holder's PID. Take the lock before
// anything touches <root>/.tmp, hold it as long as bags are written, and
// Close it at the end.
func LockArchive(root string) (*ArchiveLock, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("aip: lock archive: %w", err)
	}
	path := filepath.Join(root, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return nil, fmt.Errorf("aip: lock archive: %w", err)
	}
	if err := flock(f); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &LockedError{Root: root, Path: path, PID: readPID(path)}
		}
		return nil, fmt.Errorf("aip: lock archive %s: %w", path, err)
	}
	if err := writePID(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("aip: lock archive %s: %w", path, err)
	}
	return newLock(root, path, f, nil, "")
}

// newLock returns the lock held through f (and extra, a worker's own
// lock file) on root, with the root folder opened (rootfd.go) and f's
// identity read once for verify.
func newLock(root, path string, f, extra *os.File, tmp string) (*ArchiveLock, error) {
	held, err := f.Stat()
	if err == nil {
		var fd int
		if fd, err = openRoot(root); err == nil {
			return &ArchiveLock{root: root, path: path, f: f, extra: extra, tmp: tmp, held: held, rootfd: fd}, nil
		}
	}
	f.Close()
	if extra != nil {
		extra.Close()
	}
	return nil, fmt.Errorf("aip: lock archive %s: %w", path, err)
}

// flock takes an exclusive flock on f without waiting, retrying when a
// signal interrupts the call.
func flock(f *os.File) error { return flockHow(f, syscall.LOCK_EX) }

// flockHow takes a flock of kind how (LOCK_EX or LOCK_SH) on f without
// waiting, retrying when a signal interrupts the call.
func flockHow(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// writePID replaces the lock file's content with this process's PID.
func writePID(f *os.File) error {
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	return err
}

// readPID returns the PID written in the lock file, or zero.
func readPID(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, err := strconv.Atoi(string(bytes.TrimSpace(data)))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// Root returns the archive the lock is held on.
func (l *ArchiveLock) Root() string { return l.root }

// Close releases the lock. Closing twice is harmless.
func (l *ArchiveLock) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return nil
	}
	err := l.f.Close() // closing the last descriptor releases the flock
	l.f = nil
	if l.extra != nil {
		err = errors.Join(err, l.extra.Close())
		l.extra = nil
	}
	if l.users == 0 && l.rootfd >= 0 { // else the last rootDir caller's done closes it
		closeFD(l.rootfd)
		l.rootfd = -1
	}
	return err
}

// verify checks that the lock is still held on root: not closed, and its
// lock file still the one locked (not removed or replaced, which would let
// another process lock a new file at the same path).
func (l *ArchiveLock) verify(root string) error {
	if l == nil {
		return fmt.Errorf("aip: archive %s: no lock held (take it with LockArchive)", root)
	}
	if filepath.Clean(l.root) != filepath.Clean(root) {
		return fmt.Errorf("aip: archive %s: the lock held is on %s", root, l.root)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return fmt.Errorf("aip: archive %s: lock released", root)
	}
	now, err := os.Lstat(l.path)
	if err != nil || !os.SameFile(l.held, now) {
		return fmt.Errorf("aip: archive %s: lock file %s was removed or replaced: another process may be writing", root, l.path)
	}
	return nil
}
