// Command blogharvest preserves blogs as Archival Information Packages.
// Run "blogharvest -h" for its subcommands.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/blogharvest/blogharvest/daemon"
)

// gcPercent is the garbage collector's GOGC when the environment sets
// none: a crawl allocates about 3 MB per archived post (parse trees, WARC
// records, METS), nearly all of it garbage at once, and the runtime's
// default of 100 spent 481 ms of CPU in 41 collections on the lahso crawl
// of the corpus (GODEBUG=gctrace=1, its cpu times summed), 200 spent 234
// ms in 19, for a maximum resident set of 129 MB instead of 99
// (doc/benchmarks.md, "Fifth pass").
const gcPercent = 200

func main() {
	if defaultGC(os.LookupEnv) {
		startMemoryTuner()
	}
	ctx, stop := daemon.SignalContext(context.Background(), os.Stderr, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	os.Exit(daemon.Main(ctx, os.Args[1:], daemon.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Reload: hup}))
}

// defaultGC sets GOGC to gcPercent unless lookupEnv finds GOGC set: an
// operator's own setting (GOGC=100, GOGC=off) is the runtime's to apply.
// With neither GOGC nor GOMEMLIMIT set it also keeps a soft memory limit
// (memlimit.go: softLimit while the live heap is small, then the live heap
// plus its growth room, limitFor) and reports true.
func defaultGC(lookupEnv func(string) (string, bool)) (tune bool) {
	_, gogc := lookupEnv("GOGC")
	if !gogc {
		debug.SetGCPercent(gcPercent)
	}
	_, limit := lookupEnv("GOMEMLIMIT")
	return !gogc && !limit
}
