//go:build unix

package daemon

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) the process has spent
// so far, and false where the system does not say.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
