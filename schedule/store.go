package schedule

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/blogharvest/blogharvest"
	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// SchemaVersion is the layout of the state file: the buckets and how keys
// are formed. It is stored under key "schema" of bucket "meta".
const SchemaVersion = 1

// LockTimeout is how long Open and OpenReadOnly wait for the state file's
// lock before giving up with ErrInUse.
const LockTimeout = time.Second

// Bucket names. "blogs" maps a blog id (blogharvest.ValidID, so keys sort by
// id) to its JSON-encoded State; "meta" holds "schema".
var (
	bucketBlogs = []byte("blogs")
	bucketMeta  = []byte("meta")
	keySchema   = []byte("schema")
)

// ErrInUse is returned (wrapped, with the file name) by Open when another
// process holds the state file: a second daemon on the same file, or a
// reader. OpenReadOnly returns it while a daemon holds the file.
var ErrInUse = errors.New("in use by another blogharvest process")

// Store is the state file: a bbolt database holding only schedule metadata,
// one State per blog. Its methods are safe for concurrent use. Values are
// copied out of bbolt transactions; nothing returned points into the file.
type Store struct {
	db        *bolt.DB
	path      string
	readOnly  bool
	recovered *Recovery // set when Open replaced a damaged file
}

// Open opens the state file at path for reading and writing, creating it and
// its directory if needed. Only one process can hold it open for writing:
// if another does, Open fails after LockTimeout with an error that wraps
// ErrInUse and names the file. A damaged file (empty, truncated, overwritten,
// a damaged page: see DamagedError) is never opened as it is: Open renames
// it aside (AsideName) and starts a fresh one, which Recovered reports.
func Open(path string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("open state file: %w", err)
	}
	s, err := openVerified(path, false)
	var d *DamagedError
	if errors.As(err, &d) {
		return openFresh(d)
	}
	if err != nil {
		return nil, err
	}
	if err := s.db.Update(initBuckets); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("state file %s: %w", path, err)
	}
	return s, nil
}

// OpenReadOnly opens an existing state file for reading, as `blogharvest
// status` does. Several readers may share the file, but not with a writer:
// bbolt locks the file (flock, shared for readers, exclusive for the
// daemon), so while a daemon runs OpenReadOnly fails after LockTimeout with
// ErrInUse (ask the daemon's /status instead), and while a reader holds it a
// starting daemon waits. Close it promptly.
//
// A damaged file gives a *DamagedError (wrapping ErrDamaged); it is left as
// it is.
func OpenReadOnly(path string) (*Store, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("open state file: %w", err)
	}
	s, err := openVerified(path, true)
	if err != nil {
		return nil, err
	}
	if err := s.db.View(checkSchema); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("state file %s: %w", path, err)
	}
	return s, nil
}

// openVerified checks the file's structure, then opens it (see openSafe).
func openVerified(path string, readOnly bool) (*Store, error) {
	if err := verify(path, readOnly); err != nil {
		return nil, err
	}
	return openSafe(path, readOnly)
}

// openFresh sets the damaged file aside and opens a fresh one in its place.
func openFresh(d *DamagedError) (*Store, error) {
	aside, err := setAside(d, time.Now())
	if err != nil {
		return nil, err
	}
	s, err := openSafe(d.Path, false)
	if err != nil {
		return nil, fmt.Errorf("%w (set aside as %s); a fresh state file failed: %w", d, aside, err)
	}
	if err := s.db.Update(initBuckets); err != nil {
		s.db.Close()
		return nil, fmt.Errorf("state file %s: %w", d.Path, err)
	}
	s.recovered = &Recovery{Path: d.Path, Aside: aside, Damage: d}
	return s, nil
}

// open opens the bbolt file with the lock timeout.
func open(path string, readOnly bool) (*Store, error) {
	db, err := bolt.Open(path, 0o600, &bolt.Options{Timeout: LockTimeout, ReadOnly: readOnly})
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("state file %s is %w (lock not acquired within %s)", path, ErrInUse, LockTimeout)
	}
	if err != nil {
		return nil, fmt.Errorf("open state file %s: %w", path, err)
	}
	return &Store{db: db, path: path, readOnly: readOnly}, nil
}

// initBuckets creates the buckets and the schema version, or checks them.
func initBuckets(tx *bolt.Tx) error {
	meta, err := tx.CreateBucketIfNotExists(bucketMeta)
	if err != nil {
		return err
	}
	if _, err := tx.CreateBucketIfNotExists(bucketBlogs); err != nil {
		return err
	}
	if meta.Get(keySchema) == nil {
		return meta.Put(keySchema, []byte(strconv.Itoa(SchemaVersion)))
	}
	return checkSchema(tx)
}

// checkSchema refuses a file that is not a state file or was written with
// another schema version.
func checkSchema(tx *bolt.Tx) error {
	meta := tx.Bucket(bucketMeta)
	if meta == nil || tx.Bucket(bucketBlogs) == nil {
		return errors.New("not a blogharvest state file: buckets meta and blogs missing")
	}
	v, err := strconv.Atoi(string(meta.Get(keySchema)))
	if err != nil || v != SchemaVersion {
		return fmt.Errorf("schema version %q, this blogharvest reads %d", meta.Get(keySchema), SchemaVersion)
	}
	return nil
}

// Commits returns the id of the state file's last committed write
// transaction, which every commit raises by one: the commits of a stretch
// of work are the difference of two calls (a run's writes are counted so
// in the daemon's tests).
func (s *Store) Commits() (int, error) {
	var id int
	err := s.db.View(func(tx *bolt.Tx) error { id = tx.ID(); return nil })
	return id, err
}

// Path returns the file name the store was opened with.
func (s *Store) Path() string { return s.path }

// Close closes the state file. It is safe to call more than once.
func (s *Store) Close() error {
	if err := s.db.Close(); err != nil {
		return fmt.Errorf("close state file %s: %w", s.path, err)
	}
	return nil
}

// Check runs bbolt's consistency check over the whole file and returns every
// problem found, joined, or nil.
func (s *Store) Check() error {
	return s.db.View(func(tx *bolt.Tx) error {
		var errs []error
		for err := range tx.Check() {
			errs = append(errs, err)
		}
		if len(errs) > 0 {
			return fmt.Errorf("state file %s is inconsistent: %w", s.path, errors.Join(errs...))
		}
		return nil
	})
}

// validKey returns an error naming id unless it is a valid blog id.
func validKey(op, id string) error {
	if err := blogharvest.ValidID(id); err != nil {
		return fmt.Errorf("%s state: %w", op, err)
	}
	return nil
}
