//go:build !linux

package aip

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// syncBag makes everything written under dir (a bag in .tmp) durable
// before it is renamed into place: without syncfs(2), an fsync per file
// and per folder.
func syncBag(bag *stageDir) error { return syncTree(bag.path) }

// syncBags makes the staged bags durable: without syncfs(2), each as
// syncBag does.
func syncBags(bags []*stageDir) error {
	for _, b := range bags {
		if err := syncBag(b); err != nil {
			return err
		}
	}
	return nil
}

// syncFolders makes the renames into the folders dirs (and out of them)
// durable: an fsync of each.
func syncFolders(dirs []string) error {
	seen := map[string]bool{}
	for _, d := range dirs {
		if seen[d] {
			continue
		}
		seen[d] = true
		if err := syncDir(d); err != nil {
			return err
		}
	}
	return nil
}

// syncRecords makes the staged records of a group commit durable (the
// records not nil): without syncfs(2), an fsync of each file; syncFolders
// then syncs their folders.
func syncRecords(recs []*stagedRecord) error {
	for _, r := range recs {
		if r == nil {
			continue
		}
		fd, err := unix.Openat(int(r.dirfd), r.tmp, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("sync %s: %w", r.path, err)
		}
		err = unix.Fsync(fd)
		unix.Close(fd)
		if err != nil {
			return fmt.Errorf("sync %s: %w", r.path, err)
		}
	}
	return nil
}
