package schedule

import (
	"fmt"
	"syscall"

	bolt "go.etcd.io/bbolt"
)

// ReleaseMapped drops the state file's pages from the process's memory
// map (madvise MADV_DONTNEED over bbolt's read-only shared mapping): they
// stay in the page cache, and a later read maps the page it needs again
// (a minor fault). bbolt reads the file through that mapping, so every
// page a read ever touched counted in the process's resident set: a
// 100 000-blog scheduler held 202–229 MB of its state file mapped, most of
// it read once at start-up or at each blog's run and not again for a day
// (BenchmarkScale, doc/scale.md). Writes do not go through the mapping
// (bbolt writes with pwrite), so nothing is lost. It holds a read
// transaction, during which bbolt cannot remap the file.
func (s *Store) ReleaseMapped() error {
	return s.db.View(func(tx *bolt.Tx) error {
		info := s.db.Info()
		if info == nil || info.Data == 0 || tx.Size() <= 0 {
			return nil
		}
		if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, info.Data, uintptr(tx.Size()), syscall.MADV_DONTNEED); e != 0 {
			return fmt.Errorf("state file %s: release mapped pages: %w", s.path, e)
		}
		return nil
	})
}
