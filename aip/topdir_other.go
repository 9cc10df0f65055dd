//go:build !linux

package aip

// spreadSubfolders is FS_TOPDIR_FL on Linux (topdir_linux.go); elsewhere
// the staging folder is left as it is.
func spreadSubfolders(dir string) {}
