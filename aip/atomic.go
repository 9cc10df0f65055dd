package aip

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// syncDir fsyncs a directory, making the entries created in it durable
// (or a file, making its content durable).
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}

// syncTree fsyncs every file and directory under root, deepest first,
// root last: syncBag where the system has no syncfs.
func syncTree(root string) error {
	var paths []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			paths = append(paths, p)
		}
		return err
	})
	for i := len(paths) - 1; i >= 0 && err == nil; i-- {
		err = syncDir(paths[i]) // opens read-only and fsyncs: a file or a folder
	}
	return err
}

// mkdirAllSync creates dir and its missing parents below root, fsyncing
// each parent whose entries changed.
func mkdirAllSync(root, dir string) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	parent := filepath.Dir(dir)
	if parent != dir && parent != root {
		if err := mkdirAllSync(root, parent); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
		return err
	}
	return syncDir(parent)
}

// Sweep removes whatever an interrupted write left in the .tmp folder of
// the archive l locks. Only the lock's holder may sweep: while it holds the
// lock no other process writes there, so whatever .tmp holds was left by a
// writer that died. Call it once after LockArchive, before any Writer runs.
// A missing folder is not an error.
func Sweep(l *ArchiveLock) error {
	if l == nil {
		return errors.New("aip: sweep: no archive lock (take it with LockArchive)")
	}
	if err := l.verify(l.root); err != nil {
		return fmt.Errorf("aip: sweep: %w", err)
	}
	tmp := l.tmpRoot()
	ents, err := os.ReadDir(tmp)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("aip: sweep: %w", err)
	}
	var errs []error
	for _, e := range ents {
		if err := os.RemoveAll(filepath.Join(tmp, e.Name())); err != nil {
			errs = append(errs, err)
		}
	}
	if len(ents) > 0 {
		errs = append(errs, syncDir(tmp))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("aip: sweep: %w", err)
	}
	return nil
}

// isNoSpace reports whether err says the disk or the quota is full.
func isNoSpace(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}
