package aip_test

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/aip"
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
