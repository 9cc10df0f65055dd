//go:build !linux

package aip

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
