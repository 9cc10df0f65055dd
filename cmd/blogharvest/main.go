// Command blogharvest preserves blogs as Archival Information Packages.
// Run "blogharvest -h" for its subcommands.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/blogharvest/blogharvest/cmd/blogharvest/internal/gcearly"
	"github.com/blogharvest/blogharvest/daemon"
)

// gcPercent is the garbage collector's GOGC when the environment sets
// none (gcearly.Percent, set there already in an init that runs before the
// heavy packages' inits).
const gcPercent = gcearly.Percent

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
