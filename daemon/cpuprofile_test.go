package daemon_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"sync/atomic"
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

// TestCrawlCostPerBlog: crawl -config of two blogs (the same site under
// two ids, one after the other in one process) prints, on each blog's
// line, the requests its run made, which add up to those the site
// served, and the CPU the process spent while it ran; its -cpuprofile
// holds samples labelled with each blog's id (blog=ID, go tool pprof
// -tagfocus), found in the profile's string table, which holds the
// labels of its samples only. The command runs as its own process, so
// that the profile is its alone.
func TestCrawlCostPerBlog(t *testing.T) {
	t.Parallel()
	site := fixture.MustNew("wordpress")
	var served atomic.Int64
	h := site.Handler()
	blog := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		served.Add(1)
		h.ServeHTTP(w, r)
	}))
	defer blog.Close()
	dir := t.TempDir()
	ids := []string{"pprof-first", "pprof-second"}
	y := fmt.Sprintf("archive: %s\nstate: %s\nblogs:\n", filepath.Join(dir, "archive"), filepath.Join(dir, "state.db"))
	for _, id := range ids {
		y += fmt.Sprintf("  - id: %s\n    url: %s/\n    delay: 0s\n    render: never\n", id, blog.URL)
	}
	cfg, prof := filepath.Join(dir, "blogs.yaml"), filepath.Join(dir, "cpu.out")
	if err := os.WriteFile(cfg, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(daemontest.Binary(), "crawl", "-config", cfg, "-cpuprofile", prof).CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, daemontest.LastLines(string(out), 20))
	}
	line := regexp.MustCompile(`(?m)^([a-z-]+): [1-9]\d* entry AIPs written, .* of payload, (\d+) requests, CPU (\d+\.\d{3}) s$`)
	requests := map[string]int{}
	total := 0
	for _, m := range line.FindAllStringSubmatch(string(out), -1) {
		n, _ := strconv.Atoi(m[2])
		requests[m[1]] = n
		total += n
		if cpu, _ := strconv.ParseFloat(m[3], 64); cpu <= 0 {
			t.Errorf("%s: CPU %s s", m[1], m[3])
		}
	}
	if len(requests) != len(ids) || requests[ids[0]] == 0 || requests[ids[0]] != requests[ids[1]] || int64(total) != served.Load() {
		t.Errorf("requests per blog %v (the site served %d), want two equal that add up to it; output:\n%s", requests, served.Load(), out)
	}
	data, err := os.ReadFile(prof)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ids {
		if !bytes.Contains(raw, []byte(s)) {
			t.Errorf("the profile (%d bytes) holds no sample labelled with %q", len(raw), s)
		}
	}
}
