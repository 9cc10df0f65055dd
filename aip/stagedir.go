package aip

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/sys/unix"
)

// stageDir is the temp folder of a bag being built in the folder store,
// opened once (O_NOFOLLOW) when staged. Every folder of the bag is made
// once (mkdirat) relative to the folder above it, opened (O_NOFOLLOW) only
// when a folder is made in it; every file is created relative to the
// open folder above its own (openat2 of "folder/name", O_CREAT|O_EXCL,
// resolving no link: RESOLVE_NO_SYMLINKS|RESOLVE_BENEATH) or in its own
// open folder (openat O_CREAT|O_EXCL|O_NOFOLLOW), and written through the
// bare descriptor: no path is walked again per file, no link is followed,
// a leaf folder (page, warc, logs…) is never opened, and a regular file
// is not offered to the runtime's poller (os.OpenFile probes each
// descriptor with fcntl and epoll_ctl, which a disk file refuses).
type stageDir struct {
	path  string          // the temp folder, for messages and the rename
	dirs  map[string]int  // bag-relative folder ("." the bag itself) → open descriptor
	made  map[string]bool // bag-relative folders made (open or not)
	modes Modes           // of the folders and files made (modes.go)
}

// openStageDir opens the temp folder dir, just made by this process; the
// bag's folders and files are made with modes m.
func openStageDir(dir string, m Modes) (*stageDir, error) {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	return &stageDir{path: dir, dirs: map[string]int{".": fd}, made: map[string]bool{".": true}, modes: m}, nil
}

// dir returns the descriptor of the bag-relative folder d, making it
// (and its missing parents) the first time.
func (s *stageDir) dir(d string) (int, error) {
	if fd, ok := s.dirs[d]; ok {
		return fd, nil
	}
	if s.dirs == nil {
		return -1, errors.New("stage folder closed")
	}
	parent, err := s.mkdir(d)
	if err != nil {
		return -1, err
	}
	name := path.Base(d)
	fd, err := unix.Openat(parent, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, linkError(parent, name, s.name(d), err)
	}
	s.dirs[d] = fd
	return fd, nil
}

// mkdir makes the bag-relative folder d (d not ".") the first time, in
// its parent folder, opened (dir), and returns the parent's descriptor.
func (s *stageDir) mkdir(d string) (int, error) {
	parent, err := s.dir(path.Dir(d))
	if err != nil || s.made[d] {
		return parent, err
	}
	name := path.Base(d)
	if err := unix.Mkdirat(parent, name, s.modes.dir()); err == nil {
		if err := s.modes.fixDirAt(parent, name); err != nil {
			return -1, &fs.PathError{Op: "chmod", Path: s.name(d), Err: err}
		}
	} else if !errors.Is(err, unix.EEXIST) {
		return -1, &fs.PathError{Op: "mkdir", Path: s.name(d), Err: err}
	}
	s.made[d] = true
	return parent, nil
}

// name returns the file path of the bag-relative rel.
func (s *stageDir) name(rel string) string { return filepath.Join(s.path, filepath.FromSlash(rel)) }

// createAt creates the new file name (one component, or "folder/name"
// resolved without following any link) in the folder dirfd for writing,
// with mode (before the umask); a test replaces it to inject failures
// (such as a real ENOSPC from /dev/full).
var createAt = func(dirfd int, name string, mode uint32) (int, error) {
	if strings.Contains(name, "/") {
		return createBeneath(dirfd, name, mode)
	}
	return unix.Openat(dirfd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, mode)
}

// write writes r to the new file rel, checks its length and closes it.
// It returns the bytes written. It does not sync: publish makes the whole
// bag durable at once (syncBag) before the rename.
func (s *stageDir) write(rel string, r io.Reader, size int64) (int64, error) {
	dirfd, name, err := s.createIn(rel)
	if err != nil {
		return 0, err
	}
	fd, err := createAt(dirfd, name, s.modes.file())
	if err != nil && strings.Contains(name, "/") && noOpenat2.Load() {
		// openat2 refused: the file made in its folder, opened.
		if dirfd, err = s.dir(path.Dir(rel)); err != nil {
			return 0, err
		}
		name = path.Base(rel)
		fd, err = createAt(dirfd, name, s.modes.file())
	}
	if err != nil {
		if i := strings.LastIndexByte(name, '/'); i >= 0 && (errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) || errors.Is(err, unix.EXDEV)) {
			return 0, linkError(dirfd, name[:i], s.name(path.Dir(rel)), unix.ELOOP) // the folder made became a link
		}
		return 0, linkError(dirfd, path.Base(rel), s.name(rel), err)
	}
	if err := s.modes.fixFile(fd); err != nil {
		unix.Close(fd)
		return 0, fmt.Errorf("chmod %s: %w", s.name(rel), err)
	}
	n, err := io.Copy(fdWriter(fd), r)
	if err == nil && size >= 0 && n != size {
		err = fmt.Errorf("wrote %d bytes, want %d", n, size)
	}
	if cerr := unix.Close(fd); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return n, fmt.Errorf("write %s: %w", s.name(rel), err)
	}
	return n, nil
}

