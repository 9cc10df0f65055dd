package aip_test

import (
	"bytes"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/blogharvest/blogharvest/aip"
)

const brokenRoot = "testdata/broken"

// breakage is one way to break the golden Entry AIP, and the problems
// Check must name for it (by type, each at least once, no other type).
type breakage struct {
	name  string
	apply func(t *testing.T, bag string) // changes the copy of the golden bag
	want  []error                        // zero values of the expected error types
	check func(t *testing.T, bag string, errs []error)
}

// breakages lists one bag per kind of damage.
var breakages = []breakage{
	{name: "missing-payload", apply: func(t *testing.T, bag string) {
		must(t, os.Remove(filepath.Join(bag, "data/objects/media/kettle.png")))
	}, want: []error{&aip.MissingError{}, &aip.OxumError{}, &aip.FileRefError{}},
		check: func(t *testing.T, bag string, errs []error) {
			m := first[*aip.MissingError](errs)
			if m.Path != filepath.Join(bag, "data/objects/media/kettle.png") {
				t.Errorf("MissingError.Path = %s", m.Path)
			}
		}},
	{name: "extra-payload", apply: func(t *testing.T, bag string) {
		must(t, os.WriteFile(filepath.Join(bag, "data/objects/media/stowaway.bin"), []byte("?"), 0o644))
	}, want: []error{&aip.ExtraError{}, &aip.OxumError{}, &aip.FileRefError{}},
		check: func(t *testing.T, bag string, errs []error) {
			if e := first[*aip.ExtraError](errs); !strings.HasSuffix(e.Path, "stowaway.bin") {
				t.Errorf("ExtraError.Path = %s", e.Path)
			}
		}},
	{name: "wrong-checksum", apply: func(t *testing.T, bag string) {
		p := filepath.Join(bag, "data/objects/media/kettle.png")
		data, _ := os.ReadFile(p)
		data[len(data)-1] ^= 0x20 // same size, other bytes
		must(t, os.WriteFile(p, data, 0o644))
	}, want: []error{&aip.ChecksumError{}, &aip.FileRefError{}, &aip.WARCError{}}, // the file no longer matches its WARC record either
		check: func(t *testing.T, bag string, errs []error) {
			e := first[*aip.ChecksumError](errs)
			data, _ := os.ReadFile(filepath.Join(bag, "data/objects/media/kettle.png"))
			if !strings.HasSuffix(e.Path, "kettle.png") || e.Got != hexSum(sha256.New(), data) && e.Got != hexSum(sha512.New(), data) {
				t.Errorf("ChecksumError = %+v", e)
			}
		}},
	{name: "truncated-manifest", apply: func(t *testing.T, bag string) {
		p := filepath.Join(bag, "manifest-sha256.txt")
		data, _ := os.ReadFile(p)
		cut := bytes.LastIndexByte(data[:len(data)/2], '\n') + 21 // inside a line's checksum, whatever the payload
		must(t, os.WriteFile(p, data[:cut], 0o644))
	}, want: []error{&aip.FormatError{}, &aip.ExtraError{}, &aip.ChecksumError{}},
		check: func(t *testing.T, bag string, errs []error) {
			if e := first[*aip.ChecksumError](errs); filepath.Base(e.Path) != "manifest-sha256.txt" {
				t.Errorf("ChecksumError.Path = %s, want the truncated manifest (tag manifest check)", e.Path)
			}
		}},
	{name: "oxum-mismatch", apply: func(t *testing.T, bag string) {
		editFile(t, filepath.Join(bag, "bag-info.txt"), "Payload-Oxum: ", "Payload-Oxum: 1")
		rebagKeepOxum(t, bag)
	}, want: []error{&aip.OxumError{}}},
	{name: "mets-schema-violation", apply: func(t *testing.T, bag string) {
		editFile(t, filepath.Join(bag, "data/METS.xml"), `CHECKSUMTYPE="SHA-256"`, `CHECKSUMTYPE="SHA-257"`)
		rebag(t, bag)
	}, want: []error{&aip.SchemaError{}},
		check: func(t *testing.T, bag string, errs []error) {
			if e := first[*aip.SchemaError](errs); e.Problem.Line == 0 || !strings.Contains(e.Error(), "SHA-257") {
				t.Errorf("SchemaError = %v", e)
			}
		}},
	{name: "marc-lint-failure", apply: func(t *testing.T, bag string) {
		editFile(t, filepath.Join(bag, "data/METS.xml"), "<leader>00000naa a22000007n 4500</leader>", "<leader>00000xaa a22000007n 4500</leader>")
		rebag(t, bag)
	}, want: []error{&aip.LintError{}},
		check: func(t *testing.T, bag string, errs []error) {
			if e := first[*aip.LintError](errs); e.DmdID != "dmd-entry" || e.Problem.Tag != "LDR" {
				t.Errorf("LintError = %+v", e)
			}
		}},
	{name: "mets-fileref-missing", apply: func(t *testing.T, bag string) {
		editFile(t, filepath.Join(bag, "data/METS.xml"), `xlink:href="objects/media/kettle.png"`, `xlink:href="objects/media/teapot.png"`)
		rebag(t, bag)
	}, want: []error{&aip.FileRefError{}},
		check: func(t *testing.T, bag string, errs []error) {
			if e := first[*aip.FileRefError](errs); e.Href != "objects/media/teapot.png" || e.FileID == "" {
				t.Errorf("FileRefError = %+v", e)
			}
		}},
}

