package aip_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/warc"
)

// zeros reads as an endless run of zero bytes.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

// TestReuseStreamsBombWARC: an archived version's WARC starting with a
// gzip member of about 1 MB that inflates to one 1 GiB response record
// (for the very picture reused) is streamed: reading the version for reuse
// allocates a bounded amount in all (runtime.MemStats.TotalAlloc grows by
// less than 64 MiB, the heap obtained from the system by less than
// 128 MiB), the oversized record is not reused, and the picture's true
// record further on still is.
//
// Local only: the reused file comes back as a path on disk (File.Path); media reuse over both stores is TestStoreReaders.
func TestReuseStreamsBombWARC(t *testing.T) {
	if testing.Short() {
		t.Skip("inflates 1 GiB")
	}
	root := t.TempDir()
	first := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	w := &aip.Writer{Root: root, Now: func() time.Time { return first }}
	defer w.Close()
	e := reuseEntry(first, 0)
	res, err := w.WriteEntry(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	names, _ := filepath.Glob(filepath.Join(res.Dir, "data", "objects", "warc", "*.warc.gz"))
	if len(names) != 1 {
		t.Fatalf("WARC files %v", names)
	}
	orig, err := os.ReadFile(names[0])
	if err != nil {
		t.Fatal(err)
	}
	const size = 1 << 30
	http := "HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n"
	var bomb bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&bomb, gzip.BestCompression)
	fmt.Fprintf(gz, "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000b0b>\r\n"+
		"WARC-Date: 2024-05-06T07:08:09Z\r\nWARC-Target-URI: %s\r\nContent-Type: application/http;msgtype=response\r\n"+
		"Content-Length: %d\r\n\r\n%s", e.Files[1].URL, len(http)+size, http)
	if _, err := io.CopyN(gz, zeros{}, size); err != nil {
		t.Fatal(err)
	}
	io.WriteString(gz, "\r\n\r\n")
	gz.Close()
	t.Logf("bomb: %d bytes of gzip for a %d-byte record", bomb.Len(), size)
	if err := os.WriteFile(names[0], append(bomb.Bytes(), orig...), 0o644); err != nil {
		t.Fatal(err)
	}

	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := aip.ArchivedMedia(&aip.Local{Root: root}, e)
	runtime.ReadMemStats(&after)
	alloc, sys := after.TotalAlloc-before.TotalAlloc, int64(after.HeapSys)-int64(before.HeapSys)
	t.Logf("reading the version for reuse: %d MiB allocated in all, heap from the system grew %d MiB",
		alloc>>20, sys>>20)
	if alloc > 64<<20 || sys > 128<<20 {
		t.Errorf("memory grew with the bomb: %d MiB allocated, heap grew %d MiB", alloc>>20, sys>>20)
	}
	if err != nil || len(got) != 1 || got[0].Reused == "urn:uuid:00000000-0000-4000-8000-000000000b0b" {
		t.Fatalf("ArchivedMedia: %+v, %v; want the picture's true record", got, err)
	}
}

// TestReuseSkipsHugeHeaderLine: an archived version's WARC starting with
// a gzip member of about 66 kB whose WARC header holds a 64 MiB line (4
// times warc.MaxHeader; issue 38 finding 6 had 1 GiB) is read for reuse
// with a bounded allocation (less than the line's length in all): the
// record is skipped and the picture's true record further on reused.
func TestReuseSkipsHugeHeaderLine(t *testing.T) {
	root := t.TempDir()
	first := time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)
	w := &aip.Writer{Root: root, Now: func() time.Time { return first }}
	defer w.Close()
	e := reuseEntry(first, 0)
	res, err := w.WriteEntry(context.Background(), e)
	if err != nil {
		t.Fatal(err)
	}
	names, _ := filepath.Glob(filepath.Join(res.Dir, "data", "objects", "warc", "*.warc.gz"))
	if len(names) != 1 {
		t.Fatalf("WARC files %v", names)
	}
	orig, err := os.ReadFile(names[0])
	if err != nil {
		t.Fatal(err)
	}
	const size = 4 * warc.MaxHeader
	var bad bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&bad, gzip.BestCompression)
	fmt.Fprintf(gz, "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: %s?", e.Files[1].URL)
	io.CopyN(gz, zeros{}, size)
	io.WriteString(gz, "\r\nContent-Length: 0\r\n\r\n\r\n\r\n")
	gz.Close()
	if err := os.WriteFile(names[0], append(bad.Bytes(), orig...), 0o644); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	got, err := aip.ArchivedMedia(&aip.Local{Root: root}, e)
	runtime.ReadMemStats(&after)
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("reading the version for reuse: %d MiB allocated in all (the line: %d MiB in %d bytes of gzip)", alloc>>20, size>>20, bad.Len())
	if alloc >= size {
		t.Errorf("memory grew with the line: %d MiB allocated", alloc>>20)
	}
	if err != nil || len(got) != 1 || got[0].Reused == "" {
		t.Fatalf("ArchivedMedia: %+v, %v; want the picture's true record", got, err)
	}
}
