package schedule

import (
	"errors"
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

// TestEndRunOneCommit checks that EndRun stores a run's state and its
// record in one commit and returns the state as stored, its record kept
// as AddRun keeps one (the oldest beyond keep dropped).
func TestEndRunOneCommit(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for i := range 3 {
		if err := s.AddRun("blog", []byte(fmt.Sprintf(`{"n":%d}`, i)), 3); err != nil {
			t.Fatal(err)
		}
	}
	before := txid(t, s)
	due := time.Date(2026, 12, 8, 10, 0, 0, 0, time.UTC)
	after, err := s.EndRun("blog", func(st *State) error { st.Runs++; st.NextDue = due; return nil }, []byte(`{"n":3}`), 3)
	if err != nil {
		t.Fatal(err)
	}
	if commits := txid(t, s) - before; commits != 1 {
		t.Errorf("EndRun took %d commits, want 1", commits)
	}
	st, _, err := s.Get("blog")
	if err != nil || st.Runs != 1 || !st.NextDue.Equal(due) || after.Runs != 1 || !after.NextDue.Equal(due) {
		t.Errorf("stored %+v (%v), returned %+v; want Runs 1, NextDue %v", st, err, after, due)
	}
	runs, err := s.Runs("blog")
	if err != nil || len(runs) != 3 || string(runs[0]) != `{"n":1}` || string(runs[2]) != `{"n":3}` {
		t.Errorf("runs %q (%v), want n 1, 2, 3", runs, err)
	}
	if _, err := s.EndRun("blog", func(st *State) error { st.Runs++; return errors.New("no") }, []byte(`{"n":4}`), 3); err == nil {
		t.Error("EndRun with a failing fn: no error")
	}
	if runs, _ := s.Runs("blog"); len(runs) != 3 || string(runs[2]) != `{"n":3}` {
		t.Errorf("a failed EndRun kept its record: %q", runs)
	}
	if n, err := s.Commits(); err != nil || n != txid(t, s) {
		t.Errorf("Commits %d, %v; want %d", n, err, txid(t, s))
	}
}
