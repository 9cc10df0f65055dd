package schedule

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Get returns the state of blog id, and false if it has none. The error is a
// *VersionError if the stored value has a version this build cannot read.
func (s *Store) Get(id string) (State, bool, error) {
	if err := validKey("get", id); err != nil {
		return State{}, false, err
	}
	var st State
	var found bool
	err := s.db.View(func(tx *bolt.Tx) error {
		data := blogs(tx).Get([]byte(id))
		if data == nil {
			return nil
		}
		found = true
		var err error
		st, err = decodeState(id, data)
		return err
	})
	return st, found, err
}

// Put stores st as the state of blog id, setting st.V to StateVersion and
// its times to UTC. Concurrent Puts, Updates and AddRuns share a
// transaction (write).
func (s *Store) Put(id string, st State) error {
	if err := validKey("put", id); err != nil {
		return err
	}
	err := s.write(func(tx *bolt.Tx) error { return put(tx, id, st) })
	if err != nil {
		return fmt.Errorf("put state of blog %q: %w", id, err)
	}
	return nil
}

// PutAll stores the state of every blog of states in one transaction
// (one sync of the file instead of one per blog): all of them or, on an
// error, none. It is Put for many blogs at once, as a bulk import needs.
func (s *Store) PutAll(states map[string]State) error {
	for id := range states {
		if err := validKey("put", id); err != nil {
			return err
		}
	}
	return s.db.Update(func(tx *bolt.Tx) error {
		for id, st := range states {
			if err := put(tx, id, st); err != nil {
				return fmt.Errorf("put state of blog %q: %w", id, err)
			}
		}
		return nil
	})
}

// Update reads the state of blog id (a zero State if it has none), calls fn
// on it and stores the result, all in one transaction, which concurrent
// Puts, Updates and AddRuns share (write): fn may be called more than
// once, each time on the state as stored, so it must change nothing but
// the State it is given and what it sets afresh at each call. If fn
// returns an error nothing is stored and Update returns that error.
func (s *Store) Update(id string, fn func(*State) error) error {
	if err := validKey("update", id); err != nil {
		return err
	}
	return s.write(func(tx *bolt.Tx) error {
		st, err := stored(tx, id)
		if err != nil {
			return err
		}
		if err := fn(&st); err != nil {
			return err
		}
		return put(tx, id, st)
	})
}

// stored returns the state of blog id as tx holds it; a zero State if it
// has none.
func stored(tx *bolt.Tx, id string) (State, error) {
	data := blogs(tx).Get([]byte(id))
	if data == nil {
		return State{}, nil
	}
	return decodeState(id, data)
}

// Delete removes the state of blog id. Deleting a blog without state is not
// an error.
func (s *Store) Delete(id string) error {
	if err := validKey("delete", id); err != nil {
		return err
	}
	return s.db.Update(func(tx *bolt.Tx) error { return blogs(tx).Delete([]byte(id)) })
}

// All returns the state of every blog, keyed by blog id. One unreadable
// value fails the whole call with its *VersionError.
func (s *Store) All() (map[string]State, error) {
	all := make(map[string]State)
	err := s.db.View(func(tx *bolt.Tx) error {
		return blogs(tx).ForEach(func(k, v []byte) error {
			st, err := decodeState(string(k), v)
			all[string(k)] = st
			return err
		})
	})
	if err != nil {
		return nil, err
	}
	return all, nil
}

// IDs returns the ids of all blogs with state, sorted.
func (s *Store) IDs() ([]string, error) {
	var ids []string
	err := s.db.View(func(tx *bolt.Tx) error {
		return blogs(tx).ForEach(func(k, _ []byte) error {
			ids = append(ids, string(k))
			return nil
		})
	})
	return ids, err
}

// write runs fn in a write transaction that the writes of other goroutines
// waiting at the same time share (bbolt's Batch: the calls that come
// within DB.MaxBatchDelay, 10 ms, commit together, one sync of the file
// for all of them; each call returns once its transaction is durable, as
// with Update). A daemon's runs each wrote three to four transactions of
// their own, an fsync each, and their writes waited in line for the file:
// at 100 000 blogs with a tenth due in the same minute, the runs' start
// lagged minutes behind their due time (doc/scale.md). fn may be called
// more than once (the batch is run again without a call whose fn failed).
func (s *Store) write(fn func(*bolt.Tx) error) error { return s.db.Batch(fn) }

// put encodes and stores one state.
func put(tx *bolt.Tx, id string, st State) error {
	data, err := encodeState(st)
	if err != nil {
		return err
	}
	return tx.Bucket(bucketBlogs).Put([]byte(id), data)
}

// blogs returns the blogs bucket, which Open and OpenReadOnly ensure exists.
func blogs(tx *bolt.Tx) *bolt.Bucket { return tx.Bucket(bucketBlogs) }
