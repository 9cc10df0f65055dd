package daemon_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// BenchmarkExportJSONL exports a 10 000-entry archive as JSON Lines with
// the blogharvest binary and reports the process's peak resident set size
// (maxRSS-MB; the target is under 100 MB) and entries/s. The
// archive is the harvested sample blog's Entry AIPs, linked 10 000 times
// under distinct entry folders (their METS documents are what export
// reads).
func BenchmarkExportJSONL(b *testing.B) {
	src, _ := crawlDemo(b)
	archive := b.TempDir()
	const n = 10000
	if err := cloneEntries(src, filepath.Join(archive, "big"), n); err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(b.TempDir(), "corpus.jsonl")
	var rss int64
	for b.Loop() {
		cmd := exec.Command(binary, "export", archive, "-format", "jsonl", "-out", out)
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("export: %v\n%s", err, msg)
		}
		rss = max(rss, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss) // KiB on Linux
	}
	fi, err := os.Stat(out)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(rss)/1024, "maxRSS-MB")
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "entries/s")
	b.ReportMetric(float64(fi.Size())/(1<<20), "output-MB")
}

// cloneEntries makes n entry folders under dst/entries whose METS.xml is a
// hard link to one of the Entry AIPs' under src, in turn.
func cloneEntries(src, dst string, n int) error {
	mets, err := filepath.Glob(filepath.Join(src, "*", "entries", "*", "*", "v1", "data", "METS.xml"))
	if err != nil || len(mets) == 0 {
		return fmt.Errorf("no Entry AIPs under %s (%v)", src, err)
	}
	for i := range n {
		data := filepath.Join(dst, "entries", fmt.Sprintf("%04d", 2000+i%10), fmt.Sprintf("entry-%05d", i), "v1", "data")
		if err := os.MkdirAll(data, 0o755); err != nil {
			return err
		}
		if err := os.Link(mets[i%len(mets)], filepath.Join(data, "METS.xml")); err != nil {
			return err
		}
	}
	return nil
}
