//go:build !linux

package aip

import (
	"errors"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// noOpenat2 is always set here: there is no openat2(2).
var noOpenat2 atomic.Bool

func init() { noOpenat2.Store(true) }

// openBeneath is openat2(2)'s one-call open on Linux; elsewhere ok is
// always false and openBelow walks every path one component at a time.
func openBeneath(dirfd int, rel string, flags int) (fd int, ok bool, err error) {
	return -1, false, nil
}

// renameNoReplace renames old of olddirfd to new of newdirfd unless new
// exists (fs.ErrExist then), checked before the rename.
func renameNoReplace(olddirfd int, old string, newdirfd int, new string) error {
	return renameChecked(olddirfd, old, newdirfd, new)
}

// createBeneath is openat2(2)'s create on Linux; elsewhere createIn never
// asks for it (noOpenat2 is set).
func createBeneath(dirfd int, rel string, mode uint32) (int, error) {
	return -1, errors.ErrUnsupported
}

// readEntries returns the entries of the open folder fd, without . and
// .., their types unknown (unix.DT_UNKNOWN: the caller stats each).
func readEntries(fd int) ([]dirEntry, error) {
	var names []string
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
			break
		}
		_, _, names = unix.ParseDirent(buf[:n], -1, names)
	}
	ents := make([]dirEntry, len(names))
	for i, n := range names {
		ents[i] = dirEntry{name: n, typ: unix.DT_UNKNOWN}
	}
	return ents, nil
}
