package aip_test

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/aip"
	"github.com/blogharvest/blogharvest/warc"
	kgzip "github.com/klauspost/compress/gzip"
)

const goldenPage = "data/objects/page/notes-on-the-green-kettle.html"

// TestCheckWARCTiesFiles changes the captured page of an Entry AIP and
// covers every other track: METS CHECKSUM and PREMIS fixity rewritten,
// manifests rebuilt. Only the tie to the WARC record still knows what the
// server sent.
func TestCheckWARCTiesFiles(t *testing.T) {
	forEachBackend(t, func(t *testing.T, a *testArchive) {
		bag := tamperedBag(t, a)
		var forged []byte
		a.edit(t, bag, func(folder string) {
			page := filepath.Join(folder, goldenPage)
			old, err := os.ReadFile(page)
			must(t, err)
			forged = bytes.Replace(old, []byte("sang"), []byte("sung"), 1)
			must(t, os.WriteFile(page, forged, 0o644))
			replaceIn(t, filepath.Join(folder, "data/METS.xml"), sha256Hex(old), sha256Hex(forged))
			rebag(t, folder)
			for _, e := range aip.Check(folder) {
				if _, ok := e.(*aip.WARCError); !ok {
					t.Fatalf("the tampering left another trace, the test proves nothing: %v", e)
				}
			}
		})
		archiveFinds(t, a, bag, func(e *aip.WARCError) bool {
			return strings.Contains(e.Reason, "objects/page/notes-on-the-green-kettle.html has sha256 "+sha256Hex(forged))
		})
	})
}

// TestCheckWARCDigests changes one payload byte of the page's response
// record inside the WARC (the record's gzip member recompressed, manifests
// rebuilt): its WARC-Payload-Digest no longer matches.
func TestCheckWARCDigests(t *testing.T) {
	const warcFile = "data/objects/warc/notes-on-the-green-kettle-b7a8ef75.warc.gz"
	forEachBackend(t, func(t *testing.T, a *testArchive) {
		bag := tamperedBag(t, a)
		a.edit(t, bag, func(folder string) {
			w := filepath.Join(folder, warcFile)
			data, err := os.ReadFile(w)
			must(t, err)
			var out bytes.Buffer
			r := bytes.NewReader(data)
			for r.Len() > 0 { // member by member
				zr, err := gzip.NewReader(r)
				must(t, err)
				zr.Multistream(false)
				member, err := io.ReadAll(zr)
				must(t, err)
				zw := gzip.NewWriter(&out)
				zw.Write(bytes.Replace(member, []byte("The kettle sang"), []byte("The kettle sung"), 1))
				zw.Close()
			}
			must(t, os.WriteFile(w, out.Bytes(), 0o644))
			rebag(t, folder)
		})
		want := a.loc(goldenFinal + "/" + warcFile)
		archiveFinds(t, a, bag, func(e *aip.WARCError) bool {
			return e.Path == want && strings.Contains(e.Reason, "WARC-Payload-Digest")
		})
	})
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func replaceIn(t *testing.T, p, old, new string) {
	t.Helper()
	data, err := os.ReadFile(p)
	must(t, err)
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s does not hold %s", p, old)
	}
	must(t, os.WriteFile(p, bytes.ReplaceAll(data, []byte(old), []byte(new)), 0o644))
}

// TestCheckWARCHugeHeaderLine appends to the Entry AIP's WARC a gzip
// member of a few hundred kB whose WARC header has a line of 4 times
// warc.MaxHeader (64 MiB), manifests rebuilt: check reports the WARC,
// the record's offset and that its header is too large, having allocated
// less than the line's length in all (it read the line whole before,
// issue 38 finding 6). Local only: CheckStore checks each bag through a
// local copy with the same code.
func TestCheckWARCHugeHeaderLine(t *testing.T) {
	const warcFile = "data/objects/warc/notes-on-the-green-kettle-b7a8ef75.warc.gz"
	const n = 4 * warc.MaxHeader
	a := openArchive(t, "local")
	bag := tamperedBag(t, a)
	w := filepath.Join(bag, warcFile)
	data, err := os.ReadFile(w)
	must(t, err)
	var z bytes.Buffer
	zw, _ := kgzip.NewWriterLevel(&z, kgzip.BestSpeed)
	io.WriteString(zw, "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Target-URI: http://example.com/")
	io.Copy(zw, io.LimitReader(zeros{}, n)) // NUL bytes: no line end
	io.WriteString(zw, "\r\nContent-Length: 0\r\n\r\n\r\n\r\n")
	must(t, zw.Close())
	must(t, os.WriteFile(w, append(data, z.Bytes()...), 0o644))
	rebag(t, bag)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	errs := aip.Check(bag)
	runtime.ReadMemStats(&after)
	t.Logf("check allocated %d MiB in all (the line: %d MiB, in %d bytes of gzip)", (after.TotalAlloc-before.TotalAlloc)>>20, n>>20, z.Len())
	found := false
	for _, e := range errs {
		we := (*aip.WARCError)(nil)
		if errors.As(e, &we) && we.Path == w && strings.Contains(we.Reason, fmt.Sprintf("offset %d", len(data))) &&
			strings.Contains(we.Reason, warc.ErrHeaderTooLarge.Error()) {
			found = true
		}
	}
	if !found {
		t.Errorf("no WARCError naming %s, offset %d and a header too large: %v", w, len(data), errors.Join(errs...))
	}
	if got := after.TotalAlloc - before.TotalAlloc; got >= n {
		t.Errorf("check allocated %d MiB for a header bounded at %d MiB", got>>20, warc.MaxHeader>>20)
	}
}
