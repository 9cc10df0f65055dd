package aip_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/internal/siegfried/pkg/static"
)

// TestSiegfriedFirstIdentificationAllocs bounds what siegfried allocates to
// load the compiled-in PRONOM signatures and make its first identification
// (which builds its Aho-Corasick automaton): 73 MB with upstream's
// richardlehane/match, whose every automaton node held a 2 KiB goto table;
// 15 MB with the copy in internal/match (doc/dependencies.md). A
// crawl keeps that automaton for its whole life, so it is a floor under the
// crawl's memory.
func TestSiegfriedFirstIdentificationAllocs(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	sf := static.New()
	ids, err := sf.Identify(strings.NewReader("<!DOCTYPE html><html><head><title>t</title></head><body>x</body></html>"), "a.html", "")
	runtime.ReadMemStats(&after)
	if err != nil || len(ids) == 0 || ids[0].String() != "fmt/471" {
		t.Fatalf("identified %v, %v; want fmt/471 (HTML 5)", ids, err)
	}
	const limit = 32 << 20
	if got := after.TotalAlloc - before.TotalAlloc; got > limit {
		t.Errorf("loading siegfried and identifying one HTML file allocated %d MB, want ≤ %d MB", got>>20, limit>>20)
	}
}
