package aip

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
)

// TestDiskFull makes the third file of a bag land on /dev/full, where the
// kernel answers every write with a real ENOSPC. The write must fail with a
// transient error naming the full disk, and leave no bag and no leftovers.
//
// Local only: ENOSPC from /dev/full is a file system's failure.
func TestDiskFull(t *testing.T) {
	if _, err := os.Stat("/dev/full"); err != nil {
		t.Skip("/dev/full absent")
	}
	var n atomic.Int32
	orig := createAt
	createAt = func(dirfd int, name string, mode uint32) (int, error) {
		if n.Add(1) == 3 {
			return syscall.Open("/dev/full", syscall.O_WRONLY|syscall.O_CLOEXEC, 0)
		}
		return orig(dirfd, name, mode)
	}
	defer func() { createAt = orig }()

	root := t.TempDir()
	w := &Writer{Root: root, Now: func() time.Time { return time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC) }}
	e := &blogharvest.Entry{BlogID: "b", Kind: blogharvest.KindPost, URL: "https://b.example/p/", Title: "P",
		Files: []blogharvest.File{{URL: "https://b.example/p/", Role: blogharvest.RolePage, Body: []byte("<p>x</p>"), Size: 8}}}
	_, err := w.WriteEntry(context.Background(), e)
	if err == nil {
		t.Fatal("write to a full disk succeeded")
	}
	if !errors.Is(err, syscall.ENOSPC) || !blogharvest.IsTransient(err) {
		t.Errorf("err = %v; want a transient error wrapping ENOSPC", err)
	}
	if ents, _ := os.ReadDir(filepath.Join(root, TmpDir)); len(ents) != 0 {
		t.Errorf(".tmp holds %d leftovers", len(ents))
	}
	dir, _ := EntryDir(root, e)
	if v, _ := LatestVersion(dir); v != 0 {
		t.Errorf("version %d written", v)
	}
	// The disk has room again: the retry succeeds.
	createAt = orig
	if r, err := w.WriteEntry(context.Background(), e); err != nil || r.Version != 1 {
		t.Errorf("retry: %+v, %v", r, err)
	}
}
