package aip

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Store is where an archive's bags are kept: the one storage interface
// every reader and writer of an archive goes through, declared here, by
// its consumer, and kept small like restic's backend. Names are
// slash-separated paths relative to the archive root ("." is the root), as
// io/fs has them.
//
// Reading (fs.FS, fs.ReadDirFS, fs.StatFS) sees published bags only, whole:
// a bag being written, or one whose writer died, is not there. Writing
// goes through Stage: Put each object of one bag (each Put is atomic: the
// object is whole or absent), then Publish, which makes the whole bag
// visible at its final name at once, or not at all, and fails when a bag
// is already published there (versions are never replaced). Remove deletes
// one object (never a published bag's).
//
// Two implementations: Local, a folder (rename of a durable temp folder;
// no symbolic link followed), and package aip/s3store, an S3-compatible
// object store (objects under a temporary key, published by one marker
// object written last with If-None-Match). doc/storage.md is the design.
type Store interface {
	fs.ReadDirFS
	fs.StatFS
	// Records keeps the publication log (publog.go), outside the bags.
	Records
	// Stage begins a bag to be published at final (a name as above, such
	// as "blog-1/blog/v2").
	Stage(ctx context.Context, final string) (Staged, error)
	// Remove deletes the object name; a missing one is not an error.
	Remove(ctx context.Context, name string) error
	// String names the store for messages: a folder or an s3:// URL,
	// never a credential.
	String() string
}

// Staged is a bag being written: invisible until Publish returns nil.
type Staged interface {
	// Put writes the object rel (a bag-relative name such as
	// "data/METS.xml") from r, which holds size bytes (-1: unknown), and
	// returns the bytes written; a short or long r fails.
	Put(ctx context.Context, rel string, r io.Reader, size int64) (int64, error)
	// Publish checks that everything Put is still there as it was written
	// and makes the bag visible at its final name, at once or not at all.
	Publish(ctx context.Context) error
	// Abort removes what was staged; call it when Publish was not reached
	// or failed.
	Abort(ctx context.Context) error
}

// Locator is implemented by stores whose names have a location outside
// them (Local: the file path), for Result.Dir and messages.
type Locator interface {
	Location(name string) string
}

// Local is the Store of an archive folder: today's behaviour. Reads never
// follow a symbolic link below Root (nofollow.go); a bag is built in the
// lock's temp folder, made durable and renamed into place (publish), only
// while Lock is held.
type Local struct {
	Root  string
	Lock  *ArchiveLock // the archive's lock; needed by Stage only
	Modes Modes        // of the folders and files written (modes.go); zero: 0755 and 0644 under the umask
}

// path returns the file path of name.
func (l *Local) path(op, name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	return filepath.Join(l.Root, filepath.FromSlash(name)), nil
}

// Open opens name for reading without following links.
func (l *Local) Open(name string) (fs.File, error) {
	p, err := l.path("open", name)
	if err != nil {
		return nil, err
	}
	if name == "." {
		return os.Open(l.Root) // the root itself may be a link: the operator's choice
	}
	rootfd, done := l.Lock.rootDir(l.Root)
	defer done()
	return openFileBelow(rootfd, l.Root, p, unix.O_RDONLY, false, true, Modes{})
}

// ReadDir lists the folder name, sorted, links listed as links. The
// lock's temp folder and lock file are not part of the archive.
func (l *Local) ReadDir(name string) ([]fs.DirEntry, error) {
	p, err := l.path("readdir", name)
	if err != nil {
		return nil, err
	}
	var ents []fs.DirEntry
	if name == "." {
		ents, err = os.ReadDir(l.Root)
	} else {
		rootfd, done := l.Lock.rootDir(l.Root)
		ents, err = readDirAt(rootfd, l.Root, p)
		done()
	}
	if name != "." || err != nil {
		return ents, err
	}
	out := ents[:0]
	for _, e := range ents {
		if e.Name() != TmpDir && e.Name() != LockFile {
			out = append(out, e)
		}
	}
	return out, nil
}

// ReadFile reads the file name without following links.
func (l *Local) ReadFile(name string) ([]byte, error) {
	if _, err := l.path("readfile", name); err != nil {
		return nil, err
	}
	f, err := l.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(f)
}

// Stat returns the FileInfo of name without following links.
func (l *Local) Stat(name string) (fs.FileInfo, error) {
	f, err := l.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Stat()
}

