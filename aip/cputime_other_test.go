//go:build !unix

package aip_test

import "time"

// cpuTimes returns 0, 0 where getrusage is not had: the benchmark's
// cpu-ms/op and user-ms/op are then 0.
func cpuTimes() (user, sys time.Duration) { return 0, 0 }
