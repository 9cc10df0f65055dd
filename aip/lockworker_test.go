package aip_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/blogharvest/blogharvest/aip"
)

// TestLockWorker shows the cluster's locking: workers with distinct names
// share the archive, one name is held once, a single-process daemon and
// workers exclude each other, one writer per blog folder, and each worker
// builds and sweeps only its own .tmp folder.
//
// Local only: lock files in a shared folder (S3 workers need none).
func TestLockWorker(t *testing.T) {
	root := t.TempDir()
	a, err := aip.LockWorker(root, "a")
	if err != nil {
		t.Fatal(err)
	}
	b, err := aip.LockWorker(root, "b")
	if err != nil {
		t.Fatalf("a second worker: %v", err)
	}
	var le *aip.LockedError
	if _, err := aip.LockWorker(root, "a"); !errors.As(err, &le) {
		t.Fatalf("worker name a twice: %v, want *LockedError", err)
	}
	if _, err := aip.LockArchive(root); !errors.As(err, &le) {
		t.Fatalf("LockArchive while workers hold the archive: %v, want *LockedError", err)
	}
	fa, err := aip.LockBlog(a, "blog1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := aip.LockBlog(b, "blog1"); !errors.As(err, &le) {
		t.Fatalf("blog1 locked by two workers: %v", err)
	}
	fa.Close()
	fb, err := aip.LockBlog(b, "blog1")
	if err != nil {
		t.Fatalf("blog1 after a released it: %v", err)
	}
	fb.Close()

	// b's leftovers survive a's sweep; a writes through its own folder.
	left := filepath.Join(root, aip.TmpDir, "worker-b", "half-written")
	if err := os.MkdirAll(left, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := aip.Sweep(a); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(left); err != nil {
		t.Fatalf("a's sweep removed b's folder: %v", err)
	}
	w := &aip.Writer{Root: root, Lock: a}
	if _, err := w.WriteBlog(context.Background(), fixtureBlog()); err != nil {
		t.Fatal(err)
	}
	if err := aip.Sweep(b); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(left); !os.IsNotExist(err) {
		t.Fatalf("b's sweep left its folder: %v", err)
	}
	a.Close()
	b.Close()
	if _, err := aip.LockWorker(root, "../x"); err == nil {
		t.Fatal("a worker name with a path was accepted")
	}
	l, err := aip.LockArchive(root)
	if err != nil {
		t.Fatalf("LockArchive after the workers left: %v", err)
	}
	l.Close()
}
