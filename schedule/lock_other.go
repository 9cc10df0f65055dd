//go:build !unix

package schedule

import (
	"os"
	"time"
)

// lockFile is a no-op where flock is not available; bbolt's own lock still
// guards the file once it is open.
func lockFile(f *os.File, exclusive bool, timeout time.Duration) error { return nil }
