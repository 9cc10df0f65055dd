package aip

import (
	"fmt"

	"golang.org/x/sys/unix"
)

// syncBag makes everything written under dir (a bag in .tmp) durable
// before it is renamed into place: one syncfs(2) of the archive's file
// system instead of an fsync per file and per folder (a bag has about 15
// files in 7 folders). Since Linux 5.8 syncfs reports write-back errors of
// the file system, as fsync does for its file.
func syncBag(bag *stageDir) error {
	fd, ok := bag.dirs["."]
	if !ok {
		return fmt.Errorf("sync %s: stage folder closed", bag.path)
	}
	if err := unix.Syncfs(fd); err != nil {
		return fmt.Errorf("sync %s: %w", bag.path, err)
	}
	return nil
}

// syncBags makes the staged bags durable with one syncfs(2): they are all
// in the one archive's temp folder (a group commit, batch.go).
// They hold no descriptor while staged (bag.go): the first's temp folder
// is opened by its path for the sync.
func syncBags(bags []*stageDir) error {
	if len(bags) == 0 {
		return nil
	}
	fd, err := unix.Open(bags[0].path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("sync %s: %w", bags[0].path, err)
	}
	defer unix.Close(fd)
	if err := unix.Syncfs(fd); err != nil {
		return fmt.Errorf("sync %s: %w", bags[0].path, err)
	}
	return nil
}

// syncFolders makes the renames into the folders dirs (and out of them)
// durable with one syncfs(2) of the file system of the first.
func syncFolders(dirs []string) error {
	if len(dirs) == 0 {
		return nil
	}
	fd, err := unix.Open(dirs[0], unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return fmt.Errorf("sync %s: %w", dirs[0], err)
	}
	defer unix.Close(fd)
	if err := unix.Syncfs(fd); err != nil {
		return fmt.Errorf("sync %s: %w", dirs[0], err)
	}
	return nil
}

// syncRecords makes the staged records of a group commit durable: on
// Linux nothing to do here, the syncfs(2) of the bags' renames that
// follows covers them (they are in the same archive).
func syncRecords([]*stagedRecord) error { return nil }
