//go:build linux

package aip_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/blogharvest/blogharvest/aip"
	"golang.org/x/sys/unix"
)

// TestStagingFolderSpreadsBags checks that a Writer marks the archive's
// staging folder FS_TOPDIR_FL (chattr's 'T'), so that ext4 places each
// bag's folder apart (aip/topdir_linux.go). Where the test's own folder
// takes no such flag (tmpfs, some other file systems) it is skipped.
func TestStagingFolderSpreadsBags(t *testing.T) {
	t.Parallel()
	const topdir = 0x00020000 // FS_TOPDIR_FL
	w := newWriter(t)
	if _, err := w.WriteEntry(context.Background(), fixtureEntry()); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(w.Root, aip.TmpDir)
	fd, err := unix.Open(tmp, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Close(fd)
	flags, err := unix.IoctlGetUint32(fd, unix.FS_IOC_GETFLAGS)
	if err != nil {
		t.Skipf("%s: no file attributes here: %v", tmp, err)
	}
	if flags&topdir != 0 {
		return
	}
	// Not set: a failure only if this file system takes the flag.
	if err := unix.IoctlSetPointerInt(fd, unix.FS_IOC_SETFLAGS, int(flags|topdir)); err != nil {
		t.Skipf("%s: the file system refuses FS_TOPDIR_FL: %v", tmp, err)
	}
	if got, err := unix.IoctlGetUint32(fd, unix.FS_IOC_GETFLAGS); err != nil || got&topdir == 0 {
		t.Skipf("%s: the file system keeps no FS_TOPDIR_FL (%#x, %v)", tmp, got, err)
	}
	t.Errorf("%s: flags %#x after a write: FS_TOPDIR_FL not set", tmp, flags)
}
