package daemon_test

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"

	"github.com/blogharvest/blogharvest/daemon/internal/daemontest"
	"github.com/blogharvest/blogharvest/internal/fixture"
)

// TestCrawlCPUProfile: crawl -cpuprofile FILE writes a CPU profile (a
// gzipped protocol buffer, as runtime/pprof writes it, whose string table
// names the profile's sample type); a file that cannot be created fails the
// command.
func TestCrawlCPUProfile(t *testing.T) {
	t.Parallel()
	site := fixture.MustNew("static")
	blog := httptest.NewServer(site.Handler())
	defer blog.Close()
	dir := t.TempDir()
	prof := filepath.Join(dir, "cpu.out")
	code, stdout, stderr := daemontest.Run(t, "crawl", "-url", blog.URL+"/", "-id", "prof", "-out", filepath.Join(dir, "archive"),
		"-delay", "1ms", "-render", "never", "-cpuprofile", prof)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, daemontest.LastLines(stderr, 10))
	}
	data, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("%s (%d bytes) is not gzipped: %v", prof, len(data), err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil || !bytes.Contains(raw, []byte("samples")) || !bytes.Contains(raw, []byte("nanoseconds")) {
		t.Errorf("%s: %d bytes, %v: not a CPU profile (no \"samples\"/\"nanoseconds\" sample type)", prof, len(raw), err)
	}
	if code, _, _ := daemontest.Run(t, "crawl", "-url", blog.URL+"/", "-out", filepath.Join(dir, "b"), "-cpuprofile", filepath.Join(dir, "no", "such", "dir", "cpu.out")); code == 0 {
		t.Error("an uncreatable -cpuprofile file: exit 0")
	}
}
