package aip

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzBagTagFiles feeds any bagit.txt, bag-info.txt and manifest to the
// tag-file parsers and to CheckBag on a one-file bag. Nothing panics; a
// manifest path is never outside the bag; and CheckBag passes the bag only
// when the manifest lists its one file with the right checksum and any
// Payload-Oxum is right.
func FuzzBagTagFiles(f *testing.F) {
	sum := sha256.Sum256([]byte("hello"))
	good := hex.EncodeToString(sum[:]) + "  data/a.txt\n"
	f.Add([]byte("BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n"), []byte("Payload-Oxum: 5.1\nBagging-Date: 2024-01-01\n"), []byte(good))
	f.Add([]byte("BagIt-Version: 0.97\r\nTag-File-Character-Encoding: UTF-16\r\n"), []byte("Payload-Oxum: 6.1\n  continued\nno colon\n"), []byte(good+"00 ../outside\n"))
	f.Add([]byte("\xef\xbb\xbfBagIt-Version: 1.0\nTag-File-Character-Encoding: ISO-8859-1\n"), []byte(""), []byte("ab *data/%2E%2E/a.txt\nzz\n"))
	f.Add([]byte("BagIt-Version: 1.0\nTag-File-Character-Encoding: UTF-8\n"), []byte("Payload-Oxum: 5.1\n"), []byte(strings.ToUpper(good[:64])+" ./data//a.txt\n"))
	f.Fuzz(func(t *testing.T, bagit, info, manifest []byte) {
		for _, v := range []declaration{{0, 97, "UTF-8"}, {1, 0, "UTF-8"}} {
			for _, line := range splitLines(string(manifest)) {
				ml, err := v.parseManifestLine(line)
				if err == nil && !insideBag(ml.path) {
					t.Fatalf("manifest line %q: path %q leaves the bag", line, ml.path)
				}
			}
		}
		if d, err := parseDeclaration(bagit); err == nil {
			d.decode(info)
		}
		dir := filepath.Join(t.TempDir(), "bag")
		writeFiles(t, dir, map[string][]byte{"bagit.txt": bagit, "bag-info.txt": info, "manifest-sha256.txt": manifest, "data/a.txt": []byte("hello")})
		if errs := CheckBag(dir); len(errs) == 0 {
			if !strings.Contains(strings.ToLower(string(manifest)), hex.EncodeToString(sum[:])) {
				t.Fatalf("bag passed with manifest %q", manifest)
			}
			for _, fl := range parseBagInfo(info) {
				if fl.label == "Payload-Oxum" && fl.value != "5.1" {
					t.Fatalf("bag passed with Payload-Oxum %q", fl.value)
				}
			}
		}
	})
}

// insideBag reports whether p, a cleaned slash path, stays in the bag.
func insideBag(p string) bool {
	return p != "" && p != "." && p == path.Clean(p) && !path.IsAbs(p) && p != ".." && !strings.HasPrefix(p, "../") &&
		!strings.ContainsAny(p, "\\\x00")
}

func writeFiles(t *testing.T, dir string, files map[string][]byte) {
	t.Helper()
	for name, b := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
