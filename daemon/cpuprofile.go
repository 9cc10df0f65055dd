package daemon

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// startCPUProfile starts writing a CPU profile to name (crawl -cpuprofile)
// and returns the function that ends it.
func startCPUProfile(name string) (stop func(), err error) {
	f, err := os.Create(name)
	if err != nil {
		return nil, fmt.Errorf("-cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("-cpuprofile %s: %w", name, err)
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}, nil
}

// startMemProfile creates name (crawl -memprofile) and returns the
// function that writes the heap profile into it at the command's end:
// every allocation since the process began (alloc_space, alloc_objects)
// and what is still live (inuse_space), sampled at the runtime's default
// rate.
func startMemProfile(name string) (stop func(), err error) {
	f, err := os.Create(name)
	if err != nil {
		return nil, fmt.Errorf("-memprofile: %w", err)
	}
	return func() {
		runtime.GC() // the live figures as of the end
		if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
			fmt.Fprintf(os.Stderr, "-memprofile %s: %v\n", name, err)
		}
		f.Close()
	}, nil
}