// createIn returns where write creates the file rel: its own folder when
// that is open (the bag's own, or one a folder was made in), with its
// name; else its folder made (not opened), and the folder above with
// "folder/name" (createBeneath) — or, without openat2, its folder opened.
func (s *stageDir) createIn(rel string) (int, string, error) {
	d := path.Dir(rel)
	if fd, ok := s.dirs[d]; ok || s.dirs == nil || noOpenat2.Load() {
		if !ok {
			var err error
			fd, err = s.dir(d)
			if err != nil {
				return -1, "", err
			}
		}
		return fd, path.Base(rel), nil
	}
	parent, err := s.mkdir(d)
	if err != nil {
		return -1, "", err
	}
	return parent, path.Base(d) + "/" + path.Base(rel), nil
}

// fdWriter writes to a file descriptor, retrying interrupted and short
// writes.
type fdWriter int

// Write implements io.Writer.
func (w fdWriter) Write(b []byte) (int, error) {
	done := 0
	for done < len(b) {
		n, err := unix.Write(int(w), b[done:])
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return done, err
		}
		if n == 0 {
			return done, io.ErrShortWrite
		}
		done += n
	}
	return done, nil
}

// close closes every folder the bag opened; closing twice is harmless.
func (s *stageDir) close() {
	for _, fd := range s.dirs {
		unix.Close(fd)
	}
	s.dirs, s.made = nil, nil
}

// verify checks, right before the bag in the temp folder base of the
// folder parentfd is published, that it is still whole: exactly the files
// in bf (regular files, no symlink, nothing added or removed), each
// payload file with its size, each tag file (the manifests among them)
// byte for byte. It reads the folders afresh from parentfd (each opened
// with O_NOFOLLOW), not through the descriptors the writer holds, so a
// folder swapped since it was written is seen. Payload files are not
// hashed again: they were hashed while written and fsynced, and reading
// them back would only read the page cache; what can still go wrong
// before the rename is another process deleting, truncating or adding
// files, which this sees. A folder's entries come with their types
// (getdents64), so only payload files are stat'ed (for their sizes); a
// tag file's size is what reading it back finds.
func (bf bagFiles) verify(parentfd int, base, dir string) error {
	found := map[string]int64{}
	var problems []string
	tagfd := -1
	err := scanAt(parentfd, base, "", found, &problems, &tagfd)
	if tagfd >= 0 {
		defer unix.Close(tagfd)
	}
	if err != nil {
		problems = append(problems, err.Error())
	}
	for _, f := range bf {
		size, ok := found[f.rel]
		delete(found, f.rel)
		if ok && size == unstated {
			if f.body != nil && tagfd >= 0 && !strings.Contains(f.rel, "/") {
				var same bool
				size, same = readBack(tagfd, f.rel, f.body)
				if size < 0 || size == f.size && !same {
					problems = append(problems, f.rel+" was changed")
					continue
				}
			} else if size, err = sizeAt(tagfd, f.rel); err != nil {
				problems = append(problems, err.Error())
				continue
			}
		}
		switch {
		case !ok:
			problems = append(problems, f.rel+" is missing")
		case size != f.size:
			problems = append(problems, fmt.Sprintf("%s has %d bytes, %d were written", f.rel, size, f.size))
		case f.body != nil && tagfd >= 0 && strings.Contains(f.rel, "/"):
			if !sameContent(tagfd, f.rel, f.body) {
				problems = append(problems, f.rel+" was changed")
			}
		}
	}
	for _, rel := range sortedKeys(found) {
		problems = append(problems, rel+" was added")
	}
	if len(problems) > 0 {
		return fmt.Errorf("bag %s is no longer whole, not published: %s", dir, strings.Join(problems, "; "))
	}
	return nil
}

