package schedule

import (
	"encoding/binary"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// bucketRuns holds, per blog, the records of its last runs, as the status
// pages show them: a nested bucket per blog id, its keys an 8-byte
// big-endian sequence (oldest first), its values opaque to this package
// (the daemon's JSON run records). Made at the first AddRun: a state file
// without it (written before it existed) reads as holding no runs, and a
// blogharvest that does not know it leaves it alone.
var bucketRuns = []byte("runs")

// AddRun appends rec, one run of blog id, to its kept runs, dropping the
// oldest beyond keep (keep < 1 keeps one), in a transaction concurrent
// writes share (write).
func (s *Store) AddRun(id string, rec []byte, keep int) error {
	if err := validKey("add run", id); err != nil {
		return err
	}
	err := s.write(func(tx *bolt.Tx) error { return addRun(tx, id, rec, keep) })
	if err != nil {
		return fmt.Errorf("add run of blog %q: %w", id, err)
	}
	return nil
}

// EndRun stores the end of a run of blog id in one transaction that
// concurrent writes share (write): fn changes its state as Update's does
// (called on the state as stored, perhaps more than once; an error stores
// nothing and is returned), and rec, the run's record, is appended to its
// kept runs as AddRun appends it (a nil rec adds none). It returns the
// state as stored. A run's
// end was three writes of their own (its outcome, its record, its next due
// time), each a commit of the file with its two syncs whenever the runs
// did not end together: at 10 000 blogs the state file's commits were
// over a quarter of the daemon's CPU (doc/scale.md, "One write at a run's
// end").
func (s *Store) EndRun(id string, fn func(*State) error, rec []byte, keep int) (State, error) {
	if err := validKey("end run", id); err != nil {
		return State{}, err
	}
	var after State
	err := s.write(func(tx *bolt.Tx) error {
		st, err := stored(tx, id)
		if err != nil {
			return err
		}
		if err := fn(&st); err != nil {
			return err
		}
		if err := put(tx, id, st); err != nil {
			return err
		}
		after = st
		if rec == nil {
			return nil
		}
		return addRun(tx, id, rec, keep)
	})
	if err != nil {
		return State{}, fmt.Errorf("end run of blog %q: %w", id, err)
	}
	return after, nil
}

// addRun appends rec to blog id's kept runs in tx, dropping the oldest
// beyond keep (at least one is kept).
func addRun(tx *bolt.Tx, id string, rec []byte, keep int) error {
	runs, err := tx.CreateBucketIfNotExists(bucketRuns)
	if err != nil {
		return err
	}
	b, err := runs.CreateBucketIfNotExists([]byte(id))
	if err != nil {
		return err
	}
	seq, err := b.NextSequence()
	if err != nil {
		return err
	}
	var k [8]byte
	binary.BigEndian.PutUint64(k[:], seq)
	if err := b.Put(k[:], rec); err != nil {
		return err
	}
	n := 0
	b.ForEach(func(_, _ []byte) error { n++; return nil })
	for ; n > max(keep, 1); n-- {
		first, _ := b.Cursor().First()
		if err := b.Delete(first); err != nil {
			return err
		}
	}
	return nil
}

// Runs returns the kept runs of blog id, oldest first (AddRun); none
// when it has none.
func (s *Store) Runs(id string) ([][]byte, error) {
	if err := validKey("runs", id); err != nil {
		return nil, err
	}
	var out [][]byte
	err := s.db.View(func(tx *bolt.Tx) error {
		runs := tx.Bucket(bucketRuns)
		if runs == nil {
			return nil
		}
		b := runs.Bucket([]byte(id))
		if b == nil {
			return nil
		}
		return b.ForEach(func(_, v []byte) error {
			out = append(out, append([]byte(nil), v...)) // v is bbolt memory
			return nil
		})
	})
	return out, err
}
