//go:build !unix

package aip_test

import "time"

// cpuTime returns 0 where getrusage is not had: the benchmark's cpu-ms/op
// is then 0.
func cpuTime() time.Duration { return 0 }
