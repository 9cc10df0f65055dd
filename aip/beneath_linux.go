package aip

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// noOpenat2 is set once openat2(2) has been found missing (a kernel before
// 5.6, or a seccomp filter that refuses it): openBelow then walks every
// path one component at a time.
var noOpenat2 atomic.Bool

// openBeneath opens rel (a local path, no "..") under the folder dirfd in
// one openat2(2) call that refuses to follow any symbolic link on the way
// or at the end (RESOLVE_NO_SYMLINKS) and to leave dirfd (RESOLVE_BENEATH):
// what openBelow's walk checks, component by component, in one system call
// instead of an open and a close per component. ok is false when the call
// cannot say (openat2 missing, a link met, a folder renamed meanwhile, …):
// the caller then walks, which names the link or the missing component
// exactly. An ENOENT is an answer (ok, err): the path does not exist.
func openBeneath(dirfd int, rel string, flags int) (fd int, ok bool, err error) {
	if noOpenat2.Load() {
		return -1, false, nil
	}
	how := unix.OpenHow{
		Flags:   uint64(flags | unix.O_NOFOLLOW | unix.O_CLOEXEC),
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
	}
	for {
		fd, err = unix.Openat2(dirfd, rel, &how)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	switch {
	case err == nil:
		return fd, true, nil
	case errors.Is(err, unix.ENOENT):
		return -1, true, err
	case errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EPERM):
		noOpenat2.Store(true)
	}
	return -1, false, nil
}

// renameNoReplace renames old of olddirfd to new of newdirfd unless new
// exists (fs.ErrExist then): one renameat2(2) with RENAME_NOREPLACE, which
// refuses an existing name atomically (a plain rename replaces an empty
// folder or a file). Where the file system or the kernel refuses the flag
// it checks first and renames, as before.
func renameNoReplace(olddirfd int, old string, newdirfd int, new string) error {
	err := unix.Renameat2(olddirfd, old, newdirfd, new, unix.RENAME_NOREPLACE)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, unix.EEXIST):
		return fs.ErrExist
	case errors.Is(err, unix.EINVAL), errors.Is(err, unix.ENOSYS), errors.Is(err, unix.EPERM):
		return renameChecked(olddirfd, old, newdirfd, new)
	}
	return err
}

// createBeneath creates the new file rel ("folder/name") below the folder
// dirfd for writing, with mode, in one openat2(2) call that follows no
// symbolic link (the folder swapped for one fails with ELOOP) and does
// not leave dirfd: a file of a bag created in a folder the writer made
// and did not open (stagedir.go). When openat2 is refused (ENOSYS, or
// EPERM from a filter) it is marked missing, and the caller opens the
// folder and creates the file in it instead.
func createBeneath(dirfd int, rel string, mode uint32) (int, error) {
	how := unix.OpenHow{
		Flags:   uint64(unix.O_WRONLY | unix.O_CREAT | unix.O_EXCL | unix.O_NOFOLLOW | unix.O_CLOEXEC),
		Mode:    uint64(mode),
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
	}
	for {
		fd, err := unix.Openat2(dirfd, rel, &how)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
			noOpenat2.Store(true)
		}
		return fd, err
	}
}

// readEntries returns the entries of the open folder fd, without . and ..
func readEntries(fd int) ([]dirEntry, error) {
	var ents []dirEntry
	buf := make([]byte, 8192)
	for {
		n, err := unix.ReadDirent(fd, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n <= 0 {
			return ents, nil
		}
		// struct linux_dirent64: d_ino (8), d_off (8), d_reclen (2),
		// d_type (1), d_name (NUL-terminated).
		for b := buf[:n]; len(b) >= 19; {
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				return nil, fmt.Errorf("folder entry of %d bytes", reclen)
			}
			name := b[19:reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			if s := string(name); s != "." && s != ".." {
				ents = append(ents, dirEntry{name: s, typ: b[18]})
			}
			b = b[reclen:]
		}
	}
}
