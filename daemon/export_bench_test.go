package daemon_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
)

// BenchmarkExportJSONL exports a 10 000-entry archive as JSON Lines with
// the blogharvest binary and reports the process's peak resident set size
// (maxRSS-MB, its VmHWM; the target is under 100 MB) and
// entries/s. The
// archive is the harvested sample blog's Entry AIPs, linked 10 000 times
// under distinct entry folders (their METS documents are what export
// reads).
func BenchmarkExportJSONL(b *testing.B) {
	src, _ := daemontest.CrawlDemo(b)
	archive := b.TempDir()
	const n = 10000
	if err := cloneEntries(src, filepath.Join(archive, "big"), n); err != nil {
		b.Fatal(err)
	}
	out := filepath.Join(b.TempDir(), "corpus.jsonl")
	var rss int64
	for b.Loop() {
		cmd := exec.Command(daemontest.Binary(), "export", archive, "-format", "jsonl", "-out", out)
		var msg bytes.Buffer
		cmd.Stdout, cmd.Stderr = &msg, &msg
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		peak := daemontest.WatchPeak(cmd.Process.Pid)
		if err := cmd.Wait(); err != nil {
			b.Fatalf("export: %v\n%s", err, msg.String())
		}
		rss = max(rss, <-peak)
	}
	fi, err := os.Stat(out)
	if err != nil {
		b.Fatal(err)
	}
	if rss == 0 {
		b.Skip("no /proc/<pid>/status to read the peak resident set from")
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
