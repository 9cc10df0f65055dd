//go:build unix

package aip_test

import (
	"syscall"
	"time"
)

// cpuTimes returns the process's user and system CPU time so far, apart.
func cpuTimes() (user, sys time.Duration) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, 0
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}
