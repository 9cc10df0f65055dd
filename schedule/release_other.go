//go:build !linux

package schedule

// ReleaseMapped drops the state file's pages from the process's memory
// map on Linux (release_linux.go); elsewhere it does nothing.
func (s *Store) ReleaseMapped() error { return nil }
