package schedule

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
)

// txid returns the id of the file's last committed write transaction.
func txid(t *testing.T, s *Store) int {
	t.Helper()
	var id int
	if err := s.db.View(func(tx *bolt.Tx) error { id = tx.ID(); return nil }); err != nil {
		t.Fatal(err)
	}
	return id
}

// TestConcurrentWritesShareCommits checks that the writes of goroutines
// waiting at the same time commit together: a daemon's concurrent runs
// each wrote their own transactions (an fsync each) and lagged behind
// their due times at 100 000 blogs (doc/scale.md). 32 Updates and 32
// AddRuns of 32 goroutines; the batch is made to hold them all (a long
// delay, a size of 32), so they must take two commits, not 64.
func TestConcurrentWritesShareCommits(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const n = 32
	s.db.MaxBatchSize, s.db.MaxBatchDelay = n, time.Minute
	before := txid(t, s)
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	for i := range n {
		wg.Go(func() {
			id := fmt.Sprintf("blog-%02d", i)
			errs <- s.Update(id, func(st *State) error { st.Runs = i + 1; return nil })
		})
	}
	wg.Wait()
	for i := range n {
		wg.Go(func() { errs <- s.AddRun(fmt.Sprintf("blog-%02d", i), []byte(`{"n":1}`), 50) })
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if commits := txid(t, s) - before; commits != 2 {
		t.Errorf("%d writes of %d goroutines at once took %d commits, want 2", 2*n, n, commits)
	}
	for i := range n {
		id := fmt.Sprintf("blog-%02d", i)
		st, ok, err := s.Get(id)
		if err != nil || !ok || st.Runs != i+1 {
			t.Errorf("%s: %+v %v %v, want Runs %d", id, st, ok, err, i+1)
		}
		if runs, err := s.Runs(id); err != nil || len(runs) != 1 {
			t.Errorf("%s: %d runs, %v; want 1", id, len(runs), err)
		}
	}
}

// TestBatchedUpdateFailureStoresNothingOfIt checks that a failing fn among
// concurrent Updates stores nothing of its own and leaves the others
// stored (the batch is run again without it).
func TestBatchedUpdateFailureStoresNothingOfIt(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const n = 8
	s.db.MaxBatchSize, s.db.MaxBatchDelay = n, time.Minute
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Go(func() {
			errs[i] = s.Update(fmt.Sprintf("blog-%d", i), func(st *State) error {
				st.Runs++
				if i == 3 {
					return fmt.Errorf("fn %d fails", i)
				}
				return nil
			})
		})
	}
	wg.Wait()
	for i := range n {
		st, ok, _ := s.Get(fmt.Sprintf("blog-%d", i))
		if i == 3 {
			if errs[i] == nil || ok {
				t.Errorf("the failing update: err %v, stored %v", errs[i], ok)
			}
			continue
		}
		if errs[i] != nil || !ok || st.Runs != 1 {
			t.Errorf("update %d: err %v, stored %v, Runs %d (want 1: its fn run again on the state as stored)", i, errs[i], ok, st.Runs)
		}
	}
}
