//go:build !unix

package daemon

import "time"

// processCPU returns false: getrusage is a Unix call, and crawl's lines
// leave the CPU out here.
func processCPU() (time.Duration, bool) { return 0, false }
