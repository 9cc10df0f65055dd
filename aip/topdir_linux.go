//go:build linux

package aip

import "golang.org/x/sys/unix"

// fsTopdirFL is FS_TOPDIR_FL of linux/fs.h (chattr(1)'s 'T').
const fsTopdirFL = 0x00020000

// spreadSubfolders marks dir, the staging folder, as the top of a
// hierarchy (FS_TOPDIR_FL): ext4 then places each bag's folder made in it
// as it places top-level folders (Orlov's allocator: a block group with
// more free inodes and blocks than average and the fewest folders),
// instead of in dir's own group, and the bag's files follow their folder.
// On an ext4 without a journal, a new inode skips one by one the inodes
// of its group freed in the last minutes (the kernel's recently_deleted),
// so a bag made beside folders that other work keeps deleting paid for
// every one of them (doc/storage.md, thirteenth pass). A hint only: a file
// system without the flag, or one that refuses it, is left as it is; the
// flag changes where inodes go, never what a bag holds.
func spreadSubfolders(dir string) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer unix.Close(fd)
	flags, err := unix.IoctlGetUint32(fd, unix.FS_IOC_GETFLAGS)
	if err != nil || flags&fsTopdirFL != 0 {
		return
	}
	unix.IoctlSetPointerInt(fd, unix.FS_IOC_SETFLAGS, int(flags|fsTopdirFL))
}
