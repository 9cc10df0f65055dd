package main

import (
	"runtime"
	"runtime/debug"
	"sort"
)

// pinned are the modules whose versions the report names.
var pinned = []string{
	"github.com/markusmobius/go-trafilatura",
	"codeberg.org/readeck/go-readability/v2",
	"github.com/markusmobius/go-domdistiller",
}

// versions returns the Go version and the baselines' module versions as
// built into this binary.
func versions() map[string]string {
	out := map[string]string{"go": runtime.Version()}
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return out
	}
	for _, d := range info.Deps {
		for _, p := range pinned {
			if d.Path == p {
				out[p] = d.Version
			}
		}
	}
	return out
}

// sortedStrings returns m's keys sorted.
func sortedStrings(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
