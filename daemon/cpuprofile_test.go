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
// names the profile's sample type) and -memprofile FILE a heap profile
// (allocations and live heap); a file that cannot be created fails the
// command.
func TestCrawlCPUProfile(t *testing.T) {
	t.Parallel()
	site := fixture.MustNew("static")
	blog := httptest.NewServer(site.Handler())
	defer blog.Close()
	dir := t.TempDir()
	prof, mem := filepath.Join(dir, "cpu.out"), filepath.Join(dir, "mem.out")
	code, stdout, stderr := daemontest.Run(t, "crawl", "-url", blog.URL+"/", "-id", "prof", "-out", filepath.Join(dir, "archive"),
		"-delay", "1ms", "-render", "never", "-cpuprofile", prof, "-memprofile", mem)
	if code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, daemontest.LastLines(stderr, 10))
	}
	for _, c := range []struct {
		file, what string
		types      []string
	}{{prof, "CPU", []string{"samples", "nanoseconds"}}, {mem, "heap", []string{"alloc_space", "inuse_space"}}} {
		data, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s (%d bytes) is not gzipped: %v", c.file, len(data), err)
		}
		raw, err := io.ReadAll(zr)
		for _, ty := range c.types {
			if err != nil || !bytes.Contains(raw, []byte(ty)) {
				t.Errorf("%s: %d bytes, %v: not a %s profile (no %q sample type)", c.file, len(raw), err, c.what, ty)
			}
		}
	}
	if code, _, _ := daemontest.Run(t, "crawl", "-url", blog.URL+"/", "-out", filepath.Join(dir, "b"), "-cpuprofile", filepath.Join(dir, "no", "such", "dir", "cpu.out")); code == 0 {
		t.Error("an uncreatable -cpuprofile file: exit 0")
	}
}
