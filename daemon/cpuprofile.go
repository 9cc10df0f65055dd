package daemon

import (
	"fmt"
	"os"
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
