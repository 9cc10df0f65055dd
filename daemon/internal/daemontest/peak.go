package daemontest

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"time"
)

// WatchPeak samples the VmHWM (peak resident set, KiB) of process pid
// every 20 ms until it ends and then sends the last value read. The
// child's rusage cannot serve: it is started with vfork, so its ru_maxrss
// counts the test process's own memory.
func WatchPeak(pid int) <-chan int64 {
	out := make(chan int64, 1)
	go func() {
		var peak int64
		for {
			data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
			if err != nil || bytes.Contains(data, []byte("State:\tZ")) {
				out <- peak
				return
			}
			for _, line := range strings.Split(string(data), "\n") {
				if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
					fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(v), " kB"), &peak)
				}
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	return out
}
