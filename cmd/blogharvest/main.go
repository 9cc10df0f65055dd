// Command blogharvest preserves blogs as Archival Information Packages.
// Run "blogharvest -h" for its subcommands.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/blogharvest/blogharvest/daemon"
)

func main() {
	ctx, stop := daemon.SignalContext(context.Background(), os.Stderr, syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	os.Exit(daemon.Main(ctx, os.Args[1:], daemon.IO{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Reload: hup}))
}
