// Package gcearly sets the command's garbage-collector percentage in its
// init, before the heavy package inits: without GOGC in the environment
// the runtime starts at GOGC=100, and the inits of the packages linked
// into blogharvest (nats-server, minio-go, helium, gonum plot…) allocate
// enough to start a collection at that setting, in every process, before
// main could set Percent (doc/benchmarks.md, "Twelfth pass": about 3 % of
// `blogharvest version`'s CPU). Go runs a package's init once its imports
// are initialized, choosing among the ready packages by import path; this
// one waits for runtime/debug, whose late path puts it after some
// third-party inits (0.9 MB allocated before it, helium's xsd/value among
// them) but before gonum plot's, minio-go's and nats-server's, and before
// the runtime's first collection at GOGC=100 (TestNothingHeavyAtInit in
// cmd/blogharvest checks it). main imports it for that effect and uses
// Percent; it keeps its own check of the environment (defaultGC), which
// also decides the memory limit.
package gcearly

import (
	"os"
	"runtime/debug"
)

// Percent is the garbage collector's GOGC when the environment sets none:
// a crawl allocates about 3 MB per archived post (parse trees, WARC
// records, METS), nearly all of it garbage at once, and the runtime's
// default of 100 spent 481 ms of CPU in 41 collections on the lahso crawl
// of the corpus (GODEBUG=gctrace=1, its cpu times summed), 200 spent 234
// ms in 19, for a maximum resident set of 129 MB instead of 99
// (doc/benchmarks.md, "Fifth pass"). 400 was measured again on issue 43's
// small blogs and did not pay (doc/benchmarks.md, "Twelfth pass").
const Percent = 200

func init() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(Percent)
	}
}
