package aip

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// LockWorker takes a cluster worker's hold on the archive at root: a
// shared flock on <root>/.lock, which any number of workers hold at once
// but which excludes a single-process daemon (holding it exclusively) and
// is excluded by it, and an exclusive flock on <root>/.tmp/worker-<name>.lock,
// the worker's own. The worker builds its bags in <root>/.tmp/worker-<name>/,
// which Sweep clears, leaving other workers' folders alone. Distinct
// workers need distinct names; one name held twice fails with a
// *LockedError. One writer per blog folder is the worker's to ensure with
// LockBlog.
func LockWorker(root, name string) (*ArchiveLock, error) {
	if name == "" || filepath.Base(name) != name || name[0] == '.' {
		return nil, fmt.Errorf("aip: lock archive: worker name %q: give a plain name", name)
	}
	shared, err := lockFile(root, filepath.Join(root, LockFile), syscall.LOCK_SH)
	if err != nil {
		return nil, err
	}
	tmp := filepath.Join(root, TmpDir)
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		shared.Close()
		return nil, fmt.Errorf("aip: lock archive: %w", err)
	}
	own, err := lockFile(root, filepath.Join(tmp, "worker-"+name+".lock"), syscall.LOCK_EX)
	if err != nil {
		shared.Close()
		return nil, err
	}
	if err := writePID(own); err != nil {
		shared.Close()
		own.Close()
		return nil, fmt.Errorf("aip: lock archive: %w", err)
	}
	return newLock(root, filepath.Join(root, LockFile), shared, own, filepath.Join(tmp, "worker-"+name))
}

// LockBlog takes an exclusive flock on <root>/.tmp/blog-<id>.lock for the
// holder of l, a worker: while it holds it no other worker writes into
// the blog's folder. It never waits: if another holds it, it fails with a
// *LockedError. Close the returned file to release it.
func LockBlog(l *ArchiveLock, id string) (*os.File, error) {
	if err := l.verify(l.root); err != nil {
		return nil, err
	}
	if _, err := BlogDir(l.root, id); err != nil {
		return nil, err
	}
	tmp := filepath.Join(l.root, TmpDir)
	if err := os.MkdirAll(tmp, 0o755); err != nil {
		return nil, fmt.Errorf("aip: lock blog %s: %w", id, err)
	}
	return lockFile(l.root, filepath.Join(tmp, "blog-"+id+".lock"), syscall.LOCK_EX)
}

// lockFile opens path (creating it) and flocks it as how says, failing at
// once with a *LockedError if another holds it.
func lockFile(root, path string, how int) (*os.File, error) {
	if err := os.MkdirAll(root, 0o755); err != nil {
		return nil, fmt.Errorf("aip: lock archive: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW, 0o644)
	if err != nil {
		return nil, fmt.Errorf("aip: lock archive: %w", err)
	}
	if err := flockHow(f, how); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, &LockedError{Root: root, Path: path, PID: readPID(path)}
		}
		return nil, fmt.Errorf("aip: lock %s: %w", path, err)
	}
	return f, nil
}

// tmpRoot is the folder the lock's holder builds bags in.
func (l *ArchiveLock) tmpRoot() string {
	if l.tmp != "" {
		return l.tmp
	}
	return filepath.Join(l.root, TmpDir)
}