// unstated is scanAt's size of a regular file in the bag's own folder:
// not stat'ed (verify reads a tag file back instead).
const unstated = -1

// scanAt lists the folder name of parentfd (bag-relative rel) and the
// folders below it, each opened with O_NOFOLLOW, adding its regular files
// with their sizes to found and anything else (a symlink, a device) to
// problems; the regular files of the bag's own folder are added with
// size unstated. The bag's own folder (rel "") is left open in *top, for
// reading the tag files back.
func scanAt(parentfd int, name, rel string, found map[string]int64, problems *[]string, top *int) error {
	fd, err := unix.Openat(parentfd, name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return linkError(parentfd, name, rel, err)
	}
	if rel == "" {
		*top = fd
	} else {
		defer unix.Close(fd)
	}
	ents, err := readEntries(fd)
	if err != nil {
		return fmt.Errorf("read %s: %w", rel, err)
	}
	slices.SortFunc(ents, func(a, b dirEntry) int { return strings.Compare(a.name, b.name) })
	for _, e := range ents {
		n := e.name
		r := n
		if rel != "" {
			r = rel + "/" + n
		}
		mode := uint32(e.typ) << 12 // DT_* is the S_IF* type shifted (dirent.h's DTTOIF)
		if e.typ == unix.DT_UNKNOWN || e.typ == unix.DT_REG && rel != "" {
			var st unix.Stat_t
			if err := unix.Fstatat(fd, n, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
				return fmt.Errorf("stat %s: %w", r, err)
			}
			mode = uint32(st.Mode) & unix.S_IFMT
			if mode == unix.S_IFREG {
				found[r] = st.Size
				continue
			}
		}
		switch mode {
		case unix.S_IFDIR:
			if err := scanAt(fd, n, r, found, problems, top); err != nil {
				return err
			}
		case unix.S_IFREG:
			found[r] = unstated
		default:
			*problems = append(*problems, fmt.Sprintf("%s is not a regular file (mode %#o)", r, mode))
		}
	}
	return nil
}

// dirEntry is a folder entry as getdents64(2) gives it: its name and its
// type (unix.DT_*).
type dirEntry struct {
	name string
	typ  uint8
}

// readBack reads the file name of the folder dirfd (a tag file in the
// bag's own folder) without following a link or waiting on a special
// file, and reports its size and whether it holds want: one read of one
// byte more than want, a second only when the first was short; the size
// is stat'ed only when it differs from want's.
func readBack(dirfd int, name string, want []byte) (size int64, same bool) {
	fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, false
	}
	defer unix.Close(fd)
	got := make([]byte, len(want)+1)
	n := 0
	for n < len(got) {
		m, err := unix.Read(fd, got[n:])
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return -1, false
		}
		if m == 0 {
			break
		}
		n += m
	}
	if n == len(want) {
		return int64(n), bytes.Equal(got[:n], want)
	}
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || uint32(st.Mode)&unix.S_IFMT != unix.S_IFREG {
		return -1, false
	}
	return st.Size, false
}

// sizeAt returns the size of the regular file rel of the folder dirfd,
// not following a link.
func sizeAt(dirfd int, rel string) (int64, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(dirfd, rel, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return 0, fmt.Errorf("stat %s: %w", rel, err)
	}
	if uint32(st.Mode)&unix.S_IFMT != unix.S_IFREG {
		return 0, fmt.Errorf("%s is not a regular file (mode %#o)", rel, uint32(st.Mode)&unix.S_IFMT)
	}
	return st.Size, nil
}

// sameContent reports whether the file rel of the folder dirfd, whose
// size verify has just found to be len(want), holds want, read without
// following a link.
func sameContent(dirfd int, rel string, want []byte) bool {
	dir, name := path.Split(rel)
	if dir != "" { // a tag file in a folder: each component opened without following links
		d, err := unix.Dup(dirfd)
		if err != nil {
			return false
		}
		defer func() { unix.Close(d) }()
		for _, c := range strings.Split(strings.TrimSuffix(dir, "/"), "/") {
			next, err := unix.Openat(d, c, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
			if err != nil {
				return false
			}
			unix.Close(d)
			d = next
		}
		dirfd = d
	}
	fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	got := make([]byte, len(want)) // its size was just checked: one read, no read of the end
	n := 0
	for n < len(got) {
		m, err := unix.Read(fd, got[n:])
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return false
		}
		if m == 0 {
			break
		}
		n += m
	}
	return bytes.Equal(got[:n], want)
}
