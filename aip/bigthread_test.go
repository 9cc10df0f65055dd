package aip_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
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

// peakHeap runs f and returns the largest heap in use sampled while it
// ran (every 5 ms).
func peakHeap(f func()) uint64 {
	runtime.GC()
	var peak uint64
	stop, done := make(chan bool), make(chan bool)
	go func() {
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
			select {
			case <-stop:
				close(done)
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	f()
	close(stop)
	<-done
	return peak
}

// BenchmarkWriteBigThread writes an Entry AIP of 10 000 comments, its METS
// validated, reporting the heap's peak.
func BenchmarkWriteBigThread(b *testing.B) {
	e := threadEntry(10000)
	var peak uint64
	for b.Loop() {
		w := &aip.Writer{Root: b.TempDir(), Now: fixedNow, ValidateEvery: 1}
		peak = max(peak, peakHeap(func() {
			if _, err := w.WriteEntry(context.Background(), e); err != nil {
				b.Fatal(err)
			}
		}))
		w.Close()
	}
	b.ReportMetric(float64(peak)/(1<<20), "peakheap-MB")
}

// BenchmarkCheckBigThread checks an Entry AIP of 2 000 comments,
// reporting the heap's peak.
func BenchmarkCheckBigThread(b *testing.B) {
	w := &aip.Writer{Root: b.TempDir(), Now: fixedNow, ValidateEvery: 1}
	res, err := w.WriteEntry(context.Background(), threadEntry(2000))
	if err != nil {
		b.Fatal(err)
	}
	w.Close()
	var peak uint64
	for b.Loop() {
		peak = max(peak, peakHeap(func() {
			if errs := aip.Check(res.Dir); len(errs) > 0 {
				b.Fatal(errs)
			}
		}))
	}
	b.ReportMetric(float64(peak)/(1<<20), "peakheap-MB")
}

// TestDeepReplyChain writes an entry of 270 short comments each
// answering the one before (a structMap 270 divs deep, its METS under
// 1 MiB), its METS validated: it is archived and checks clean (the
// validator parses no deeper than 256 elements: before, the entry was
// refused, "METS invalid: not well-formed: xml: exceeded max depth").
func TestDeepReplyChain(t *testing.T) {
	e := threadEntry(0)
	for i := range 270 { // short comments: the METS stays under 1 MiB
		c := blogharvest.Comment{ID: fmt.Sprintf("c%d", i), Content: "Yes.", ContentFormat: "text/plain"}
		if i > 0 {
			c.ParentID = fmt.Sprintf("c%d", i-1)
		}
		e.Comments = append(e.Comments, c)
	}
	w := &aip.Writer{Root: t.TempDir(), Now: fixedNow, ValidateEvery: 1}
	defer w.Close()
	res, err := w.WriteEntry(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	if errs := aip.Check(res.Dir); len(errs) > 0 {
		t.Error(errs)
	}
	if fi, err := os.Stat(filepath.Join(res.Dir, "data", "METS.xml")); err != nil || fi.Size() >= 1<<20 {
		t.Errorf("the METS is not the small document the test needs: %v, %v", fi.Size(), err)
	}
}
