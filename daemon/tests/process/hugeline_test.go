package process_test

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	kgzip "github.com/klauspost/compress/gzip"
)

// picBlog is threadBlog with a picture in each post, served with an
// ETag, so that an update reads the archived version's WARC to reuse it.
type picBlog struct{ threadBlog }

func (b picBlog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/pic.png":
		w.Header().Set("Content-Type", "image/png")
		w.Header().Set("ETag", `"pic1"`)
		if r.Header.Get("If-None-Match") == `"pic1"` {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Write(append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte("picture"), 200)...))
	case strings.HasPrefix(r.URL.Path, "/post-"):
		rec := httptest.NewRecorder()
		b.threadBlog.ServeHTTP(rec, r)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, strings.Replace(rec.Body.String(), "<div class=\"entry-content\">",
			"<div class=\"entry-content\"><p><img src=\"/pic.png\" alt=\"a picture\"></p>", 1))
	default:
		b.threadBlog.ServeHTTP(w, r)
	}
}

// rebagFile brings the manifests, Payload-Oxum and tag manifests of bag
// up to date after the payload file rel (data/…) changed size from old.
func rebagFile(t *testing.T, bag, rel string, old int64) {
	t.Helper()
	info, err := os.Stat(filepath.Join(bag, rel))
	if err != nil {
		t.Fatal(err)
	}
	sum := func(name string, h hash.Hash) string {
		f, err := os.Open(filepath.Join(bag, name))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		io.Copy(h, f)
		return hex.EncodeToString(h.Sum(nil))
	}
	hashes := map[string]func() hash.Hash{"sha256": sha256.New, "sha512": sha512.New}
	relist := func(manifest string, names ...string) {
		p := filepath.Join(bag, manifest)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		alg := strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(manifest, "tag"), "manifest-"), ".txt")
		lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		for i, l := range lines {
			for _, n := range names {
				if strings.HasSuffix(l, "  "+n) {
					lines[i] = sum(n, hashes[alg]()) + "  " + n
				}
			}
		}
		if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	relist("manifest-sha256.txt", rel)
	relist("manifest-sha512.txt", rel)
	p := filepath.Join(bag, "bag-info.txt")
	data, _ := os.ReadFile(p)
	data = regexp.MustCompile(`Payload-Oxum: (\d+)\.`).ReplaceAllFunc(data, func(m []byte) []byte {
		n, _ := strconv.ParseInt(string(m[len("Payload-Oxum: "):len(m)-1]), 10, 64)
		return []byte(fmt.Sprintf("Payload-Oxum: %d.", n+info.Size()-old))
	})
	os.WriteFile(p, data, 0o644)
	relist("tagmanifest-sha256.txt", "manifest-sha256.txt", "manifest-sha512.txt", "bag-info.txt")
	relist("tagmanifest-sha512.txt", "manifest-sha256.txt", "manifest-sha512.txt", "bag-info.txt")
}

// TestHugeWARCHeaderLine (issue 38 finding 6): a blog of two posts with a
// picture each is crawled; a gzip member whose WARC header holds a line
// of 512 MiB (about 0.5 MB of gzip) is put first in one post's WARC, the
// bag's manifests brought up to date. check, through the binary, names
// the WARC, the offset 0 and the header too large, its peak resident set
// under 300 MiB (gowarc read the line whole: 2 638 MiB). An update's
// reading of the WARC for reuse is aip's TestReuseSkipsHugeHeaderLine.
func TestHugeWARCHeaderLine(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(picBlog{threadBlog{n: 3}})
	defer srv.Close()
	out := t.TempDir()
	args := []string{"crawl", "-url", srv.URL + "/", "-out", out, "-delay", "1ms", "-render", "never"}
	if code, msg, _ := runPeak(t, args...); code != 0 {
		t.Fatalf("crawl: exit %d\n%s", code, msg)
	}
	warcs, _ := filepath.Glob(filepath.Join(out, "*", "entries", "*", "post-1-*", "v1", "data", "objects", "warc", "*.warc.gz"))
	if len(warcs) != 1 {
		t.Fatalf("WARCs of post 1: %v", warcs)
	}
	orig, err := os.ReadFile(warcs[0])
	if err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	zw, _ := kgzip.NewWriterLevel(&z, kgzip.BestSpeed)
	io.WriteString(zw, "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: "+srv.URL+"/pic.png?")
	io.Copy(zw, io.LimitReader(zeros{}, 512<<20))
	io.WriteString(zw, "\r\nContent-Length: 0\r\n\r\n\r\n\r\n")
	zw.Close()
	if err := os.WriteFile(warcs[0], append(z.Bytes(), orig...), 0o644); err != nil {
		t.Fatal(err)
	}
	bag := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(warcs[0]))))
	rel, _ := filepath.Rel(bag, warcs[0])
	rebagFile(t, bag, filepath.ToSlash(rel), int64(len(orig)))

	code, msg, checkPeak := runPeak(t, "check", out)
	if code == 0 || !strings.Contains(msg, filepath.Base(warcs[0])) || !strings.Contains(msg, "offset 0") ||
		!strings.Contains(msg, "header too large") {
		t.Errorf("check: exit %d; want a problem naming %s, offset 0 and the header too large:\n%s", code, filepath.Base(warcs[0]), msg)
	}
	t.Logf("the gzip member: %d bytes; check's peak RSS %d MiB", z.Len(), checkPeak)
	if checkPeak > 300 {
		t.Errorf("check's peak RSS %d MiB; want at most 300 MiB", checkPeak)
	}
}

// zeros reads as NUL bytes without end (no line break).
type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }
