package schedule

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// ErrDamaged is wrapped by a *DamagedError: the state file is not a sound
// bbolt file (truncated, empty, overwritten, a damaged page).
var ErrDamaged = errors.New("state file damaged")

// DamagedError is a state file that cannot be used as it is. Open sets such
// a file aside and starts a fresh one (see Store.Recovered); OpenReadOnly
// returns it.
type DamagedError struct {
	Path   string
	Reason string
}

// Error names the file and what is wrong with it.
func (e *DamagedError) Error() string {
	return fmt.Sprintf("state file %s is damaged: %s", e.Path, e.Reason)
}

// Unwrap returns ErrDamaged.
func (e *DamagedError) Unwrap() error { return ErrDamaged }

func damaged(path, reason string) *DamagedError { return &DamagedError{Path: path, Reason: reason} }

// Recovery says that Open found the state file damaged, renamed it aside
// and made a fresh one: every blog's state starts empty, so each runs once
// from scratch (the archive is the truth: an unchanged entry is not written
// again).
type Recovery struct {
	Path   string        // the state file, now fresh
	Aside  string        // where the damaged file was moved: Path + ".corrupt-<UTC time>"
	Damage *DamagedError // what was wrong
}

// Recovered returns what Open recovered from, or nil if the file was sound.
func (s *Store) Recovered() *Recovery { return s.recovered }

// AsideName is the name a damaged state file at path is renamed to at t.
func AsideName(path string, t time.Time) string {
	return path + ".corrupt-" + t.UTC().Format("20060102T150405Z")
}

// verify checks the file at path under its lock (shared when readOnly), so
// that no writer is changing it meanwhile. It returns a *DamagedError, an
// error wrapping ErrInUse, another error if the file cannot be read, or nil
// (also when the file does not exist yet).
func verify(path string, readOnly bool) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) && !readOnly {
		return nil
	}
	if err != nil {
		return fmt.Errorf("open state file: %w", err)
	}
	defer f.Close()
	if err := lockFile(f, !readOnly, LockTimeout); err != nil {
		return fmt.Errorf("state file %s is %w (lock not acquired within %s)", path, ErrInUse, LockTimeout)
	}
	return verifyFile(f)
}

// openSafe opens the bbolt file, turning a panic or a damage bbolt itself
// reports into a *DamagedError, then runs bbolt's consistency check.
func openSafe(path string, readOnly bool) (s *Store, err error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, damaged(path, fmt.Sprintf("bbolt panicked opening it: %v", r))
		}
	}()
	s, err = open(path, readOnly)
	if errors.Is(err, bolterrors.ErrInvalid) || errors.Is(err, bolterrors.ErrChecksum) || errors.Is(err, bolterrors.ErrVersionMismatch) {
		return nil, damaged(path, err.Error())
	}
	if err != nil {
		return nil, err
	}
	if err := s.consistent(); err != nil {
		s.db.Close()
		return nil, err
	}
	return s, nil
}

// consistent runs bbolt's tx.Check, as a *DamagedError. It is only called
// on a file verifyFile accepted, on which it cannot fault.
func (s *Store) consistent() error {
	return s.db.View(func(tx *bolt.Tx) error {
		var errs []error
		for err := range tx.Check() {
			errs = append(errs, err)
		}
		if len(errs) > 0 {
			return damaged(s.path, errors.Join(errs...).Error())
		}
		return s.readable(tx)
	})
}

// readable checks that every key of the blogs bucket is a blog id (Put
// writes no other) and that the schema version is a number. A value that
// does not decode is left to Get, which names the blog.
func (s *Store) readable(tx *bolt.Tx) error {
	if meta := tx.Bucket(bucketMeta); meta != nil {
		if v := meta.Get(keySchema); v != nil {
			if _, err := strconv.Atoi(string(v)); err != nil {
				return damaged(s.path, fmt.Sprintf("schema version %q is not a number", v))
			}
		}
	}
	b := tx.Bucket(bucketBlogs)
	if b == nil {
		return nil // not (yet) a state file: Open creates it, OpenReadOnly refuses it
	}
	return b.ForEach(func(k, _ []byte) error {
		if err := validKey("read", string(k)); err != nil {
			return damaged(s.path, fmt.Sprintf("key %q: %v", k, err))
		}
		return nil
	})
}

// setAside renames a damaged state file out of the way.
func setAside(d *DamagedError, now time.Time) (string, error) {
	aside := AsideName(d.Path, now)
	for i := 1; ; i++ {
		if _, err := os.Lstat(aside); errors.Is(err, os.ErrNotExist) {
			break
		}
		aside = fmt.Sprintf("%s-%d", AsideName(d.Path, now), i)
	}
	if err := os.Rename(d.Path, aside); err != nil {
		return "", fmt.Errorf("%w; setting it aside failed: %w", d, err)
	}
	return aside, nil
}
