package copies

import (
	"bytes"
	"runtime"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/internal/siegfried/pkg/static"
)

// TestSiegfriedLiveHeap bounds what the patched siegfried keeps live once
// it has loaded the compiled-in PRONOM signatures and made its first
// identification (which builds its Aho-Corasick automaton): a crawl holds
// it for its whole life, at its peak too (issue 43: thaumatorium's crawl
// peaks as its first bags are identified). 17.7 MB when every automaton
// node with more than one key held a 2 KiB goto table and every BMH
// sequence a 2 KiB shift table (int); 12.3 MB with tables only for nodes
// of more than 8 keys (match.patch), 16.0 MB with int32 shifts only
// (siegfried.patch), 10.6 MB with both; 9.1 MB at 472d155 and 7.3 MB with
// a node's lists of keys and gotos only for nodes with more than one key
// (match.patch, issue 43's twelfth pass).
func TestSiegfriedLiveHeap(t *testing.T) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	sf := static.New()
	ids, err := sf.Identify(strings.NewReader(htmlPage), "a.html", "")
	if err != nil || len(ids) == 0 || ids[0].String() != "fmt/471" {
		t.Fatalf("identified %v, %v; want fmt/471 (HTML 5)", ids, err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(sf)
	live := int64(after.HeapAlloc) - int64(before.HeapAlloc)
	t.Logf("siegfried's live heap after its first identification: %.1f MB", float64(live)/(1<<20))
	const limit = 12 << 20
	if live > limit {
		t.Errorf("siegfried keeps %.1f MB live after loading and one identification, want ≤ %d MB", float64(live)/(1<<20), limit>>20)
	}
}

// htmlPage is a small HTML 5 page (PRONOM fmt/471).
const htmlPage = "<!DOCTYPE html><html><head><title>t</title></head><body>x</body></html>"

// BenchmarkSiegfriedIdentify identifies a 200 KB HTML page, the kind of
// file a crawl identifies most: the automaton's lookups (a scan of up to 8
// keys instead of a table in the nodes with 2 to 8) are on this path.
func BenchmarkSiegfriedIdentify(b *testing.B) {
	sf := static.New()
	var page bytes.Buffer
	page.WriteString("<!DOCTYPE html><html><head><title>t</title></head><body>")
	for page.Len() < 200<<10 {
		page.WriteString("<p>Lorem ipsum dolor sit amet, <a href=\"/x\">consectetur</a> adipiscing elit &amp; more.</p>\n")
	}
	page.WriteString("</body></html>")
	b.SetBytes(int64(page.Len()))
	for b.Loop() {
		if _, err := sf.Identify(bytes.NewReader(page.Bytes()), "a.html", ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSiegfriedFirstIdentify times siegfried's first identification
// of a small HTML page after the load (not timed): what it builds then,
// mostly the byte matcher's Aho-Corasick automaton (dwac.New), which a
// crawl pays once. Besides go test's figures it reports cpu-ns/op (see
// BenchmarkSiegfriedLoad).
func BenchmarkSiegfriedFirstIdentify(b *testing.B) {
	b.ReportAllocs()
	var cpu int64
	for b.Loop() {
		b.StopTimer()
		sf := static.New()
		start := cpuTime()
		b.StartTimer()
		if _, err := sf.Identify(strings.NewReader(htmlPage), "a.html", ""); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - start
	}
	b.ReportMetric(float64(cpu)/float64(b.N), "cpu-ns/op")
}