// TestBroken checks each bag of testdata/broken (regenerated from the
// golden Entry AIP with -update) and requires exactly the expected kinds.
func TestBroken(t *testing.T) {
	if *update {
		regenerateBroken(t)
	}
	for _, b := range breakages {
		t.Run(b.name, func(t *testing.T) {
			bag := filepath.Join(brokenRoot, b.name)
			errs := aip.Check(bag)
			if got, want := kinds(errs), kinds(b.want); !reflect.DeepEqual(got, want) {
				t.Errorf("problem kinds %v, want %v:\n%v", got, want, errors.Join(errs...))
			}
			if b.check != nil && len(errs) > 0 {
				b.check(t, bag, errs)
			}
		})
	}
}

// regenerateBroken copies the golden Entry AIP once per breakage and breaks it.
func regenerateBroken(t *testing.T) {
	entry := goldenEntryBag(t)
	must(t, os.RemoveAll(brokenRoot))
	for _, b := range breakages {
		dst := filepath.Join(brokenRoot, b.name)
		copyTree(t, entry, dst)
		b.apply(t, dst)
	}
}

// goldenEntryBag returns the Entry AIP folder of testdata/valid.
func goldenEntryBag(t *testing.T) string {
	m, _ := filepath.Glob(filepath.Join(validRoot, "garden/entries/2024/*/v1"))
	if len(m) != 1 {
		t.Fatalf("no golden entry bag: %v", m)
	}
	return m[0]
}

// kinds returns the sorted distinct type names of errs.
func kinds(errs []error) []string {
	set := map[string]bool{}
	for _, e := range errs {
		set[fmt.Sprintf("%T", e)] = true
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// first returns the first error of type T in errs.
func first[T error](errs []error) T {
	for _, e := range errs {
		if t, ok := e.(T); ok {
			return t
		}
	}
	var zero T
	return zero
}

// rebag rewrites the manifests, Payload-Oxum and tag manifests of a bag
// after a deliberate edit, so the edit is the bag's only defect. It shares
// no code with the package's writer.
func rebag(t *testing.T, bag string) { t.Helper(); rebagWith(t, bag, false) }

// rebagKeepOxum is rebag leaving Payload-Oxum as it is (a deliberate breakage).
func rebagKeepOxum(t *testing.T, bag string) { t.Helper(); rebagWith(t, bag, true) }

func rebagWith(t *testing.T, bag string, keepOxum bool) {
	t.Helper()
	files := readTree(t, filepath.Join(bag, "data"))
	names := make([]string, 0, len(files))
	var octets int
	for n, d := range files {
		names = append(names, n)
		octets += len(d)
	}
	sort.Strings(names)
	for alg, h := range map[string]func() hash.Hash{"sha256": sha256.New, "sha512": sha512.New} {
		var m bytes.Buffer
		for _, n := range names {
			fmt.Fprintf(&m, "%s  data/%s\n", hexSum(h(), files[n]), n)
		}
		must(t, os.WriteFile(filepath.Join(bag, "manifest-"+alg+".txt"), m.Bytes(), 0o644))
	}
	info, _ := os.ReadFile(filepath.Join(bag, "bag-info.txt"))
	if !keepOxum {
		lines := strings.Split(string(info), "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, "Payload-Oxum: ") {
				lines[i] = fmt.Sprintf("Payload-Oxum: %d.%d", octets, len(files))
			}
		}
		must(t, os.WriteFile(filepath.Join(bag, "bag-info.txt"), []byte(strings.Join(lines, "\n")), 0o644))
	}
	for alg, h := range map[string]func() hash.Hash{"sha256": sha256.New, "sha512": sha512.New} {
		var m bytes.Buffer
		for _, n := range []string{"bag-info.txt", "bagit.txt", "manifest-sha256.txt", "manifest-sha512.txt"} {
			data, _ := os.ReadFile(filepath.Join(bag, n))
			fmt.Fprintf(&m, "%s  %s\n", hexSum(h(), data), n)
		}
		must(t, os.WriteFile(filepath.Join(bag, "tagmanifest-"+alg+".txt"), m.Bytes(), 0o644))
	}
}

func hexSum(h hash.Hash, data []byte) string {
	h.Write(data)
	return hex.EncodeToString(h.Sum(nil))
}

// editFile replaces the first old with new in a file, failing if absent.
func editFile(t *testing.T, name, old, new string) {
	t.Helper()
	data, err := os.ReadFile(name)
	must(t, err)
	if !bytes.Contains(data, []byte(old)) {
		t.Fatalf("%s lacks %q", name, old)
	}
	must(t, os.WriteFile(name, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644))
}

// copyTree copies the files of src to dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	for name, data := range readTree(t, src) {
		p := filepath.Join(dst, filepath.FromSlash(name))
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, data, 0o644))
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
}
