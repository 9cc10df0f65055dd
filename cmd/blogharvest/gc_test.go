package main

import (
	"runtime/debug"
	"testing"
)

// TestDefaultGC: without GOGC in the environment the command collects at
// gcPercent; with it, whatever it says stays the runtime's.
func TestDefaultGC(t *testing.T) {
	prev := debug.SetGCPercent(100)
	defer debug.SetGCPercent(prev)
	defaultGC(func(string) (string, bool) { return "", false })
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("GOGC unset: GC percent %d, want %d", got, gcPercent)
	}
	defaultGC(func(k string) (string, bool) { return "100", k == "GOGC" })
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GOGC=100 set: GC percent %d, want it left at 100", got)
	}
}