// Remove removes the file name (not a folder).
func (l *Local) Remove(_ context.Context, name string) error {
	p, err := l.path("remove", name)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

// Lstat returns the FileInfo of name itself, a link not followed
// (fs.ReadLinkFS).
func (l *Local) Lstat(name string) (fs.FileInfo, error) {
	p, err := l.path("lstat", name)
	if err != nil {
		return nil, err
	}
	return os.Lstat(p)
}

// ReadLink returns the target of the link name (fs.ReadLinkFS): what a
// *SymlinkError names; nothing is read through it.
func (l *Local) ReadLink(name string) (string, error) {
	p, err := l.path("readlink", name)
	if err != nil {
		return "", err
	}
	return os.Readlink(p)
}

// String returns the folder.
func (l *Local) String() string { return l.Root }

// Location returns the file path of name.
func (l *Local) Location(name string) string {
	return filepath.Join(l.Root, filepath.FromSlash(name))
}

// Stage makes a temp folder for the bag under the lock's temp folder,
// after checking the lock is still held.
func (l *Local) Stage(_ context.Context, final string) (Staged, error) {
	if l.Lock == nil {
		return nil, errors.New("aip: stage: no archive lock (take it with LockArchive)")
	}
	dst, err := l.path("stage", final)
	if err != nil {
		return nil, err
	}
	if err := l.Lock.verify(l.Root); err != nil {
		return nil, err
	}
	tmpRoot := l.Lock.tmpRoot()
	prefix := strings.ReplaceAll(final, "/", "-") + "-"
	made := l.Lock.tmpMade()
	if !made {
		if err := mkdirAllSync(l.Root, tmpRoot); err != nil {
			return nil, err
		}
		l.Lock.setTmpMade()
	}
	tmp, err := mkdirTemp(tmpRoot, prefix, l.Modes) // the bag's own folder once renamed: its mode, not 0700
	if made && errors.Is(err, fs.ErrNotExist) {
		// The temp folder was removed meanwhile: made again.
		if err = mkdirAllSync(l.Root, tmpRoot); err == nil {
			tmp, err = mkdirTemp(tmpRoot, prefix, l.Modes)
		}
	}
	if err != nil {
		return nil, err
	}
	dir, err := openStageDir(tmp, l.Modes)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	return &localStaged{l: l, dir: dir, final: dst}, nil
}

// localStaged is a bag in a temp folder (stagedir.go).
type localStaged struct {
	l     *Local
	dir   *stageDir
	final string
	files bagFiles
}

// Put writes rel into the temp folder. Tag files (outside data/) are kept
// in memory too, for publish's byte-for-byte check.
func (s *localStaged) Put(ctx context.Context, rel string, r io.Reader, size int64) (int64, error) {
	if !fs.ValidPath(rel) || rel == "." {
		return 0, fmt.Errorf("put %q: invalid name", rel)
	}
	var body []byte
	if !strings.HasPrefix(rel, "data/") {
		b, err := io.ReadAll(r)
		if err != nil {
			return 0, err
		}
		body, r = b, bytes.NewReader(b)
	}
	n, err := s.dir.write(rel, r, size)
	if err != nil {
		return n, err
	}
	s.files = append(s.files, bagFile{rel: rel, size: n, body: body})
	return n, nil
}

// Publish syncs, re-checks and renames the temp folder (publish).
func (s *localStaged) Publish(context.Context) error {
	defer s.dir.close()
	return publish(s.l.Lock, s.l.Root, s.dir, s.final, s.files)
}

// publishSynced re-checks and renames the temp folder of a bag a group
// commit has made durable, syncing nothing (publishSynced, batch.go).
func (s *localStaged) publishSynced() error {
	defer s.dir.close()
	return publishSynced(s.l.Lock, s.l.Root, s.dir, s.final, s.files, false)
}

// Abort removes the temp folder.
func (s *localStaged) Abort(context.Context) error {
	s.dir.close()
	return os.RemoveAll(s.dir.path)
}

// storeFor returns the Store the Writer writes into: Store, or the folder
// Root under lock.
func (w *Writer) storeFor(lock *ArchiveLock) Store {
	if w.Store != nil {
		return w.Store
	}
	return &Local{Root: w.Root, Lock: lock, Modes: w.Modes}
}

// readStore returns the Store the Writer reads from (no lock needed).
func (w *Writer) readStore() Store {
	if w.Store != nil {
		return w.Store
	}
	w.mu.Lock()
	lock := w.Lock
	if lock == nil {
		lock = w.own
	}
	w.mu.Unlock()
	return &Local{Root: w.Root, Lock: lock} // the lock's root folder, when it holds one, saves opening it per read
}

// name returns the store name of dir, a path the layout functions built
// from w.Root ("" for a Store: the names are then already relative).
func (w *Writer) name(dir string) string {
	if w.Store != nil || w.Root == "" {
		return path.Clean(filepath.ToSlash(dir))
	}
	rel, err := filepath.Rel(w.Root, dir)
	if err != nil {
		return filepath.ToSlash(dir)
	}
	return filepath.ToSlash(rel)
}

// Location returns where the object or folder n of s is, for messages
// and Result.Dir: its file path in a Local folder, else the store's name
// and n (such as s3://bucket/prefix/n).
func Location(s Store, n string) string {
	if l, ok := s.(Locator); ok {
		return l.Location(n)
	}
	return s.String() + "/" + n
}

// LatestVersionOf is LatestVersion of the folder dir of store s: 0 when
// it does not exist.
func LatestVersionOf(s fs.ReadDirFS, dir string) (int, error) {
	ents, err := s.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("aip: latest version: %w", err)
	}
	return latestOf(ents), nil
}
