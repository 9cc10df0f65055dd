package aip

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// Modes are the permission bits of what a writer creates in an archive
// folder: the folders and files of every bag (Blog, Entry and requisites
// packages), the folders leading to them, and the publication log
// (publog.go). A zero field means the default, 0755 for folders and 0644
// for files, with the process's umask applied as for any file the process
// creates (umask 022: drwxr-xr-x and -rw-r--r--, readable by the
// archive's group and others; umask 027: no access for others). A field
// set is applied exactly, whatever the umask (fchmod after creation):
// the archive's file_mode and dir_mode for a site that needs tighter (or
// group-writable) modes. Objects of an S3 store have no modes: the
// bucket's policy decides who reads them.
//
// A bag is built in a temp folder under .tmp and renamed into place: the
// temp folder itself is made with the folder mode (not os.MkdirTemp's
// 0700), so the published bag's own folder has it too.
type Modes struct {
	File fs.FileMode // 0: 0644 under the umask
	Dir  fs.FileMode // 0: 0755 under the umask
}

// Default creation modes, before the umask.
const (
	defaultFileMode fs.FileMode = 0o644
	defaultDirMode  fs.FileMode = 0o755
)

// file returns the mode to create files with.
func (m Modes) file() uint32 {
	if m.File != 0 {
		return unixBits(m.File)
	}
	return uint32(defaultFileMode)
}

// dir returns the mode to create folders with.
func (m Modes) dir() uint32 {
	if m.Dir != 0 {
		return unixBits(m.Dir)
	}
	return uint32(defaultDirMode)
}

// fixFile sets the mode of the just-created file fd when a mode was
// given (the umask may have taken bits away).
func (m Modes) fixFile(fd int) error {
	if m.File == 0 {
		return nil
	}
	return unix.Fchmod(fd, unixBits(m.File))
}

// fixDirAt sets the mode of the just-made folder name of dirfd when a
// mode was given.
func (m Modes) fixDirAt(dirfd int, name string) error {
	if m.Dir == 0 {
		return nil
	}
	return unix.Fchmodat(dirfd, name, unixBits(m.Dir), 0)
}

// ParseMode reads a permission mode as a config gives it: octal digits,
// with or without a leading 0 or 0o ("0640", "750", "0o2775"), at most
// 07777. It refuses a mode that would keep the owner (the writer) from
// reading or, for a folder, from entering and writing.
func ParseMode(s string, dir bool) (fs.FileMode, error) {
	t := s
	if len(t) > 2 && (t[:2] == "0o" || t[:2] == "0O") {
		t = t[2:]
	}
	if t == "" || len(t) > 5 {
		return 0, fmt.Errorf("%q is not an octal mode such as %s", s, map[bool]string{true: "0750", false: "0640"}[dir])
	}
	var v uint32
	for _, c := range t {
		if c < '0' || c > '7' {
			return 0, fmt.Errorf("%q is not an octal mode such as %s", s, map[bool]string{true: "0750", false: "0640"}[dir])
		}
		v = v*8 + uint32(c-'0')
	}
	if v > 0o7777 {
		return 0, fmt.Errorf("%q is more than 07777", s)
	}
	need, what := uint32(0o600), "read and write (0600)"
	if dir {
		need, what = 0o700, "list, enter and write (0700)"
	}
	if v&need != need {
		return 0, fmt.Errorf("%q does not let the archive's owner %s its %s", s, what, map[bool]string{true: "folders", false: "files"}[dir])
	}
	mode := fs.FileMode(v & 0o777)
	if v&0o4000 != 0 {
		mode |= fs.ModeSetuid
	}
	if v&0o2000 != 0 {
		mode |= fs.ModeSetgid
	}
	if v&0o1000 != 0 {
		mode |= fs.ModeSticky
	}
	return mode, nil
}

// mkdirTemp makes a new folder named prefix plus a random suffix in
// parent with the folder mode of m (os.MkdirTemp makes it 0700, which a
// bag renamed into place would keep) and returns its path.
func mkdirTemp(parent, prefix string, m Modes) (string, error) {
	for range 100 {
		var b [8]byte
		rand.Read(b[:])
		p := filepath.Join(parent, prefix+hex.EncodeToString(b[:]))
		err := os.Mkdir(p, fs.FileMode(m.dir()))
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		if m.Dir != 0 {
			if err := os.Chmod(p, m.Dir); err != nil {
				os.Remove(p)
				return "", err
			}
		}
		return p, nil
	}
	return "", fmt.Errorf("mkdir temp in %s: no free name", parent)
}

// unixBits returns the permission bits of m as chmod(2) takes them
// (setuid, setgid and sticky included).
func unixBits(m fs.FileMode) uint32 {
	v := uint32(m.Perm())
	if m&fs.ModeSetuid != 0 {
		v |= unix.S_ISUID
	}
	if m&fs.ModeSetgid != 0 {
		v |= unix.S_ISGID
	}
	if m&fs.ModeSticky != 0 {
		v |= unix.S_ISVTX
	}
	return v
}
