package aip_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest"
	"github.com/blogharvest/blogharvest/aip"
)

// threadEntry returns the fixture entry with n comments, every fifth
// answering the one before it, each with its provenance.
func threadEntry(n int) *blogharvest.Entry {
	e := fixtureEntry()
	u := e.URL
	e.Comments = e.Comments[:0]
	for i := 1; i <= n; i++ {
		c := blogharvest.Comment{ID: fmt.Sprintf("comment-%d", i), URL: fmt.Sprintf("%s#comment-%d", u, i),
			Author: fmt.Sprintf("Reader %d", i%97), Content: fmt.Sprintf("Comment %d says something.", i),
			ContentFormat: "text/html", Added: e.Created.Add(time.Duration(i) * time.Minute), PostURL: u,
			Provenance: blogharvest.Provenance{"author": blogharvest.MethodFeed, "full_content": blogharvest.MethodFeed}}
		if i%5 == 0 {
			c.ParentID, c.ParentURL = fmt.Sprintf("comment-%d", i-1), fmt.Sprintf("%s#comment-%d", u, i-1)
		}
		e.Comments = append(e.Comments, c)
	}
	e.NumReplies = n
	return e
}

// BenchmarkBigThread writes an Entry AIP of 2 000 comments (METS
// validated) and checks it, reporting the heap's peak growth.
func BenchmarkBigThread(b *testing.B) {
	for b.Loop() {
		w := &aip.Writer{Root: b.TempDir(), Now: fixedNow, ValidateEvery: 1}
		res, err := w.WriteEntry(context.Background(), threadEntry(2000))
		if err != nil {
			b.Fatal(err)
		}
		if errs := aip.Check(res.Dir); len(errs) > 0 {
			b.Fatal(errs)
		}
		w.Close()
	}
}

var _ = os.Stat
var _ = filepath.Join
var _ = runtime.GC

// BenchmarkCheckBigThread checks an Entry AIP of 2 000 comments.
func BenchmarkCheckBigThread(b *testing.B) {
	w := &aip.Writer{Root: b.TempDir(), Now: fixedNow, ValidateEvery: 1}
	res, err := w.WriteEntry(context.Background(), threadEntry(2000))
	if err != nil {
		b.Fatal(err)
	}
	w.Close()
	runtime.GC()
	var peak uint64
	dumped := false
	stop := make(chan bool)
	go func() {
		var m runtime.MemStats
		for {
			select {
			case <-stop:
				stop <- true
				return
			case <-time.After(5 * time.Millisecond):
			}
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
			if m.HeapAlloc > 200<<20 && !dumped {
				dumped = true
				runtime.GC()
				f, _ := os.Create("/tmp/h-mets-heap.out")
				pprof.WriteHeapProfile(f)
				f.Close()
			}
		}
	}()
	b.ResetTimer()
	for b.Loop() {
		if errs := aip.Check(res.Dir); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
	stop <- true
	<-stop
	b.ReportMetric(float64(peak)/(1<<20), "peakheap-MB")
}
