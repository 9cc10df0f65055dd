package aip

import (
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// syncBag makes everything written under dir (a bag in .tmp) durable
// before it is renamed into place: one syncfs(2) of the archive's file
// system instead of an fsync per file and per folder (a bag has about 15
// files in 7 folders). Since Linux 5.8 syncfs reports write-back errors of
// the file system, as fsync does for its file.
func syncBag(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = unix.Syncfs(int(d.Fd()))
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
