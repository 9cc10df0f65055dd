// Command launch runs a command and prints its CPU time (user+sys, in
// microseconds) and its peak RSS (ru_maxrss, KiB) from wait4, for
// BenchmarkStartup. It exists because a process started by the benchmark
// itself would report the benchmark's peak RSS: Go starts children with
// vfork, and Linux keeps the larger peak across exec. A child of this small
// program inherits at most this program's own peak (about 3 MB).
package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
)

func main() {
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "%v\n%s", err, out)
		os.Exit(1)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	fmt.Println((syscall.TimevalToNsec(ru.Utime)+syscall.TimevalToNsec(ru.Stime))/1000, ru.Maxrss)
}
