package aip

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// An archive holds no symbolic links, and nothing that reads or writes it
// follows one: a link planted in an archive (a blog, entries, year or
// entry folder, a bag's file) would otherwise make a writer publish a
// version outside the archive, or copy what the link points to into a new
// version. The functions below open a path under the archive root one
// component at a time, each relative to the folder above it (openat) with
// O_NOFOLLOW, so a link anywhere below root, even one swapped in while the
// path is being opened, fails with a *SymlinkError naming it. The root
// itself may be a link: that is the operator's choice, not the archive's
// content.

// OpenFile opens the file at path, which lies under the archive root, for
// reading without following any symbolic link below root.
func OpenFile(root, path string) (*os.File, error) {
	return openBelow(root, path, unix.O_RDONLY, false, true, Modes{})
}

// ReadFile reads the file at path under root as OpenFile opens it.
func ReadFile(root, path string) ([]byte, error) {
	f, err := OpenFile(root, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// ReadDir returns the entries of the folder at path under root, sorted by
// name, opened without following any symbolic link below root. A link
// among the entries is listed as a link (its Type has fs.ModeSymlink), not
// followed.
func ReadDir(root, path string) ([]fs.DirEntry, error) {
	return readDirAt(-1, root, path)
}

// readDirAt is ReadDir with root's folder held open as rootfd (-1: none).
func readDirAt(rootfd int, root, path string) ([]fs.DirEntry, error) {
	f, err := openFileBelow(rootfd, root, path, unix.O_RDONLY|unix.O_DIRECTORY, false, true, Modes{})
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ents, err := f.ReadDir(-1)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	slices.SortFunc(ents, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return ents, nil
}

// LatestVersionIn is LatestVersion of the folder dir under root, read
// without following any symbolic link below root: a link on the way fails
// with a *SymlinkError, a linked v<N> is not a version.
func LatestVersionIn(root, dir string) (int, error) {
	ents, err := ReadDir(root, dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("aip: latest version: %w", err)
	}
	return latestOf(ents), nil
}

// openDirBelow opens the folder dir under root without following links;
// with create, missing folders are made (with the folder mode of m) and
// each parent that got a new entry is fsynced. rootfd is root's folder
// when the caller holds it open (ArchiveLock.rootDir), else -1.
func openDirBelow(rootfd int, root, dir string, create bool, m Modes) (int, error) {
	return openBelowAt(rootfd, root, dir, unix.O_RDONLY|unix.O_DIRECTORY, create, true, m)
}

// openDirBelowUnsynced is openDirBelow with create, except that no parent
// is fsynced: for a group commit (batch.go), whose syncfs after its
// renames makes the new folders durable with them.
func openDirBelowUnsynced(rootfd int, root, dir string, m Modes) (int, error) {
	return openBelowAt(rootfd, root, dir, unix.O_RDONLY|unix.O_DIRECTORY, true, false, m)
}

// openBelow is openBelowAt as an *os.File, root opened by its path.
func openBelow(root, path string, flags int, create, syncNew bool, m Modes) (*os.File, error) {
	return openFileBelow(-1, root, path, flags, create, syncNew, m)
}

// openFileBelow is openBelowAt as an *os.File.
func openFileBelow(rootfd int, root, path string, flags int, create, syncNew bool, m Modes) (*os.File, error) {
	fd, err := openBelowAt(rootfd, root, path, flags, create, syncNew, m)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}

// openBelowAt opens path under root with flags, every component below
// root opened with O_NOFOLLOW relative to its parent; with create, missing
// folders are made with the folder mode of m, and with syncNew each
// parent that got one is fsynced. rootfd, if not -1, is root's folder,
// held open by the caller (left open); else root is opened by its path.
// It returns the new descriptor, which the caller closes.
func openBelowAt(rootfd int, root, path string, flags int, create, syncNew bool, m Modes) (int, error) {
	rel, err := relBelow(root, path)
	if err != nil || !filepath.IsLocal(rel) && rel != "." {
		return -1, fmt.Errorf("%s: not under the archive %s", path, root)
	}
	fd := rootfd
	if fd < 0 {
		if fd, err = openRoot(root); err != nil {
			return -1, err
		}
		defer func() {
			if fd >= 0 {
				unix.Close(fd)
			}
		}()
	}
	if rel == "." {
		if rootfd >= 0 {
			return unix.FcntlInt(uintptr(rootfd), unix.F_DUPFD_CLOEXEC, 0)
		}
		nfd := fd
		fd = -1 // handed to the caller
		return nfd, nil
	}
	start, at := fd, root
	var parts []string
	if flags&unix.O_CREAT == 0 {
		// Every component at once when the path exists (openBeneath); a
		// missing one is an answer unless create makes it.
		nfd, ok, err := openBeneath(fd, rel, flags)
		if ok && (err == nil || !create) {
			if err != nil {
				return -1, &fs.PathError{Op: "open", Path: path, Err: err}
			}
			return nfd, nil
		}
		if ok && create {
			// Missing: open the deepest folder on the way that exists in
			// one call too, and make the rest below it.
			for p := filepath.Dir(rel); p != "."; p = filepath.Dir(p) {
				pfd, ok, err := openBeneath(fd, p, unix.O_RDONLY|unix.O_DIRECTORY)
				if !ok {
					break // walk from the root
				}
				if err == nil {
					defer unix.Close(pfd)
					start, at = pfd, filepath.Join(root, p)
					parts = strings.Split(rel[len(p)+1:], string(filepath.Separator))
					break
				}
			}
		}
	}
	if parts == nil {
		parts = strings.Split(rel, string(filepath.Separator))
	}
	cur := start
	closeCur := func() {
		if cur != start {
			unix.Close(cur)
		}
	}
	for i, name := range parts {
		last := i == len(parts)-1
		fl := unix.O_RDONLY | unix.O_DIRECTORY
		if last {
			fl = flags
		}
		next := filepath.Join(at, name)
		nfd, err := unix.Openat(cur, name, fl|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if errors.Is(err, unix.ENOENT) && create && fl&unix.O_DIRECTORY != 0 {
			err = unix.Mkdirat(cur, name, m.dir())
			if err == nil {
				if err = m.fixDirAt(cur, name); err == nil && syncNew {
					err = unix.Fsync(cur)
				}
			} else if errors.Is(err, unix.EEXIST) {
				err = nil // another writer made it between our open and mkdir
			}
			if err == nil {
				nfd, err = unix.Openat(cur, name, fl|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			}
		}
		if err != nil {
			err = linkError(cur, name, next, err)
			closeCur()
			return -1, err
		}
		closeCur()
		cur, at = nfd, next
	}
	return cur, nil
}

// linkError turns the failure to open name in the folder dirfd (at path
// p) into a *SymlinkError when name is a symbolic link, else a
// *fs.PathError.
func linkError(dirfd int, name, p string, err error) error {
	var st unix.Stat_t
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
		if unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
			buf := make([]byte, 4096)
			n, _ := unix.Readlinkat(dirfd, name, buf)
			return &SymlinkError{Path: p, Target: string(buf[:max(n, 0)])}
		}
	}
	return &fs.PathError{Op: "open", Path: p, Err: err}
}

// renameAt renames the folder from to to through their parents src and
// dst, opened without following links (openDirBelow); to must not exist
// (renameNoReplace: refused atomically where the kernel can). With sync,
// both parents are fsynced after the rename (a group commit syncs the
// file system once after all its renames instead, batch.go).
func renameAt(src int, from string, dst int, to string, sync bool) error {
	if err := renameNoReplace(src, filepath.Base(from), dst, filepath.Base(to)); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("publish %s: version exists", to)
		}
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	if !sync {
		return nil
	}
	if err := unix.Fsync(dst); err != nil {
		return fmt.Errorf("sync %s: %w", filepath.Dir(to), err)
	}
	if err := unix.Fsync(src); err != nil {
		return fmt.Errorf("sync %s: %w", filepath.Dir(from), err)
	}
	return nil
}

// relBelow returns path relative to root, both made absolute first.
func relBelow(root, path string) (string, error) {
	ar, err := filepath.Abs(root)
	if err != nil {
		return "", err
	}
	ap, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.Rel(ar, ap)
}

// folderFS is the folder it names as an fs.FS (fs.ReadDirFS, fs.StatFS,
// fs.ReadLinkFS) that follows no symbolic link below it: os.DirFS, read
// the way OpenFile and ReadDir read. Stat does not follow a link either
// (it is Lstat): a link is reported as one, never read through. The
// checker reads a bag of a folder through it (checkbag.go), as it reads
// a bag of any other store through that store's fs.FS.
type folderFS string

// path returns the file path of name.
func (d folderFS) path(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return filepath.Join(string(d), filepath.FromSlash(name)), nil
}

// Open opens name without following a link below the folder.
func (d folderFS) Open(name string) (fs.File, error) {
	p, err := d.path("open", name)
	if err != nil {
		return nil, err
	}
	if name == "." {
		return os.Open(p) // the folder itself may be a link: the caller's choice
	}
	return OpenFile(string(d), p)
}

// ReadDir lists the folder name, links listed as links.
func (d folderFS) ReadDir(name string) ([]fs.DirEntry, error) {
	p, err := d.path("readdir", name)
	if err != nil {
		return nil, err
	}
	if name == "." {
		return os.ReadDir(p)
	}
	return ReadDir(string(d), p)
}

// Stat returns the FileInfo of name itself, a link not followed.
func (d folderFS) Stat(name string) (fs.FileInfo, error) { return d.Lstat(name) }

// Lstat returns the FileInfo of name itself, a link not followed.
func (d folderFS) Lstat(name string) (fs.FileInfo, error) {
	p, err := d.path("lstat", name)
	if err != nil {
		return nil, err
	}
	return os.Lstat(p)
}

// ReadLink returns the target of the link name.
func (d folderFS) ReadLink(name string) (string, error) {
	p, err := d.path("readlink", name)
	if err != nil {
		return "", err
	}
	return os.Readlink(p)
}
