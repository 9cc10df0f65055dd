package aip

import (
	"io/fs"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// The archive lock holds the archive's root folder open (opened once when
// locked, as openBelow opened it by path for every look-up before): the
// store's reads and a bag's publication under the lock resolve their
// names relative to it (openBelowAt), one openat2(2) for a folder that
// exists or not, where each look-up opened and closed the root by its
// path first. The root may be a link (the operator's choice); what the
// lock's holder writes into is the folder it locked. verify still checks
// the lock file by its path before every bag is staged and published, so
// an archive moved or replaced meanwhile is refused as before.

// openRoot opens the archive root folder (following a link there, as
// openBelow does).
func openRoot(root string) (int, error) {
	fd, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: root, Err: err}
	}
	return fd, nil
}

// closeFD closes fd, ignoring the error (a folder opened read-only).
func closeFD(fd int) { unix.Close(fd) }

// rootDir returns the root folder's descriptor the lock holds when the
// lock is held on root, and done, which the caller calls when it no
// longer uses it (a Close meanwhile closes it only then); else -1 and a
// no-op done: the caller opens root by its path.
func (l *ArchiveLock) rootDir(root string) (fd int, done func()) {
	if l == nil {
		return -1, func() {}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil || l.rootfd < 0 || filepath.Clean(l.root) != filepath.Clean(root) {
		return -1, func() {}
	}
	l.users++
	return l.rootfd, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		l.users--
		if l.users == 0 && l.f == nil && l.rootfd >= 0 {
			closeFD(l.rootfd)
			l.rootfd = -1
		}
	}
}

// renameChecked renames old of olddirfd to new of newdirfd after checking
// that new does not exist (fs.ErrExist then): renameNoReplace where
// renameat2(2)'s RENAME_NOREPLACE is missing.
func renameChecked(olddirfd int, old string, newdirfd int, new string) error {
	var st unix.Stat_t
	if err := unix.Fstatat(newdirfd, new, &st, unix.AT_SYMLINK_NOFOLLOW); err == nil {
		return fs.ErrExist
	}
	return unix.Renameat(olddirfd, old, newdirfd, new)
}

// tmpMade reports whether Stage found or made the lock's temp folder
// (tmpRoot) before: it is then not looked up again for every bag (a bag's
// folder made in it fails if it was removed, and Stage makes it again).
func (l *ArchiveLock) tmpMade() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.tmpOK
}

// setTmpMade records that the lock's temp folder exists.
func (l *ArchiveLock) setTmpMade() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.tmpOK = true
}
