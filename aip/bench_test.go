package aip_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/schemas"
)

// BenchmarkWriteEntry writes the fixture entry (nested comments, media,
// snapshots) as a new AIP each iteration, fsyncs included; it reports
// bytes/s of bag written, AIPs/s and the process's CPU time (user +
// system, getrusage) per AIP, which the fsyncs' waits do not blur, and
// its user part alone. One
// AIP is written before the timed ones: the first loads siegfried's
// signatures and compiles what is compiled once a process.
func BenchmarkWriteEntry(b *testing.B) {
	b.Run("validated", func(b *testing.B) { benchWriteEntry(b, 1) })
	b.Run("as-deployed", func(b *testing.B) { benchWriteEntry(b, 0) }) // Writer's default: no schema validation
}

// benchWriteEntry writes entries with w.ValidateEvery set to every.
func benchWriteEntry(b *testing.B, every int) {
	w := newWriter(b)
	w.ValidateEvery = every
	schemas.Validate(nil)
	var bytes int64
	i := 0
	warm := fixtureEntry()
	warm.URL += "bench-warm/"
	if _, err := w.WriteEntry(context.Background(), warm); err != nil {
		b.Fatal(err)
	}
	user0, sys0 := cpuTimes()
	for b.Loop() {
		e := fixtureEntry()
		e.URL = fmt.Sprintf("%sbench-%d/", e.URL, i)
		i++
		r, err := w.WriteEntry(context.Background(), e)
		if err != nil {
			b.Fatal(err)
		}
		bytes += r.Bytes
	}
	user, sys := cpuTimes()
	b.ReportMetric(float64(user-user0+sys-sys0)/1e6/float64(i), "cpu-ms/op")
	b.ReportMetric(float64(user-user0)/1e6/float64(i), "user-ms/op") // the kernel's part (the bag's inodes) varies most
	b.SetBytes(bytes / int64(i))
	b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "AIPs/s")
}

// BenchmarkUnchanged measures the cost of deciding that a re-captured entry
// needs no new version.
func BenchmarkUnchanged(b *testing.B) {
	w := newWriter(b)
	if _, err := w.WriteEntry(context.Background(), fixtureEntry()); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if r, err := w.WriteEntry(context.Background(), fixtureEntry()); err != nil || r.Written {
			b.Fatal(r, err)
		}
	}
}

// BenchmarkValidateMETS measures the schema validation of one Entry AIP's
// METS document, the validation cost paid per AIP before it is written.
func BenchmarkValidateMETS(b *testing.B) {
	m, _ := filepath.Glob(filepath.Join(validRoot, "garden/entries/2024/*/v1/data/METS.xml"))
	if len(m) != 1 {
		b.Fatal("no golden METS")
	}
	data, _ := os.ReadFile(m[0])
	schemas.Validate(data)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if p := schemas.Validate(data); len(p) > 0 {
			b.Fatal(p)
		}
	}
}

// BenchmarkCheck measures checking one Entry AIP: fixity, schemas, lint.
func BenchmarkCheck(b *testing.B) {
	m, _ := filepath.Glob(filepath.Join(validRoot, "garden/entries/2024/*/v1"))
	for b.Loop() {
		if errs := aip.Check(m[0]); len(errs) > 0 {
			b.Fatal(errs)
		}
	}
}
