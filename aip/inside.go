package aip

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Enclosing returns the archive or bag that would hold a file written at
// path (which need not exist yet): the nearest folder above it, symbolic
// links resolved, that holds a bagit.txt (a bag) or an archive's LockFile
// (an archive root), or "" when none does. Commands that write files of
// their own (export, report) refuse a path inside an archive, which would
// change a published bag or add to the archive what no bag accounts for.
func Enclosing(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return "", fmt.Errorf("folder of %s: %w", path, err)
	}
	for {
		for _, marker := range []string{bagitTxt, LockFile} {
			if _, err := os.Lstat(filepath.Join(dir, marker)); err == nil {
				return dir, nil
			} else if !errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}

// Within reports whether path, symbolic links of its folder resolved, lies
// in folder root (resolved alike) or is root itself.
func Within(path, root string) (bool, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false, err
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
	if err != nil {
		return false, err
	}
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false, err
	}
	rel, err := filepath.Rel(r, filepath.Join(dir, filepath.Base(abs)))
	return err == nil && filepath.IsLocal(rel), nil
}
